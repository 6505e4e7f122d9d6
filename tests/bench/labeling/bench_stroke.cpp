// The Thin Stroke's cost and what it gives (issue 61.3): for every thin object (the simulated
// annotator's stroke rule) of the first N images of a SegNet-layout split, the stroke a person
// drags along it (SimulatedAnnotator::strokeAlong) is cut by paint::StrokeSegmenter at the image's
// size and with image and object scaled to 4000x3000; prints the time per stroke (median, max) and
// the IoU of the region with the object (median).
//   bench_stroke --split val --images 20
#include "AnnotatorDataset.h"
#include "SimulatedAnnotator.h"

#include "data/labels/ImageIO.h"
#include "paint/StrokeSegmenter.h"

#include <CLI/CLI.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>

using segstudio::bench::AnnotatorDataset;
using segstudio::bench::SimulatedAnnotator;

namespace {

double median(std::vector<double> values)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Sample {
    double milliseconds = 0;
    double iou = 0;
};

// What the brush gives in the same drag, its width the object's own: the baseline a stroke must beat.
double brushIoU(const cv::Mat& object)
{
    cv::Mat painted(object.size(), CV_8UC1, cv::Scalar(0));
    const auto path = SimulatedAnnotator::strokeAlong(object);
    const int width = std::max(1, int(std::lround(2.0 * SimulatedAnnotator::halfWidth(object))));
    cv::polylines(painted, path, false, cv::Scalar(255), width);
    return SimulatedAnnotator::iouOf(painted, object);
}

Sample strokeOf(const cv::Mat& rgb, const cv::Mat& object, const SimulatedAnnotator::Options& options,
                const segstudio::paint::StrokeSegmenter::Parameters& parameters)
{
    // The person's drag and brush are given: only the tool's own work is timed.
    auto tuned = parameters;
    tuned.corridor = int(std::ceil(2.0 * SimulatedAnnotator::halfWidth(object))) + options.strokeSlack;
    const auto path = SimulatedAnnotator::strokeAlong(object);
    const auto began = std::chrono::steady_clock::now();
    const auto region = segstudio::paint::StrokeSegmenter::region(rgb, path, tuned);
    Sample sample;
    sample.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
    cv::Mat full(object.size(), CV_8UC1, cv::Scalar(0));
    if (!region.empty())
        region.mask.copyTo(full(region.bounds));
    full = full != 0;
    sample.iou = SimulatedAnnotator::iouOf(full, object);
    if (std::getenv("BENCH_STROKE_OBJECTS"))
        std::cerr << "object area " << cv::countNonZero(object) << " half-width " << SimulatedAnnotator::halfWidth(object)
                  << " region " << cv::countNonZero(full) << " inside " << cv::countNonZero(full & object) << " IoU "
                  << sample.iou << "\n";
    return sample;
}

}  // namespace

int main(int argc, char** argv)
{
    std::string dataset = SEGSTUDIO_CAMVID_DIR, split = "val";
    int images = 20, large = 10, minArea = 400;
    SimulatedAnnotator::Options options;
    options.thinRadius = 3.5;
    CLI::App app("Thin Stroke: time and IoU per thin object, at the image's size and at 4000x3000");
    app.add_option("--dataset", dataset, "dataset in SegNet layout")->capture_default_str();
    app.add_option("--split", split)->capture_default_str();
    app.add_option("--images", images)->capture_default_str();
    app.add_option("--large", large, "objects also timed at 4000x3000")->capture_default_str();
    app.add_option("--thin-radius", options.thinRadius)->capture_default_str();
    app.add_option("--min-area", minArea, "objects of at least this many pixels (NoC's 400)")->capture_default_str();
    segstudio::paint::StrokeSegmenter::Parameters parameters;
    app.add_option("--smoothness", parameters.smoothness)->capture_default_str();
    app.add_option("--colour-limit", parameters.colourLimit)->capture_default_str();
    app.add_option("--stroke-slack", options.strokeSlack)->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    const auto data = AnnotatorDataset::segnet(dataset, {split, 0, images, false, {}});
    std::vector<double> ms, iou, largeMs, largeIou, brush;
    for (const auto& frame : data.frames()) {
        const cv::Mat rgb = segstudio::data::readImageRgb(frame.image), truth = data.truthOf(frame);
        for (int c = 0; c < data.classes(); ++c) {
            cv::Mat ids, stats, centroids;
            const int count = cv::connectedComponentsWithStats(truth == c, ids, stats, centroids, 4, CV_32S);
            for (int id = 1; id < count; ++id) {
                const cv::Mat object = ids == id;
                const int area = stats.at<int>(id, cv::CC_STAT_AREA);
                if (area < minArea || !SimulatedAnnotator::strokeFits(object, area, options))
                    continue;
                const Sample here = strokeOf(rgb, object, options, parameters);
                brush.push_back(brushIoU(object));
                ms.push_back(here.milliseconds);
                iou.push_back(here.iou);
                if (int(largeMs.size()) < large) {
                    cv::Mat bigRgb, bigObject;
                    cv::resize(rgb, bigRgb, {4000, 3000}, 0, 0, cv::INTER_LINEAR);
                    cv::resize(object, bigObject, {4000, 3000}, 0, 0, cv::INTER_NEAREST);
                    auto scaled = options;
                    scaled.thinRadius = 1e9;  // the same object, however wide it is now
                    const Sample big = strokeOf(bigRgb, bigObject, scaled, parameters);
                    largeMs.push_back(big.milliseconds);
                    largeIou.push_back(big.iou);
                }
            }
        }
    }
    std::cout << "thin objects: " << ms.size() << "; at the image's size: " << median(ms) << " ms median, "
              << (ms.empty() ? -1 : *std::max_element(ms.begin(), ms.end())) << " ms max, IoU median " << median(iou) << " (a brush of the object's width along the same drag: "
              << median(brush) << ")"
              << "\nat 4000x3000 (" << largeMs.size() << " objects): " << median(largeMs) << " ms median, "
              << (largeMs.empty() ? -1 : *std::max_element(largeMs.begin(), largeMs.end())) << " ms max, IoU median "
              << median(largeIou) << "\n";
    return 0;
}
