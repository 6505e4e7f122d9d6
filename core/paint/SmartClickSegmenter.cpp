#include "SmartClickSegmenter.h"

#include "ClassScores.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/imgproc/detail/gcgraph.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace segstudio::paint {

namespace {

// A clicked pixel's terminal weight: more than any cut through its neighbours can save.
constexpr float kHard = 1e6f;

// 1 / (2 <|I_p - I_q|^2>) over horizontal and vertical neighbours, as GrabCut sets its contrast.
double contrastScale(const cv::Mat& rgb)
{
    double sum = 0.0;
    std::int64_t count = 0;
    for (int y = 0; y < rgb.rows; ++y) {
        const auto* row = rgb.ptr<cv::Vec3f>(y);
        const auto* below = y + 1 < rgb.rows ? rgb.ptr<cv::Vec3f>(y + 1) : nullptr;
        for (int x = 0; x < rgb.cols; ++x) {
            if (x + 1 < rgb.cols) {
                const cv::Vec3f d = row[x] - row[x + 1];
                sum += d.dot(d);
                ++count;
            }
            if (below) {
                const cv::Vec3f d = row[x] - below[x];
                sum += d.dot(d);
                ++count;
            }
        }
    }
    return sum > 0.0 ? double(count) / (2.0 * sum) : 0.0;
}

// The point of `points` nearest to p (the first of equals) and its squared distance.
struct Nearest {
    std::size_t index = 0;
    std::int64_t squaredDistance = std::numeric_limits<std::int64_t>::max();
};

Nearest nearestOf(cv::Point p, const std::vector<cv::Point>& points)
{
    Nearest nearest;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::int64_t dx = p.x - points[i].x, dy = p.y - points[i].y, d = dx * dx + dy * dy;
        if (d < nearest.squaredDistance)
            nearest = {i, d};
    }
    return nearest;
}

}  // namespace

SmartClickSegmenter::SmartClickSegmenter(const cv::Mat& scores, const cv::Mat& rgb)
    : SmartClickSegmenter(scores, rgb, Parameters())
{
}

SmartClickSegmenter::SmartClickSegmenter(const cv::Mat& scores, const cv::Mat& rgb, Parameters parameters)
    : m_scores(scores), m_imageSize(rgb.size()), m_parameters(parameters)
{
    if (scores.empty() || scores.depth() != CV_8U || rgb.empty() || rgb.type() != CV_8UC3)
        throw std::invalid_argument("SmartClickSegmenter: needs 8-bit class scores and an 8-bit RGB image");
    cv::Mat small;
    cv::resize(rgb, small, scores.size(), 0, 0, scores.size() == rgb.size() ? cv::INTER_NEAREST : cv::INTER_AREA);
    m_colours = ClickColourModel(small);
    m_confidence = ClassScores::bestProbability(scores, m_parameters.scoreSteps);
    small.convertTo(small, CV_32FC3);
    const double beta = contrastScale(small);
    m_right = cv::Mat(small.size(), CV_32FC1, cv::Scalar(0));
    m_down = cv::Mat(small.size(), CV_32FC1, cv::Scalar(0));
    const auto weight = [&](const cv::Vec3f& a, const cv::Vec3f& b) {
        const cv::Vec3f d = a - b;
        return float(std::exp(-beta * d.dot(d)));
    };
    for (int y = 0; y < small.rows; ++y) {
        const auto* row = small.ptr<cv::Vec3f>(y);
        const auto* below = y + 1 < small.rows ? small.ptr<cv::Vec3f>(y + 1) : nullptr;
        auto* right = m_right.ptr<float>(y);
        auto* down = m_down.ptr<float>(y);
        for (int x = 0; x < small.cols; ++x) {
            if (x + 1 < small.cols)
                right[x] = weight(row[x], row[x + 1]);
            if (below)
                down[x] = weight(row[x], below[x]);
        }
    }
}

cv::Point SmartClickSegmenter::toWork(cv::Point p) const
{
    const double sx = double(m_scores.cols) / m_imageSize.width, sy = double(m_scores.rows) / m_imageSize.height;
    return {std::clamp(int((p.x + 0.5) * sx), 0, m_scores.cols - 1), std::clamp(int((p.y + 0.5) * sy), 0, m_scores.rows - 1)};
}

