// ms per 360x480 image: the same trained model run by LibTorch (the engine's predict path) and, from
// its ONNX export, by OpenCV's DNN module, each with the same thread count, on the same images.
// Usage: bench_onnx_runtime -c CHECKPOINT_OR_RUN [--threads 2] [--images 20]
#include "deploy/OpenCvOnnxModel.h"
#include "engine/inference/LoadedModel.h"
#include "engine/runtime/Runtime.h"
#include "onnx/OnnxModelExporter.h"
#include "run/RunLayout.h"

#include <CLI/CLI.hpp>
#include <opencv2/core/utility.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>

using namespace segstudio;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

template <typename Run>
std::vector<double> timeEach(int images, Run run)
{
    std::vector<double> ms;
    for (int i = -2; i < images; ++i) {  // two warm-up passes
        const auto start = std::chrono::steady_clock::now();
        run(i < 0 ? 0 : i);
        const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (i >= 0)
            ms.push_back(elapsed);
    }
    return ms;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app("LibTorch vs OpenCV DNN on one exported model");
    std::string checkpoint, onnxFile = "/tmp/bench_onnx_runtime.onnx";
    int threads = 2, images = 20;
    app.add_option("-c,--checkpoint", checkpoint, "checkpoint or run directory")->required();
    app.add_option("--threads", threads);
    app.add_option("--images", images);
    CLI11_PARSE(app, argc, argv);
    torch::set_num_threads(threads);
    cv::setNumThreads(threads);
    const auto resolved = run::RunLayout::resolveCheckpoint(checkpoint).string();
    const auto exported = onnxexport::OnnxModelExporter::exportModel({resolved, onnxFile, 360, 480, {}});
    deploy::OpenCvOnnxModel opencv(onnxFile);
    const auto loaded = engine::LoadedModel::fromCheckpoint(resolved, torch::kCPU);
    torch::NoGradGuard noGrad;
    std::vector<cv::Mat> rgb;
    cv::RNG rng(7);
    for (int i = 0; i < images; ++i) {
        rgb.emplace_back(360, 480, CV_8UC3);
        rng.fill(rgb.back(), cv::RNG::UNIFORM, 0, 256);
    }
    const auto torchMs = timeEach(images, [&](int i) {
        const auto pixels = torch::from_blob(rgb[i].data, {1, 360, 480, 3}, torch::kUInt8).permute({0, 3, 1, 2});
        auto logits = loaded.model->forward(engine::normaliseImages(pixels.to(torch::kFloat), false));
        (void)logits.argmax(1);
    });
    const auto opencvMs = timeEach(images, [&](int i) { (void)opencv.labels(rgb[i]); });
    std::cout << "{\"model\": \"" << exported.model << "\", \"threads\": " << threads << ", \"images\": " << images
              << ", \"libtorch_ms_median\": " << median(torchMs) << ", \"opencv_dnn_ms_median\": " << median(opencvMs) << "}"
              << std::endl;
}
