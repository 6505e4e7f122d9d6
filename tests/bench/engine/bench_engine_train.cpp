// Training throughput of the engine's SegNet step (forward, weighted loss, backward, SGD step) on a
// fixed random 360x480 batch, side by side in one run with the PyTorch script of the same model,
// batch and loop (segnet_train_throughput.py); the C++/Python ratio is the figure.
// With --cuda (a CUDA LibTorch): SegNet fp32 and bf16 images/s, peak memory, MFU and epoch time.
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/Runtime.h"
#include "engine/inference/SegmentationLoss.h"

#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#ifdef SEGSTUDIO_BENCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>
#include <string>

using namespace segstudio::engine;

namespace {

struct Options {
    std::string model = "segnet-tiny";
    int height = 360;
    int width = 480;
    int batch = 4;
    int classes = 11;
    int iterations = 10;
    int warmup = 2;
    int threads = 0;
    std::string python = "/usr/bin/python3";
    std::string script = SEGSTUDIO_BENCH_SCRIPT;
    bool cuda = false;
    bool cudnnBenchmark = true;  // as the SegNet recipe trains; the default model trains without
    double peakTflops = 989.0;  // H100 SXM dense bf16; fp32 is reported against the same peak
    int epochImages = 367;      // CamVid train
    int rounds = 3;             // C++ and Python alternate, so load from other processes hits both
    std::string profile;        // CPU: one profiled measurement in the trainer's precision, no Python
    std::string amp = "none";   // with --profile: none or bf16 (bf16 runs channels-last, as train does)
};

void synchronize(torch::Device device)
{
    if (device.is_cuda())
        torch::cuda::synchronize();
}

// around: called with the timed iterations (a profiler's scope), else they just run.
double measure(const Options& o, torch::Device device, const std::string& amp, bool channelsLast,
               const std::function<void(const std::function<void()>&)>& around = {})
{
    torch::manual_seed(1);
    auto model = ModelRegistry::instance().create(o.model, o.classes);
    model->to(device);
    if (channelsLast)
        for (auto& p : model->parameters())
            if (p.dim() == 4)
                p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
    torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1e-3).momentum(0.9).weight_decay(5e-4));
    const auto options = torch::TensorOptions().device(device);
    auto x = torch::randn({o.batch, 3, o.height, o.width}, options);
    if (channelsLast)
        x = x.contiguous(at::MemoryFormat::ChannelsLast);
    auto y = torch::randint(0, o.classes, {o.batch, o.height, o.width}, options.dtype(torch::kLong));
    y.narrow(1, 0, 8).fill_(255);
    std::vector<double> weights;
    for (int c = 0; c < o.classes; ++c)
        weights.push_back(0.5 + double(c) / o.classes);
    const SegmentationLoss loss(weights, device);
    model->train();
    auto step = [&] {
        optimizer.zero_grad();
        torch::Tensor logits;
        {
            AutocastScope autocast(amp, device);
            logits = model->forward(x);
        }
        auto value = loss(logits, y);
        value.backward();
        optimizer.step();
        return value.item<double>();
    };
    for (int i = 0; i < o.warmup; ++i)
        step();
    synchronize(device);
    const auto start = std::chrono::steady_clock::now();
    const auto timed = [&] {
        for (int i = 0; i < o.iterations; ++i)
            step();
        synchronize(device);
    };
    if (around)
        around(timed);
    else
        timed();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return double(o.batch) * o.iterations / seconds;
}

double runPython(const Options& o, int threads)
{
    const std::string command = o.python + " " + o.script + " --model " + o.model + " --height " + std::to_string(o.height) +
                                " --width " + std::to_string(o.width) + " --batch " + std::to_string(o.batch) +
                                " --classes " + std::to_string(o.classes) + " --iterations " + std::to_string(o.iterations) +
                                " --warmup " + std::to_string(o.warmup) + " --threads " + std::to_string(threads);
    std::FILE* pipe = popen(command.c_str(), "r");
    if (!pipe)
        return -1;
    char line[512];
    double value = -1;
    while (std::fgets(line, sizeof line, pipe)) {
        std::cout << "  python: " << line;
        std::sscanf(line, "images_per_s %lf", &value);
    }
    pclose(pipe);
    return value;
}