int SmartClickSegmenter::likelyClassAt(cv::Point imagePixel) const
{
    if (empty() || !cv::Rect({}, m_imageSize).contains(imagePixel))
        return -1;
    const cv::Point at = toWork(imagePixel);
    const std::uint8_t* scores = m_scores.ptr<std::uint8_t>(at.y) + std::size_t(at.x) * std::size_t(classes());
    return int(std::min_element(scores, scores + classes()) - scores);
}

cv::Mat SmartClickSegmenter::marginsOf(int classId) const
{
    const int n = classes();
    cv::Mat margins(m_scores.size(), CV_32FC1);
    const float perStep = float(1.0 / m_parameters.scoreSteps);
    for (int y = 0; y < m_scores.rows; ++y) {
        const std::uint8_t* scores = m_scores.ptr<std::uint8_t>(y);
        auto* out = margins.ptr<float>(y);
        for (int x = 0; x < m_scores.cols; ++x, scores += n) {
            int other = 255;
            for (int k = 0; k < n; ++k)
                if (k != classId)
                    other = std::min<int>(other, scores[k]);
            out[x] = float(other - int(scores[classId])) * perStep;
        }
    }
    return margins;
}

// How far the clicks agree with the model: a positive click where it already found the class, a
// negative one where it did not. The first click is the user's start, not a verdict on the model.
double SmartClickSegmenter::trustOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at,
                                    const cv::Mat& margins) const
{
    int agreeing = 0;
    for (std::size_t i = 0; i < clicks.size(); ++i) {
        const float m = margins.at<float>(at[i]);
        agreeing += clicks[i].positive ? m > 0.0f : m < 0.0f;
    }
    return double(1 + agreeing) / double(1 + clicks.size());
}

// The unary term of the cut: the model's margins, shifted by the clicks; from the
// colourFromClick-th click on, plus the clicks' colour model, weighted by how far the clicks
// contradicted the model (1 - trust) and by how unsure it is at the pixel (a sure pixel counts
// half). Scaling the margins down by the trust as well cost the good model clicks (NoC@90 on 8
// CamVid val frames, docs/LABELING.md): the margins stay as they are.
cv::Mat SmartClickSegmenter::unaryOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at, int classId) const
{
    const cv::Mat margins = marginsOf(classId);
    cv::Mat unary = margins + biasOf(clicks, at, margins);
    if (int(clicks.size()) < m_parameters.colourFromClick || m_parameters.colourWeight <= 0.0 || m_colours.empty())
        return unary;
    const double trust = trustOf(clicks, at, margins);
    std::vector<ClickColourModel::Point> points;
    for (std::size_t i = 0; i < clicks.size(); ++i)
        points.push_back({at[i], clicks[i].positive});
    const cv::Mat colour = m_colours.logRatio(points, m_parameters.colourRadius, float(m_parameters.colourLimit));
    const double untrusted = m_parameters.colourWeight * (1.0 - trust);
    for (int y = 0; y < unary.rows; ++y) {
        auto* out = unary.ptr<float>(y);
        const auto* c = colour.ptr<float>(y);
        const auto* confidence = m_confidence.ptr<float>(y);
        for (int x = 0; x < unary.cols; ++x)
            out[x] += float(untrusted * (1.0 - 0.5 * confidence[x])) * c[x];
    }
    return unary;
}

// Each pixel takes the shift of the click nearest to it: a positive click moves its own pixel
// `margin` nats inside, a negative one `margin` nats outside; a click already on the right side
// by that much moves nothing.
cv::Mat SmartClickSegmenter::biasOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at,
                                    const cv::Mat& margins) const
{
    std::vector<float> shift(clicks.size());
    for (std::size_t i = 0; i < clicks.size(); ++i) {
        const float m = margins.at<float>(at[i]);
        shift[i] = clicks[i].positive ? std::max(0.0f, float(m_parameters.margin) - m)
                                      : std::min(0.0f, -float(m_parameters.margin) - m);
    }
    const double fade = m_parameters.reach > 0 ? 1.0 / (2.0 * m_parameters.reach * m_parameters.reach) : 0.0;
    cv::Mat bias(margins.size(), CV_32FC1);
    for (int y = 0; y < bias.rows; ++y) {
        auto* out = bias.ptr<float>(y);
        for (int x = 0; x < bias.cols; ++x) {
            const Nearest nearest = nearestOf({x, y}, at);
            const float full = shift[nearest.index];
            out[x] = fade > 0 ? float(full * std::exp(-double(nearest.squaredDistance) * fade)) : full;
        }
    }
    return bias;
}

