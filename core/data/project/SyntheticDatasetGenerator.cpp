#include "SyntheticDatasetGenerator.h"

#include "DatasetSplitter.h"
#include "data/labels/ImageIO.h"
#include "data/labels/LabelMapIO.h"

#include <algorithm>
#include <cstdio>
#include <opencv2/imgproc.hpp>

namespace segstudio::data {
inline namespace project {

namespace {

// CamVid ids, in the order of the preset.
enum CamVidClass : std::uint8_t { Sky, Building, Pole, Road, Pavement, Tree, SignSymbol, Fence, Car, Pedestrian, Bicyclist };

// splitmix64 keeps scenes identical across platforms and standard libraries.
class SceneRandom {
public:
    explicit SceneRandom(std::uint64_t seed) : m_state(seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL) {}

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Inclusive; an empty range (possible on tiny images) collapses to lo.
    int uniform(int lo, int hi) { return hi <= lo ? lo : lo + int(next() % std::uint64_t(hi - lo + 1)); }
    double unit() { return double(next() >> 11) / double(1ULL << 53); }

private:
    std::uint64_t m_state;
};

// Paints a shape into the image (its own colour) and the label map (its class) in one go, so
// labels match the pixels exactly. No antialiasing: label edges must be crisp.
class ScenePainter {
public:
    ScenePainter(cv::Mat& image, cv::Mat& labels, SceneRandom& random) : m_image(image), m_labels(labels), m_random(random) {}

    cv::Scalar jitter(cv::Scalar base, int amount)
    {
        return {double(std::clamp(int(base[0]) + m_random.uniform(-amount, amount), 0, 255)),
                double(std::clamp(int(base[1]) + m_random.uniform(-amount, amount), 0, 255)),
                double(std::clamp(int(base[2]) + m_random.uniform(-amount, amount), 0, 255))};
    }
    void rect(cv::Rect r, cv::Scalar color, std::uint8_t id)
    {
        cv::rectangle(m_image, r, color, cv::FILLED, cv::LINE_8);
        cv::rectangle(m_labels, r, cv::Scalar(id), cv::FILLED, cv::LINE_8);
    }
    void polygon(const std::vector<cv::Point>& points, cv::Scalar color, std::uint8_t id)
    {
        cv::fillPoly(m_image, std::vector<std::vector<cv::Point>>{points}, color, cv::LINE_8);
        cv::fillPoly(m_labels, std::vector<std::vector<cv::Point>>{points}, cv::Scalar(id), cv::LINE_8);
    }
    void ellipse(cv::Point center, cv::Size axes, cv::Scalar color, std::uint8_t id)
    {
        cv::ellipse(m_image, center, axes, 0, 0, 360, color, cv::FILLED, cv::LINE_8);
        cv::ellipse(m_labels, center, axes, 0, 0, 360, cv::Scalar(id), cv::FILLED, cv::LINE_8);
    }
    void ring(cv::Point center, int radius, int thickness, cv::Scalar color, std::uint8_t id)
    {
        cv::circle(m_image, center, radius, color, thickness, cv::LINE_8);
        cv::circle(m_labels, center, radius, cv::Scalar(id), thickness, cv::LINE_8);
    }
    void line(cv::Point a, cv::Point b, int thickness, cv::Scalar color, std::uint8_t id)
    {
        cv::line(m_image, a, b, color, thickness, cv::LINE_8);
        cv::line(m_labels, a, b, cv::Scalar(id), thickness, cv::LINE_8);
    }
    // Image-only detail (windows, lane marks): texture that does not change the class.
    void detail(cv::Rect r, cv::Scalar color) { cv::rectangle(m_image, r, color, cv::FILLED, cv::LINE_8); }

private:
    cv::Mat& m_image;
    cv::Mat& m_labels;
    SceneRandom& m_random;
};

struct Layout {
    int width;
    int height;
    int horizon;
    int roadLeftTop, roadRightTop;  // road edges at the horizon
};

void drawSkyAndBuildings(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    for (int y = 0; y < l.horizon; y += 4)  // gradient sky in bands
        paint.rect({0, y, l.width, 4}, cv::Scalar(110 + y * 60 / l.horizon, 150 + y * 50 / l.horizon, 220), Sky);
    for (int x = -random.uniform(0, 40); x < l.width;) {
        const int w = random.uniform(l.width / 10, l.width / 4);
        const int top = random.uniform(l.horizon / 6, l.horizon * 3 / 4);
        const cv::Scalar wall = paint.jitter(cv::Scalar(150, 110, 90), 40);
        paint.rect({x, top, w, l.horizon + l.height / 12 - top}, wall, Building);
        for (int wy = top + 8; wy + 8 < l.horizon; wy += 18)
            for (int wx = x + 6; wx + 8 < x + w; wx += 16)
                paint.detail({wx, wy, 8, 9}, cv::Scalar(60, 70, 90));
        x += w + random.uniform(0, 12);
    }
}

void drawTrees(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    for (int n = random.uniform(1, 3); n > 0; --n) {
        const cv::Point center(random.uniform(0, l.width), random.uniform(l.horizon / 2, l.horizon));
        const int radius = random.uniform(l.height / 14, l.height / 7);
        paint.rect({center.x - radius / 6, center.y, std::max(2, radius / 3), l.height / 10}, cv::Scalar(90, 60, 30), Tree);
        paint.ellipse(center, {radius, radius * 4 / 5}, paint.jitter(cv::Scalar(50, 120, 40), 25), Tree);
    }
}

void drawGround(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    const int kerb = l.width / 8;
    paint.polygon({{0, l.horizon}, {l.width, l.horizon}, {l.width, l.height}, {0, l.height}},
                  paint.jitter(cv::Scalar(170, 160, 150), 15), Pavement);
    const int asphalt = 85 + random.uniform(0, 25);  // grey: one offset for all channels
    paint.polygon({{l.roadLeftTop, l.horizon}, {l.roadRightTop, l.horizon}, {l.width + kerb, l.height}, {-kerb, l.height}},
                  cv::Scalar(asphalt, asphalt, asphalt + 5), Road);
    for (int y = l.horizon + 6; y < l.height; y += 30) {  // dashed centre line, still road
        const int half = 1 + (y - l.horizon) / 40;
        const int cx = (l.roadLeftTop + l.roadRightTop) / 2;
        paint.detail({cx - half, y, 2 * half, 10 + (y - l.horizon) / 12}, cv::Scalar(235, 235, 220));
    }
}

void drawFence(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    const bool left = random.uniform(0, 1) == 0;
    const int x0 = left ? 0 : l.width - l.width / 5;
    const int top = l.horizon - l.height / 14;
    const cv::Scalar color = paint.jitter(cv::Scalar(140, 120, 80), 20);
    paint.rect({x0, top, l.width / 5, 4}, color, Fence);
    paint.rect({x0, top + l.height / 20, l.width / 5, 4}, color, Fence);
    for (int x = x0; x < x0 + l.width / 5; x += 10)
        paint.rect({x, top, 3, l.height / 14 + 6}, color, Fence);
}

void drawPolesAndSigns(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    for (int n = random.uniform(1, 3); n > 0; --n) {
        const int x = random.uniform(0, 1) ? random.uniform(4, l.width / 5) : random.uniform(l.width * 4 / 5, l.width - 8);
        const int bottom = random.uniform(l.horizon + l.height / 8, l.height - 10);
        const int top = random.uniform(l.height / 8, l.horizon - 10);
        paint.rect({x, top, 4, bottom - top}, cv::Scalar(70, 70, 75), Pole);
        if (random.uniform(0, 1))
            paint.ellipse({x + 2, top}, {9, 9}, cv::Scalar(220, 30, 30), SignSymbol);
        else
            paint.rect({x - 8, top - 12, 20, 14}, cv::Scalar(30, 60, 200), SignSymbol);
    }
}

void drawCars(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    for (int n = random.uniform(1, 3); n > 0; --n) {
        const int y = random.uniform(l.horizon + 10, l.height - 40);
        const double scale = 0.4 + 1.2 * double(y - l.horizon) / double(l.height - l.horizon);
        const int w = int(90 * scale), h = int(40 * scale);
        const int x = random.uniform(l.width / 6, l.width * 5 / 6) - w / 2;
        const cv::Scalar body = paint.jitter(cv::Scalar(random.uniform(40, 220), random.uniform(20, 200), random.uniform(20, 200)), 10);
        paint.rect({x, y - h, w, h}, body, Car);
        paint.rect({x + w / 5, y - h - h / 2, w * 3 / 5, h / 2 + 1}, body, Car);
        paint.detail({x + w / 4, y - h - h / 3, w / 2, h / 3}, cv::Scalar(50, 60, 80));
        paint.ellipse({x + w / 5, y}, {std::max(2, h / 4), std::max(2, h / 4)}, cv::Scalar(20, 20, 20), Car);
        paint.ellipse({x + w * 4 / 5, y}, {std::max(2, h / 4), std::max(2, h / 4)}, cv::Scalar(20, 20, 20), Car);
    }
}

void drawPedestrians(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    for (int n = random.uniform(1, 3); n > 0; --n) {
        const int feet = random.uniform(l.horizon + 20, l.height - 5);
        const double scale = 0.5 + double(feet - l.horizon) / double(l.height - l.horizon);
        const int h = int(70 * scale), w = std::max(4, int(16 * scale));
        const int x = random.uniform(0, 1) ? random.uniform(5, l.width / 6) : random.uniform(l.width * 5 / 6, l.width - 20);
        const cv::Scalar coat = paint.jitter(cv::Scalar(120, 40, 60), 50);
        paint.rect({x, feet - h * 4 / 5, w, h * 4 / 5}, coat, Pedestrian);
        paint.ellipse({x + w / 2, feet - h * 4 / 5 - w / 2}, {w / 2, w / 2 + 1}, cv::Scalar(225, 185, 150), Pedestrian);
    }
}

void drawBicyclist(ScenePainter& paint, SceneRandom& random, const Layout& l)
{
    const int ground = random.uniform(l.horizon + 30, l.height - 15);
    const double scale = 0.5 + double(ground - l.horizon) / double(l.height - l.horizon);
    const int r = std::max(4, int(12 * scale));
    const int x = random.uniform(l.width / 4, l.width * 3 / 4);
    const cv::Scalar frame = cv::Scalar(30, 30, 30);
    paint.ring({x - 2 * r, ground - r}, r, 2, frame, Bicyclist);
    paint.ring({x + 2 * r, ground - r}, r, 2, frame, Bicyclist);
    paint.line({x - 2 * r, ground - r}, {x, ground - 2 * r}, 2, frame, Bicyclist);
    paint.line({x, ground - 2 * r}, {x + 2 * r, ground - r}, 2, frame, Bicyclist);
    paint.rect({x - r / 2, ground - 5 * r, r, 3 * r}, paint.jitter(cv::Scalar(230, 200, 40), 20), Bicyclist);
    paint.ellipse({x, ground - 5 * r - r / 2}, {r / 2 + 1, r / 2 + 1}, cv::Scalar(225, 185, 150), Bicyclist);
}

// Sensor-like noise so that colour alone does not give the class away completely.
void addNoise(cv::Mat& image, SceneRandom& random)
{
    for (int y = 0; y < image.rows; ++y) {
        auto* row = image.ptr<std::uint8_t>(y);
        for (int x = 0; x < image.cols * 3; ++x)
            row[x] = std::uint8_t(std::clamp(int(row[x]) + int(random.next() % 21) - 10, 0, 255));
    }
}

}  // namespace

SyntheticDatasetGenerator::SyntheticDatasetGenerator(int height, int width) : m_height(height), m_width(width) {}

SyntheticDatasetGenerator::Scene SyntheticDatasetGenerator::generate(std::uint64_t seed) const
{
    SceneRandom random(seed);
    Scene scene{cv::Mat(m_height, m_width, CV_8UC3, cv::Scalar(0, 0, 0)), cv::Mat(m_height, m_width, CV_8UC1, cv::Scalar(kUnlabelled))};
    ScenePainter paint(scene.image, scene.labels, random);
    const int horizon = m_height * random.uniform(40, 52) / 100;
    const int centre = m_width * random.uniform(40, 60) / 100;
    const Layout layout{m_width, m_height, horizon, centre - m_width / 14, centre + m_width / 14};

    drawSkyAndBuildings(paint, random, layout);
    drawTrees(paint, random, layout);
    drawGround(paint, random, layout);
    drawFence(paint, random, layout);
    drawPolesAndSigns(paint, random, layout);
    drawCars(paint, random, layout);
    drawPedestrians(paint, random, layout);
    drawBicyclist(paint, random, layout);
    addNoise(scene.image, random);
    return scene;
}

Project SyntheticDatasetGenerator::writeProject(const std::filesystem::path& dir, std::size_t count, std::uint64_t seed,
                                                const std::string& name) const
{
    std::filesystem::create_directories(dir / "images");
    Project project(std::filesystem::absolute(dir / (name + Project::kFileSuffix)), ClassSchema::camVid());
    std::filesystem::create_directories(project.labelRoot());
    for (std::size_t i = 0; i < count; ++i) {
        char fileName[64];
        std::snprintf(fileName, sizeof(fileName), "street_%04zu.png", i + 1);
        const Scene scene = generate(seed * 100003 + i);
        const std::filesystem::path imagePath = dir / "images" / fileName;
        writeImageRgb(imagePath, scene.image, run::Durability::Deferred);
        const std::size_t index = project.addImage(std::filesystem::absolute(imagePath));
        writeLabelMap(project.labelMapPath(index), scene.labels, project.schema(), run::Durability::Deferred);
        project.setStatus(index, LabelStatus::Labelled);
    }
    DatasetSplitter::apply(project, SplitRatios{}, seed);
    run::syncFolder(dir);
    project.save();
    return project;
}

}  // namespace project
}  // namespace segstudio::data