int runCpu(const Options& o)
{
    configureRuntime(o.threads, false, false);
    const int threads = torch::get_num_threads();
    std::printf("CPU training throughput: %s %dx%d, batch %d, %d classes, %d timed iterations, %d threads, LibTorch %s\n",
                o.model.c_str(), o.height, o.width, o.batch, o.classes, o.iterations, threads, TORCH_VERSION);
    std::vector<double> ratios;
    double cppBest = 0, pythonBest = 0;
    for (int round = 1; round <= o.rounds; ++round) {
        const double cpp = measure(o, torch::kCPU, "none", false);
        std::printf("round %d\n  C++ engine: %.3f images/s\n", round, cpp);
        std::fflush(stdout);
        const double python = runPython(o, threads);
        if (python <= 0) {
            std::printf("  PyTorch script failed (%s)\n", o.script.c_str());
            return 1;
        }
        std::printf("  ratio C++/Python: %.3f\n", cpp / python);
        ratios.push_back(cpp / python);
        cppBest = std::max(cppBest, cpp);
        pythonBest = std::max(pythonBest, python);
    }
    std::sort(ratios.begin(), ratios.end());
    std::printf("best of %d: C++ %.3f images/s, PyTorch %.3f images/s, ratio of bests %.3f, median ratio %.3f\n",
                o.rounds, cppBest, pythonBest, cppBest / pythonBest, ratios[ratios.size() / 2]);
    return 0;
}

// The op profile of the engine's step as `train` runs it on this CPU (bf16 runs channels-last),
// written as a Chrome trace; the images/s of the profiled iterations are printed.
int profileCpu(const Options& o)
{
    configureRuntime(o.threads, false, false);
    const bool channelsLast = o.amp == "bf16";
    measure(o, torch::kCPU, o.amp, channelsLast);  // warm caches, oneDNN primitives
    double imagesPerSecond = 0;
    {
        torch::autograd::profiler::RecordProfile record(o.profile);
        imagesPerSecond = measure(o, torch::kCPU, o.amp, channelsLast);
    }
    std::printf("%s %dx%d batch %d %s: %.2f images/s (profiled); trace %s\n", o.model.c_str(), o.height, o.width,
                o.batch, o.amp.c_str(), imagesPerSecond, o.profile.c_str());
    return 0;
}

// The timed iterations under Kineto (LibTorch's profiler, as torch.profiler in Python), CPU and
// GPU activity, saved as a Chrome trace: `trace_kernels.py FILE --steps N` sums its kernels by kind
// as profile_twin_step.py sums the PyTorch twin's, so the engine's step and the twin's compare
// kernel for kernel (issue 63).
[[maybe_unused]] void profileWithKineto(const std::function<void()>& timed, bool cuda, const std::string& file)
{
    namespace profiler = torch::autograd::profiler;
    using torch::profiler::impl::ActivityType;
    const torch::profiler::impl::ProfilerConfig config(torch::profiler::impl::ProfilerState::KINETO);
    std::set<ActivityType> activities{ActivityType::CPU};
    if (cuda)
        activities.insert(ActivityType::CUDA);
    profiler::prepareProfiler(config, activities);
    profiler::enableProfiler(config, activities);
    timed();
    profiler::disableProfiler()->save(file);
}