// The Potts weight at each work pixel: `smoothness`, rising to `refiningSmoothness` around the
// negative clicks. A positive click near an earlier one counted as a correction too did as well on
// single objects but cost labelling whole frames (a second click of a class is often another thin
// patch of it nearby, which the heavier term then erased).
cv::Mat SmartClickSegmenter::smoothnessOf(const std::vector<Click>& clicks, const std::vector<cv::Point>& at) const
{
    const double base = m_parameters.smoothness, extra = m_parameters.refiningSmoothness - base;
    cv::Mat weight(m_scores.size(), CV_32FC1, cv::Scalar(base));
    const double reach = m_parameters.reach > 0 ? m_parameters.reach : double(std::max(weight.cols, weight.rows));
    std::vector<cv::Point> corrections;
    for (std::size_t i = 0; i < at.size(); ++i)
        if (!clicks[i].positive)
            corrections.push_back(at[i]);
    if (corrections.empty() || extra <= 0.0)
        return weight;
    const double fade = 1.0 / (2.0 * reach * reach);
    for (int y = 0; y < weight.rows; ++y) {
        auto* out = weight.ptr<float>(y);
        for (int x = 0; x < weight.cols; ++x)
            out[x] = float(base + extra * std::exp(-double(nearestOf({x, y}, corrections).squaredDistance) * fade));
    }
    return weight;
}

// The binary graph cut over roi: a pixel outside the roi counts as outside the region.
cv::Mat SmartClickSegmenter::cut(const cv::Mat& unary, const cv::Rect& roi, const std::vector<Click>& clicks,
                                 const std::vector<cv::Point>& at, const cv::Mat& smoothness) const
{
    const int w = roi.width, h = roi.height;
    cv::detail::GCGraph<float> graph(unsigned(w * h), unsigned(2 * w * h));
    for (int y = 0; y < h; ++y) {
        const auto* t = unary.ptr<float>(roi.y + y) + roi.x;
        const auto* right = m_right.ptr<float>(roi.y + y) + roi.x;
        const auto* down = m_down.ptr<float>(roi.y + y) + roi.x;
        const float* up = roi.y + y > 0 ? m_down.ptr<float>(roi.y + y - 1) + roi.x : nullptr;
        const auto* potts = smoothness.ptr<float>(roi.y + y) + roi.x;
        for (int x = 0; x < w; ++x) {
            const int v = graph.addVtx();
            // Neighbours beyond the roi are outside the region: being inside costs their edge.
            float outside = 0.0f;
            if (x == 0 && roi.x > 0)
                outside += m_right.at<float>(roi.y + y, roi.x - 1);
            if (x == w - 1)
                outside += right[x];
            if (y == 0 && up)
                outside += up[x];
            if (y == h - 1)
                outside += down[x];
            graph.addTermWeights(v, std::max(0.0f, t[x]), std::max(0.0f, -t[x]) + potts[x] * outside);
        }
    }
    for (int y = 0; y < h; ++y) {
        const auto* right = m_right.ptr<float>(roi.y + y) + roi.x;
        const auto* down = m_down.ptr<float>(roi.y + y) + roi.x;
        const auto* potts = smoothness.ptr<float>(roi.y + y) + roi.x;
        for (int x = 0; x < w; ++x) {
            const int v = y * w + x;
            if (x + 1 < w)
                graph.addEdges(v, v + 1, potts[x] * right[x], potts[x] * right[x]);
            if (y + 1 < h)
                graph.addEdges(v, v + w, potts[x] * down[x], potts[x] * down[x]);
        }
    }
    for (std::size_t i = 0; i < clicks.size(); ++i) {
        if (!roi.contains(at[i]))
            continue;
        const int v = (at[i].y - roi.y) * w + (at[i].x - roi.x);
        graph.addTermWeights(v, clicks[i].positive ? kHard : 0.0f, clicks[i].positive ? 0.0f : kHard);
    }
    graph.maxFlow();
    cv::Mat inside(h, w, CV_8UC1);
    for (int y = 0; y < h; ++y) {
        auto* out = inside.ptr<std::uint8_t>(y);
        for (int x = 0; x < w; ++x)
            out[x] = graph.inSourceSegment(y * w + x) ? 255 : 0;
    }
    return inside;
}

