// The pixel classifier of a new kind of image (issue 62.1) on CamVid, a domain nothing in it was
// tuned on (its features and forest are ilastik's and a textbook forest's, chosen before any run):
// how long features, training and prediction take for one image at 360x480 and at 512x512 (the
// issue's goal: under a second at 512x512 on 2 cores), and how much of an image a few scribbles
// label: S scribbles (discs of radius 3 px at random inside each class's eroded regions) on each
// of the first N val images, the classifier trained on that image's scribbles alone, its pixel
// accuracy and mIoU over the image's labelled pixels. Results in docs/LABELING.md.
//   bench_pixel_classifier [--images N] [--scribbles 1,3,10] [--camvid DIR]
#include "paint/PixelClassifier.h"
#include "data/labels/LabelClass.h"

#include "CamVidFrames.h"

#include <CLI/CLI.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace segstudio;
using bench::readRgb;
using bench::readTruth;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }


// S discs of radius 3 inside each class's regions (eroded by 4 px, so a scribble is on its class).
cv::Mat scribbles(const cv::Mat& truth, int perClass, std::mt19937& random)
{
    cv::Mat strokes(truth.size(), CV_8UC1, cv::Scalar(data::kUnlabelled));
    for (int c = 0; c < 11; ++c) {
        cv::Mat inside;
        cv::erode(truth == c, inside, cv::getStructuringElement(cv::MORPH_ELLIPSE, {9, 9}));
        std::vector<cv::Point> points;
        cv::findNonZero(inside, points);
        if (points.empty())
            continue;
        for (int s = 0; s < perClass; ++s)
            cv::circle(strokes, points[std::uniform_int_distribution<std::size_t>(0, points.size() - 1)(random)], 3,
                       cv::Scalar(c), cv::FILLED);
    }
    return strokes;
}

struct Score {
    double accuracy = 0.0;
    double meanIoU = 0.0;
};

Score scoreOf(const cv::Mat& predicted, const cv::Mat& truth)
{
    const cv::Mat labelled = truth != data::kUnlabelled;
    Score score;
    score.accuracy = double(cv::countNonZero((predicted == truth) & labelled)) / std::max(1, cv::countNonZero(labelled));
    int present = 0;
    for (int c = 0; c < 11; ++c) {
        const int truthPixels = cv::countNonZero(truth == c);
        if (truthPixels == 0)
            continue;
        const int both = cv::countNonZero((truth == c) & (predicted == c));
        const int either = cv::countNonZero(((truth == c) | (predicted == c)) & labelled);
        score.meanIoU += double(both) / std::max(1, either);
        ++present;
    }
    score.meanIoU /= std::max(1, present);
    return score;
}

void timeOne(const cv::Mat& rgb, const cv::Mat& truth, const std::string& name)
{
    std::mt19937 random(7);
    const cv::Mat strokes = scribbles(truth, 3, random);
    auto start = Clock::now();
    const paint::PixelFeatures features(rgb);
    const double featureSeconds = secondsSince(start);
    paint::PixelClassifier classifier;
    start = Clock::now();
    classifier.setExamples("image", features, strokes);
    classifier.train();
    const double trainSeconds = secondsSince(start);
    start = Clock::now();
    classifier.predict(features, 11);
    const double predictSeconds = secondsSince(start);
    std::cout << "| " << name << " | " << classifier.exampleCount() << " | " << featureSeconds << " | " << trainSeconds << " | "
              << predictSeconds << " | " << featureSeconds + trainSeconds + predictSeconds << " |" << std::endl;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app("the pixel classifier on CamVid val: time and scribbles to labels");
    int images = 20;
    std::string counts = "1,3,10";
    std::string camvid = SEGSTUDIO_CAMVID_DIR;
    app.add_option("--images", images, "val images (the first N of val.txt)");
    app.add_option("--scribbles", counts, "scribbles per class, comma-separated");
    app.add_option("--camvid", camvid, "SegNet's CamVid folder");
    CLI11_PARSE(app, argc, argv);
    std::ifstream list(fs::path(camvid) / "val.txt");
    if (!list) {
        std::cerr << camvid << "/val.txt: not found (CamVid is needed)" << std::endl;
        return 2;
    }
    std::vector<std::pair<fs::path, fs::path>> pairs;
    for (std::string image, truth; list >> image >> truth && int(pairs.size()) < images;)
        pairs.push_back({fs::path(camvid) / fs::path(image).parent_path().filename() / fs::path(image).filename(),
                         fs::path(camvid) / fs::path(truth).parent_path().filename() / fs::path(truth).filename()});

    std::cout << "| image | examples | features s | train s | predict s | total s |\n|---|---|---|---|---|---|" << std::endl;
    const cv::Mat rgb = readRgb(pairs.front().first), truth = readTruth(pairs.front().second);
    timeOne(rgb, truth, "360x480");
    cv::Mat square, squareTruth;
    cv::resize(rgb, square, {512, 512}, 0, 0, cv::INTER_LINEAR);
    cv::resize(truth, squareTruth, {512, 512}, 0, 0, cv::INTER_NEAREST);
    timeOne(square, squareTruth, "512x512");

    std::cout << "\n| scribbles per class | images | pixel accuracy | mIoU |\n|---|---|---|---|" << std::endl;
    std::stringstream list2(counts);
    for (std::string count; std::getline(list2, count, ',');) {
        const int perClass = std::stoi(count);
        std::mt19937 random(11);
        double accuracy = 0.0, meanIoU = 0.0;
        for (const auto& [imageFile, truthFile] : pairs) {
            const cv::Mat image = readRgb(imageFile), labels = readTruth(truthFile);
            const paint::PixelFeatures features(image);
            paint::PixelClassifier classifier;
            classifier.setExamples("image", features, scribbles(labels, perClass, random));
            if (!classifier.train())
                continue;
            const Score score = scoreOf(classifier.predict(features, 11).classes, labels);
            accuracy += score.accuracy;
            meanIoU += score.meanIoU;
        }
        std::cout << "| " << perClass << " | " << pairs.size() << " | " << accuracy / pairs.size() << " | " << meanIoU / pairs.size()
                  << " |" << std::endl;
    }
    return 0;
}
