// Labels carried along a sequence (issue 51): how long DenseFlow + LabelPropagator take for one
// frame pair at 360x480 and at 4000x3000, and how much of the next frame they label how well, on
// CamVid's val sequence 0016E5 (frames 2 apart, each pair compared with the next frame's truth).
// Results in docs/BENCHMARKS.md, "Labels along a sequence".
#include "paint/LabelPropagator.h"

#include "CamVidFrames.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

using namespace segstudio;
using bench::readRgb;
using bench::readTruth;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;


double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

// Median milliseconds of flow + propagation of one pair resized to size.
double timePair(const cv::Mat& a, const cv::Mat& b, const cv::Mat& labels, cv::Size size, int repeats)
{
    cv::Mat first, second, carried;
    cv::resize(a, first, size, 0, 0, cv::INTER_LINEAR);
    cv::resize(b, second, size, 0, 0, cv::INTER_LINEAR);
    cv::resize(labels, carried, size, 0, 0, cv::INTER_NEAREST);
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto started = Clock::now();
        paint::LabelPropagator().propagate(first, carried, second);
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - started).count());
    }
    return median(times);
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{"Flow + label propagation: time and quality on CamVid val"};
    std::string camvid = SEGSTUDIO_CAMVID_DIR;
    int pairs = 19;
    int threads = 2;
    app.add_option("--camvid", camvid, "CamVid in SegNet's layout")->capture_default_str();
    app.add_option("--pairs", pairs, "frame pairs of 0016E5 from frame 07959 on, 2 apart")->capture_default_str();
    app.add_option("--threads", threads, "OpenCV threads")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    cv::setNumThreads(threads);
    const fs::path root(camvid);
    if (!fs::exists(root / "val" / "0016E5_07959.png")) {
        std::cerr << root.string() << ": no CamVid val sequence 0016E5 here (--camvid)\n";
        return 2;
    }
    std::vector<double> coverage, accuracyOnCarried, accuracy, copyAccuracy;
    for (int i = 0; i < pairs; ++i) {
        const std::string from = "0016E5_0" + std::to_string(7959 + 2 * i), to = "0016E5_0" + std::to_string(7961 + 2 * i);
        const cv::Mat source = readTruth(root / "valannot" / (from + ".png"));
        const cv::Mat truth = readTruth(root / "valannot" / (to + ".png"));
        const auto result = paint::LabelPropagator().propagate(readRgb(root / "val" / (from + ".png")), source,
                                                               readRgb(root / "val" / (to + ".png")));
        const cv::Mat counted = truth != 255;
        const double labelled = cv::countNonZero(counted);
        const double carried = cv::countNonZero((result.labels != 255) & counted);
        const double right = cv::countNonZero((result.labels == truth) & counted);
        coverage.push_back(carried / labelled);
        accuracyOnCarried.push_back(carried > 0 ? right / carried : 0.0);
        accuracy.push_back(right / labelled);  // unlabelled pixels count as wrong
        copyAccuracy.push_back(cv::countNonZero((source == truth) & counted) / labelled);
    }
    const cv::Mat a = readRgb(root / "val" / "0016E5_07959.png"), b = readRgb(root / "val" / "0016E5_07961.png");
    const cv::Mat labels = readTruth(root / "valannot" / "0016E5_07959.png");
    nlohmann::json out = {
        {"pairs", pairs},
        {"threads", threads},
        {"coverage_median", median(coverage)},
        {"accuracy_on_carried_median", median(accuracyOnCarried)},
        {"accuracy_median", median(accuracy)},
        {"plain_copy_accuracy_median", median(copyAccuracy)},
        {"ms_360x480_median", timePair(a, b, labels, {480, 360}, 15)},
        {"ms_4000x3000_median", timePair(a, b, labels, {4000, 3000}, 5)},
    };
    std::cout << out.dump(2) << "\n";
    return 0;
}