RegionMask SmartClickSegmenter::region(const std::vector<Click>& clicks, int classId, const cv::Mat& labels) const
{
    if (empty() || classId < 0 || classId >= classes())
        return {};
    std::vector<Click> inImage;
    std::vector<cv::Point> at;
    for (const Click& click : clicks) {
        if (!cv::Rect({}, m_imageSize).contains(click.at))
            continue;
        inImage.push_back(click);
        at.push_back(toWork(click.at));
    }
    // A pixel clicked both ways keeps its last click.
    for (std::size_t i = 0; i < at.size(); ++i)
        for (std::size_t j = i + 1; j < at.size(); ++j)
            if (at[i] == at[j])
                inImage[i].positive = inImage[j].positive;
    if (std::none_of(inImage.begin(), inImage.end(), [](const Click& c) { return c.positive; }))
        return {};

    cv::Mat unary = unaryOf(inImage, at, classId);
    const bool confined = !labels.empty() && labels.size() == m_imageSize && labels.type() == CV_8UC1;
    std::array<bool, 256> allowed{};
    if (confined)
        allowed = confineToClickedLabels(unary, inImage, labels);
    const cv::Mat smoothness = smoothnessOf(inImage, at);
    const cv::Rect roi = reachOfClicks(unary, inImage, at, smoothness);
    const cv::Mat inside = cut(unary, roi, inImage, at, smoothness);
    cv::Mat workMask(m_scores.size(), CV_8UC1, cv::Scalar(0));
    connectedToPositiveClicks(inside, roi, inImage, at).copyTo(workMask(roi));
    if (m_parameters.holesUpTo > 0.0)
        fillHoles(workMask, inImage, at);

    RegionMask region = toImage(workMask);
    if (confined && !region.empty())
        for (int y = 0; y < region.mask.rows; ++y) {
            const auto* label = labels.ptr<std::uint8_t>(region.bounds.y + y) + region.bounds.x;
            auto* pixel = region.mask.ptr<std::uint8_t>(y);
            for (int x = 0; x < region.mask.cols; ++x)
                if (!allowed[label[x]])
                    pixel[x] = 0;
        }
    return withClicksHeld(std::move(region), inImage);
}

// With labels given, the region stays within the labels under its positive clicks: every other
// label's work pixels are made certain background. Returns the labels allowed.
std::array<bool, 256> SmartClickSegmenter::confineToClickedLabels(cv::Mat& unary, const std::vector<Click>& clicks,
                                                                 const cv::Mat& labels) const
{
    std::array<bool, 256> allowed{};
    for (const Click& click : clicks)
        if (click.positive)
            allowed[labels.at<std::uint8_t>(click.at)] = true;
    cv::Mat small;
    cv::resize(labels, small, m_scores.size(), 0, 0, cv::INTER_NEAREST);
    for (int y = 0; y < small.rows; ++y) {
        const auto* label = small.ptr<std::uint8_t>(y);
        auto* t = unary.ptr<float>(y);
        for (int x = 0; x < small.cols; ++x)
            if (!allowed[label[x]])
                t[x] = -kHard;
    }
    return allowed;
}

// The cut can only move a pixel whose unary is within the Potts weight of its four neighbours
// of zero, so the graph covers the candidates connected to a positive click, and a rim.
cv::Rect SmartClickSegmenter::reachOfClicks(const cv::Mat& unary, const std::vector<Click>& clicks,
                                            const std::vector<cv::Point>& at, const cv::Mat& smoothness)
{
    cv::Mat candidates = unary > -4.0 * smoothness;
    for (std::size_t i = 0; i < at.size(); ++i)
        candidates.at<std::uint8_t>(at[i]) = clicks[i].positive ? 255 : 0;
    cv::Mat components;
    cv::connectedComponents(candidates, components, 4, CV_32S);
    cv::Rect roi;
    for (std::size_t i = 0; i < at.size(); ++i) {
        if (!clicks[i].positive)
            continue;
        const cv::Mat mine = components == components.at<int>(at[i]);
        roi |= cv::boundingRect(mine);
    }
    return cv::Rect(roi.x - 2, roi.y - 2, roi.width + 4, roi.height + 4) & cv::Rect({}, unary.size());
}

// The region is what the cut keeps connected to a positive click (roi's size).
cv::Mat SmartClickSegmenter::connectedToPositiveClicks(const cv::Mat& inside, const cv::Rect& roi,
                                                       const std::vector<Click>& clicks, const std::vector<cv::Point>& at)
{
    cv::Mat insideComponents;
    cv::connectedComponents(inside, insideComponents, 4, CV_32S);
    cv::Mat kept(inside.size(), CV_8UC1, cv::Scalar(0));
    for (std::size_t i = 0; i < at.size(); ++i) {
        if (!clicks[i].positive || !roi.contains(at[i]))
            continue;
        const int id = insideComponents.at<int>(at[i] - roi.tl());
        if (id > 0)
            kept.setTo(255, insideComponents == id);
    }
    return kept;
}

