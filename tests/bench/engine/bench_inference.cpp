// CPU (or CUDA) inference latency of the registry's models at one image size, as the editor's
// prediction overlay and `segstudio-train predict` run them: batch 1, eval mode, no autograd,
// normalisation and argmax included. Prints parameters, forward GFLOPs and the median and best
// milliseconds per image over --runs after --warmup.
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/Runtime.h"

#include <torch/torch.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace segstudio::engine;

int main(int argc, char** argv)
{
    std::vector<std::string> models{"deeplabv3plus", "deeplabv3plus-slim", "segnet-tiny"};
    int height = 360, width = 480, classes = 11, runs = 20, warmup = 3, threads = 0;
    std::string device = "cpu";
    CLI::App app{"Inference latency per image of the engine's models"};
    app.add_option("--models", models)->capture_default_str();
    app.add_option("--height", height)->capture_default_str();
    app.add_option("--width", width)->capture_default_str();
    app.add_option("--runs", runs)->capture_default_str();
    app.add_option("--warmup", warmup)->capture_default_str();
    app.add_option("--threads", threads, "0 = all cores")->capture_default_str();
    app.add_option("--device", device)->capture_default_str();
    std::string precision = "fp32";
    bool channelsLast = false;
    app.add_flag("--channels-last", channelsLast, "weights and input in channels-last (NHWC)");
    app.add_option("--precision", precision, "fp32 | bf16 | auto (as predict and evaluate run)")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    const torch::Device target = chooseDevice(device);
    configureRuntime(threads, false, false);  // as Predictor: no cuDNN algorithm search
    std::printf("%s, %d thread(s), %dx%d, batch 1, %d runs after %d warm-up\n", target.str().c_str(),
                torch::get_num_threads(), height, width, runs, warmup);
    std::printf("%-20s %10s %10s %12s %10s\n", "model", "params M", "GFLOPs", "median ms", "best ms");
    torch::NoGradGuard noGrad;
    const auto image = torch::randint(0, 256, {1, height, width, 3}, torch::kUInt8);
    for (const auto& name : models) {
        torch::manual_seed(1);
        auto model = ModelRegistry::instance().create(name, classes);
        model->to(target);
        model->eval();
        if (channelsLast)
            for (auto& parameter : model->parameters())
                if (parameter.dim() == 4)
                    parameter.set_data(parameter.data().contiguous(at::MemoryFormat::ChannelsLast));
        std::int64_t parameters = 0;
        for (const auto& p : model->parameters())
            parameters += p.numel();
        std::vector<double> times;
        for (int run = 0; run < warmup + runs; ++run) {
            const auto start = std::chrono::steady_clock::now();
            const auto input = normaliseImages(imagesToDevice(image, target), channelsLast);
            const segstudio::engine::AutocastScope autocast(
                segstudio::engine::inferencePrecision(precision, torch::Device(device), segstudio::engine::cpuComputesBf16()),
                torch::Device(device));
            const auto labels = model->forward(input).argmax(1).to(torch::kUInt8).to(torch::kCPU);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            if (run >= warmup)
                times.push_back(ms);
        }
        std::sort(times.begin(), times.end());
        std::printf("%-20s %10.2f %10.2f %12.1f %10.1f\n", name.c_str(), double(parameters) / 1e6,
                    model->forwardFlops(height, width) / 1e9, times[times.size() / 2], times.front());
    }
    return 0;
}
