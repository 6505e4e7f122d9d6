#include "StrokeSegmenter.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/imgproc/detail/gcgraph.hpp>

#include <algorithm>
#include <cmath>

namespace segstudio::paint {

namespace {

// A held pixel's terminal weight: more than any cut through its neighbours can save.
constexpr float kHeld = 1e6f;
// Colours binned 32 levels a channel: finer than the smart click's 8, because a pole and the wall
// behind it often differ by a shade (on CamVid's thin objects, tuning frames: IoU of one stroke
// 0.47 with 8 levels, 0.55 with 16, 0.60 with 32, 0.58 with 64; docs/LABELING.md).
constexpr int kLevels = 32;
constexpr int kBins = kLevels * kLevels * kLevels;
// The widest corridor cut at the image's own pixels (a thin thing's band); wider ones are cut at a
// scale that makes them this wide, so a stroke costs about the same at any image size.
constexpr int kWorkCorridor = 16;

int binOf(const cv::Vec3b& colour)
{
    return (colour[0] / (256 / kLevels)) * kLevels * kLevels + (colour[1] / (256 / kLevels)) * kLevels
         + colour[2] / (256 / kLevels);
}

// The colours of the pixels where `where` is set, each count spread over its neighbouring bins
// (so a few hundred samples make a usable model), with a floor, normalised.
std::vector<float> histogramOf(const cv::Mat& rgb, const cv::Mat& where)
{
    std::vector<float> counts(kBins, 0.0f);
    for (int y = 0; y < rgb.rows; ++y) {
        const auto* colour = rgb.ptr<cv::Vec3b>(y);
        const auto* inside = where.ptr<std::uint8_t>(y);
        for (int x = 0; x < rgb.cols; ++x)
            if (inside[x])
                counts[std::size_t(binOf(colour[x]))] += 1.0f;
    }
    std::vector<float> spread(kBins, 0.0f);
    for (int r = 0; r < kLevels; ++r)
        for (int g = 0; g < kLevels; ++g)
            for (int b = 0; b < kLevels; ++b) {
                const float count = counts[std::size_t((r * kLevels + g) * kLevels + b)];
                if (count == 0.0f)
                    continue;
                for (int dr = std::max(0, r - 1); dr <= std::min(kLevels - 1, r + 1); ++dr)
                    for (int dg = std::max(0, g - 1); dg <= std::min(kLevels - 1, g + 1); ++dg)
                        for (int db = std::max(0, b - 1); db <= std::min(kLevels - 1, b + 1); ++db)
                            spread[std::size_t((dr * kLevels + dg) * kLevels + db)] +=
                                count * ((dr == r && dg == g && db == b) ? 1.0f : 0.25f);
            }
    double total = 0.0;
    for (float& value : spread) {
        value += 0.01f;
        total += value;
    }
    for (float& value : spread)
        value = float(value / total);
    return spread;
}

// 1 / (2 <|I_p - I_q|^2>) over the neighbours inside the corridor, as GrabCut sets its contrast.
double contrastScale(const cv::Mat& rgb, const cv::Mat& corridor)
{
    double sum = 0.0;
    std::int64_t count = 0;
    for (int y = 0; y < rgb.rows; ++y)
        for (int x = 0; x < rgb.cols; ++x) {
            if (!corridor.at<std::uint8_t>(y, x))
                continue;
            const cv::Vec3f here = rgb.at<cv::Vec3b>(y, x);
            for (const cv::Point step : {cv::Point(1, 0), cv::Point(0, 1)}) {
                const cv::Point next(x + step.x, y + step.y);
                if (next.x >= rgb.cols || next.y >= rgb.rows || !corridor.at<std::uint8_t>(next))
                    continue;
                const cv::Vec3f d = here - cv::Vec3f(rgb.at<cv::Vec3b>(next));
                sum += d.dot(d);
                ++count;
            }
        }
    return sum > 0.0 ? double(count) / (2.0 * sum) : 0.0;
}

struct Corridor {
    cv::Rect roi;
    cv::Mat stroke;  // CV_8UC1 of roi: the stroke's pixels
    cv::Mat inside;  // within `corridor` of the stroke (the cut's nodes)
    cv::Mat rim;     // the corridor's outer pixels: held outside
};

Corridor corridorOf(cv::Size image, const std::vector<cv::Point>& stroke, int width)
{
    Corridor c;
    const cv::Rect bounds = cv::boundingRect(stroke);
    c.roi = cv::Rect(bounds.x - width - 1, bounds.y - width - 1, bounds.width + 2 * width + 2,
                     bounds.height + 2 * width + 2) & cv::Rect({}, image);
    if (c.roi.empty())
        return c;
    c.stroke = cv::Mat(c.roi.size(), CV_8UC1, cv::Scalar(0));
    std::vector<cv::Point> shifted;
    for (const cv::Point& p : stroke)
        shifted.push_back(p - c.roi.tl());
    if (shifted.size() == 1)
        c.stroke.at<std::uint8_t>(shifted.front()) = 255;
    else
        cv::polylines(c.stroke, shifted, false, cv::Scalar(255), 1, cv::LINE_8);
    cv::Mat distance;
    cv::distanceTransform(c.stroke == 0, distance, cv::DIST_L2, cv::DIST_MASK_PRECISE);
    c.inside = distance <= float(width);
    c.rim = c.inside & (distance > float(width) - 1.5f);
    c.rim.setTo(0, c.stroke);
    return c;
}


// The cut itself, at the pixels of `rgb`.
RegionMask cutAlong(const cv::Mat& rgb, const std::vector<cv::Point>& stroke, const StrokeSegmenter::Parameters& parameters,
                    const cv::Mat& margins)
{
    const Corridor c = corridorOf(rgb.size(), stroke, std::max(2, parameters.corridor));
    if (c.roi.empty() || cv::countNonZero(c.stroke) == 0)
        return {};
    const cv::Mat image = rgb(c.roi);
    const std::vector<float> object = histogramOf(image, c.stroke), around = histogramOf(image, c.rim);
    cv::Mat model;
    if (!margins.empty()) {
        cv::resize(margins, model, rgb.size(), 0, 0, cv::INTER_LINEAR);
        model = model(c.roi);
    }
    const double beta = contrastScale(image, c.inside);
    const float limit = float(parameters.colourLimit);

    cv::Mat node(c.roi.size(), CV_32SC1, cv::Scalar(-1));
    const int nodes = cv::countNonZero(c.inside);
    cv::detail::GCGraph<float> graph(unsigned(nodes), unsigned(2 * nodes));
    for (int y = 0; y < node.rows; ++y)
        for (int x = 0; x < node.cols; ++x) {
            if (!c.inside.at<std::uint8_t>(y, x))
                continue;
            const int id = node.at<int>(y, x) = graph.addVtx();
            const int bin = binOf(image.at<cv::Vec3b>(y, x));
            float unary = std::clamp(std::log(object[std::size_t(bin)]) - std::log(around[std::size_t(bin)]), -limit, limit);
            if (!model.empty())
                unary += float(parameters.modelWeight) * model.at<float>(y, x);
            if (c.stroke.at<std::uint8_t>(y, x))
                graph.addTermWeights(id, kHeld, 0);
            else if (c.rim.at<std::uint8_t>(y, x))
                graph.addTermWeights(id, 0, kHeld);
            else
                graph.addTermWeights(id, std::max(0.0f, unary), std::max(0.0f, -unary));
            const cv::Vec3f here = image.at<cv::Vec3b>(y, x);
            for (const cv::Point step : {cv::Point(-1, 0), cv::Point(0, -1)}) {
                const cv::Point before(x + step.x, y + step.y);
                if (before.x < 0 || before.y < 0 || node.at<int>(before) < 0)
                    continue;
                const cv::Vec3f d = here - cv::Vec3f(image.at<cv::Vec3b>(before));
                const float w = float(parameters.smoothness * std::exp(-beta * d.dot(d)));
                graph.addEdges(id, node.at<int>(before), w, w);
            }
        }
    graph.maxFlow();
    cv::Mat chosen(c.roi.size(), CV_8UC1, cv::Scalar(0));
    for (int y = 0; y < node.rows; ++y)
        for (int x = 0; x < node.cols; ++x)
            if (node.at<int>(y, x) >= 0 && graph.inSourceSegment(node.at<int>(y, x)))
                chosen.at<std::uint8_t>(y, x) = 255;
    // What is connected to the stroke: a patch of the same colour across the rim's gap is not it.
    cv::Mat ids;
    cv::connectedComponents(chosen, ids, 8, CV_32S);
    cv::Mat keep(chosen.size(), CV_8UC1, cv::Scalar(0));
    std::vector<char> touched(std::size_t(nodes + 2), 0);
    for (int y = 0; y < ids.rows; ++y)
        for (int x = 0; x < ids.cols; ++x)
            if (c.stroke.at<std::uint8_t>(y, x))
                touched[std::size_t(ids.at<int>(y, x))] = 1;
    for (int y = 0; y < ids.rows; ++y)
        for (int x = 0; x < ids.cols; ++x)
            if (ids.at<int>(y, x) > 0 && touched[std::size_t(ids.at<int>(y, x))])
                keep.at<std::uint8_t>(y, x) = 255;
    const cv::Rect tight = cv::boundingRect(keep);
    if (tight.empty())
        return {};
    return RegionMask{tight + c.roi.tl(), keep(tight).clone()};
}

}  // namespace

RegionMask StrokeSegmenter::region(const cv::Mat& rgb, const std::vector<cv::Point>& stroke,
                                   const Parameters& parameters, const cv::Mat& margins)
{
    if (rgb.empty() || rgb.type() != CV_8UC3 || stroke.empty())
        return {};
    const int corridor = std::max(2, parameters.corridor);
    if (corridor <= kWorkCorridor)
        return cutAlong(rgb, stroke, parameters, margins);
    // A wide corridor (a thick post in a 12-megapixel frame): the cut runs on the corridor's box
    // scaled so that the corridor is kWorkCorridor pixels, and its region is scaled back; a
    // structure that wide loses nothing at that scale, and the graph stays small.
    const cv::Rect bounds = cv::boundingRect(stroke);
    const cv::Rect box = cv::Rect(bounds.x - corridor - 1, bounds.y - corridor - 1, bounds.width + 2 * corridor + 2,
                                  bounds.height + 2 * corridor + 2) & cv::Rect({}, rgb.size());
    if (box.empty())
        return {};
    const double scale = double(kWorkCorridor) / double(corridor);
    cv::Mat small, smallMargins;
    cv::resize(rgb(box), small, {}, scale, scale, cv::INTER_AREA);
    if (!margins.empty()) {
        cv::resize(margins, smallMargins, rgb.size(), 0, 0, cv::INTER_LINEAR);
        cv::resize(smallMargins(box), smallMargins, small.size(), 0, 0, cv::INTER_AREA);
    }
    std::vector<cv::Point> scaled;
    for (const cv::Point& p : stroke)
        scaled.emplace_back(std::clamp(int((p.x - box.x + 0.5) * scale), 0, small.cols - 1),
                            std::clamp(int((p.y - box.y + 0.5) * scale), 0, small.rows - 1));
    Parameters working = parameters;
    working.corridor = kWorkCorridor;
    const RegionMask found = cutAlong(small, scaled, working, smallMargins);
    if (found.empty())
        return {};
    cv::Mat mask(small.size(), CV_8UC1, cv::Scalar(0)), full;
    found.mask.copyTo(mask(found.bounds));
    cv::resize(mask, full, box.size(), 0, 0, cv::INTER_LINEAR);
    full = full > 127;
    const cv::Rect tight = cv::boundingRect(full);
    if (tight.empty())
        return {};
    return RegionMask{tight + box.tl(), full(tight).clone()};
}

}  // namespace segstudio::paint