int runCuda(Options o)
{
#ifdef SEGSTUDIO_BENCH_CUDA
    if (!torch::cuda::is_available()) {
        std::printf("no CUDA device\n");
        return 1;
    }
    configureRuntime(0, false, o.cudnnBenchmark);
    const torch::Device device(torch::kCUDA);
    // The caching allocator learns its devices when CUDA is first used; asking it for device 0's
    // statistics before that fails with "Invalid device argument" (LibTorch 2.x).
    torch::empty({1}, torch::TensorOptions().device(device));
    auto model = ModelRegistry::instance().create(o.model, o.classes);
    const double flopsPerImage = 3.0 * model->forwardFlops(o.height, o.width);  // forward + backward
    std::printf("CUDA training: %s %dx%d, batch %d, %d iterations; peak %.0f TFLOPS for MFU\n", o.model.c_str(),
                o.height, o.width, o.batch, o.iterations, o.peakTflops);
    if (!o.profile.empty()) {
        const double imagesPerSecond = measure(o, device, "bf16", true, [&](const std::function<void()>& timed) {
            profileWithKineto(timed, true, o.profile);
        });
        std::printf("  bf16 under the profiler: %.1f images/s; trace %s (%d steps)\n", imagesPerSecond, o.profile.c_str(),
                    o.iterations);
        return 0;
    }
    for (const std::string amp : {"none", "bf16"}) {
        c10::cuda::CUDACachingAllocator::emptyCache();
        c10::cuda::CUDACachingAllocator::resetPeakStats(0);
        const double imagesPerSecond = measure(o, device, amp, true);
        const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(0);
        // Slot 0 is the aggregate over all pools in every LibTorch; the StatType enum naming it
        // moved between namespaces in 2.x (c10::CachingDeviceAllocator), so it is not spelled here.
        const double peakGiB = double(stats.allocated_bytes[0].peak) / (1024.0 * 1024.0 * 1024.0);
        const double mfu = imagesPerSecond * flopsPerImage / (o.peakTflops * 1e12);
        std::printf("  %-5s: %8.1f images/s  peak memory %.2f GiB  MFU %.1f%%  epoch (%d images) %.1f s\n",
                    amp == "none" ? "fp32" : "bf16", imagesPerSecond, peakGiB, 100.0 * mfu, o.epochImages,
                    o.epochImages / imagesPerSecond);
    }
    return 0;
#else
    (void)o;
    std::printf("this build's LibTorch has no CUDA; build the engine against a CUDA LibTorch (docs/ENGINE.md)\n");
    return 1;
#endif
}

}  // namespace

int main(int argc, char** argv)
{
    Options o;
    CLI::App app{"SegNet training throughput: C++ engine vs PyTorch (CPU), or fp32/bf16 on CUDA"};
    app.add_option("--model", o.model)->capture_default_str();
    app.add_option("--height", o.height)->capture_default_str();
    app.add_option("--width", o.width)->capture_default_str();
    app.add_option("--batch", o.batch)->capture_default_str();
    app.add_option("--classes", o.classes)->capture_default_str();
    app.add_option("--iterations", o.iterations)->capture_default_str();
    app.add_option("--warmup", o.warmup)->capture_default_str();
    app.add_option("--threads", o.threads, "0 = all cores")->capture_default_str();
    app.add_option("--python", o.python)->capture_default_str();
    app.add_option("--script", o.script)->capture_default_str();
    app.add_option("--rounds", o.rounds, "alternating C++/Python measurements")->capture_default_str();
    app.add_flag("--cuda", o.cuda, "GPU mode: fp32 and bf16 images/s, peak memory, MFU, epoch time");
    app.add_flag("--cudnn-benchmark,!--no-cudnn-benchmark", o.cudnnBenchmark,
                 "CUDA: cuDNN's algorithm search (train's --cudnn-benchmark)")->capture_default_str();
    app.add_option("--peak-tflops", o.peakTflops, "device peak for MFU")->capture_default_str();
    app.add_option("--epoch-images", o.epochImages, "images per epoch for the epoch time")->capture_default_str();
    app.add_option("--profile", o.profile,
                   "write the step's op profile (Chrome trace) to this file: on the CPU LibTorch's legacy profiler, "
                   "with --cuda Kineto's (bf16, channels-last; summed by trace_kernels.py)");
    app.add_option("--amp", o.amp, "with --profile: none or bf16")->check(CLI::IsMember({"none", "bf16"}))->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    if (o.cuda)
        return runCuda(o);
    return o.profile.empty() ? runCpu(o) : profileCpu(o);
}
