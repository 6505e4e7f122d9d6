// One AdamW step over a model's parameters: LibTorch's torch::optim::AdamW against the engine's
// FusedAdamW (docs/BENCHMARKS.md, "A fused optimiser step").
//   bench_optimizer --model deeplabv3plus-resnet18 --threads 2
#include "engine/training/FusedAdamW.h"
#include "engine/models/ModelRegistry.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <memory>

using namespace segstudio::engine;

namespace {

double millisecondsPerStep(torch::optim::Optimizer& optimizer, int steps)
{
    for (int i = 0; i < 3; ++i)
        optimizer.step();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i)
        optimizer.step();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / steps;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{"AdamW step: LibTorch's against FusedAdamW"};
    std::string model = "deeplabv3plus-resnet18";
    int threads = 0, steps = 20;
    app.add_option("--model", model, "model whose parameters are stepped")->capture_default_str();
    app.add_option("--threads", threads, "0 = all cores")->capture_default_str();
    app.add_option("--steps", steps)->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    if (threads > 0)
        torch::set_num_threads(threads);
    auto net = ModelRegistry::instance().create(model, 11);
    std::int64_t count = 0;
    torch::NoGradGuard noGrad;
    for (auto& p : net->parameters()) {
        if (p.dim() == 4)  // as the trainer lays them out for bf16 on a CPU
            p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
        p.mutable_grad() = torch::randn_like(p);
        count += p.numel();
    }
    const auto options = torch::optim::AdamWOptions(5e-3).weight_decay(1e-2);
    torch::optim::AdamW libtorch(net->parameters(), options);
    const double reference = millisecondsPerStep(libtorch, steps);
    FusedAdamW fused(net->parameters(), options);
    const double ours = millisecondsPerStep(fused, steps);
    std::printf("%s: %.2f M parameters, %d thread(s); AdamW step: LibTorch %.1f ms, FusedAdamW %.1f ms\n", model.c_str(),
                double(count) / 1e6, torch::get_num_threads(), reference, ours);
}