// The pieces outside the region that it encloses (not connected, 8-way, to the rim of its box
// grown by a pixel) join it when small enough and free of negative clicks.
void SmartClickSegmenter::fillHoles(cv::Mat& workMask, const std::vector<Click>& clicks, const std::vector<cv::Point>& at) const
{
    const cv::Rect box = cv::boundingRect(workMask);
    if (box.empty())
        return;
    const cv::Rect grown = (box + cv::Size(2, 2) - cv::Point(1, 1)) & cv::Rect({}, workMask.size());
    cv::Mat outside = workMask(grown) == 0;
    cv::Mat pieces, stats, centroids;
    const int count = cv::connectedComponentsWithStats(outside, pieces, stats, centroids, 8, CV_32S);
    std::vector<bool> fill(std::size_t(count), false);
    const double largest = m_parameters.holesUpTo * double(cv::countNonZero(workMask(box)));
    for (int id = 1; id < count; ++id) {
        const cv::Rect piece(stats.at<int>(id, cv::CC_STAT_LEFT), stats.at<int>(id, cv::CC_STAT_TOP),
                             stats.at<int>(id, cv::CC_STAT_WIDTH), stats.at<int>(id, cv::CC_STAT_HEIGHT));
        const bool touchesRim = piece.x == 0 || piece.y == 0 || piece.br().x == grown.width || piece.br().y == grown.height;
        fill[std::size_t(id)] = !touchesRim && stats.at<int>(id, cv::CC_STAT_AREA) <= largest;
    }
    for (std::size_t i = 0; i < at.size(); ++i)
        if (!clicks[i].positive && grown.contains(at[i]))
            fill[std::size_t(pieces.at<int>(at[i] - grown.tl()))] = false;
    cv::Mat region = workMask(grown);
    for (int y = 0; y < grown.height; ++y) {
        const int* id = pieces.ptr<int>(y);
        auto* pixel = region.ptr<std::uint8_t>(y);
        for (int x = 0; x < grown.width; ++x)
            if (fill[std::size_t(id[x])])
                pixel[x] = 255;
    }
}

// The clicks hold exactly at the image's resolution too.
RegionMask SmartClickSegmenter::withClicksHeld(RegionMask region, const std::vector<Click>& clicks) const
{
    cv::Mat full;
    for (const Click& click : clicks) {
        if (region.bounds.contains(click.at)) {
            region.mask.at<std::uint8_t>(click.at - region.bounds.tl()) = click.positive ? 255 : 0;
        } else if (click.positive) {
            if (full.empty()) {
                full = cv::Mat(m_imageSize, CV_8UC1, cv::Scalar(0));
                if (!region.empty())
                    region.mask.copyTo(full(region.bounds));
            }
            full.at<std::uint8_t>(click.at) = 255;
        }
    }
    return full.empty() ? region : RegionMask::fromFullMask(full);
}

// The work-size mask at the image's size: bilinear over the mask's bounding box (and a pixel of
// context), thresholded at half, so a region drawn at 0.2 megapixels has no staircase at 12.
RegionMask SmartClickSegmenter::toImage(const cv::Mat& workMask) const
{
    if (workMask.size() == m_imageSize)
        return RegionMask::fromFullMask(workMask);
    const cv::Rect box = cv::boundingRect(workMask);
    if (box.empty())
        return {};
    const cv::Rect padded = cv::Rect(box.x - 1, box.y - 1, box.width + 2, box.height + 2) & cv::Rect({}, workMask.size());
    const double sx = double(m_imageSize.width) / workMask.cols, sy = double(m_imageSize.height) / workMask.rows;
    const cv::Rect target = cv::Rect(cv::Point(int(std::floor(padded.x * sx)), int(std::floor(padded.y * sy))),
                                     cv::Point(int(std::ceil(padded.br().x * sx)), int(std::ceil(padded.br().y * sy)))) &
                            cv::Rect({}, m_imageSize);
    cv::Mat scaled;
    cv::resize(workMask(padded), scaled, target.size(), 0, 0, cv::INTER_LINEAR);
    const cv::Mat on = scaled >= 128;
    const cv::Rect bounds = cv::boundingRect(on);
    if (bounds.empty())
        return {};
    RegionMask region;
    region.bounds = bounds + target.tl();
    region.mask = on(bounds).clone();
    return region;
}

}  // namespace segstudio::paint
