// Gradient synchronisation on CPUs: 2 processes (this one and a forked copy), one c10d Gloo group
// over 127.0.0.1, SegNet's gradients. Measures the backward pass alone, the plain all-reduce after
// it, the bucketed sync that overlaps the backward pass, and each bucket's all-reduce alone; rank
// 0 prints the table for docs/SCALING.md.
#include "engine/distributed/Communicator.h"
#include "engine/distributed/Distributed.h"
#include "engine/distributed/GradientSync.h"
#include "engine/models/ModelRegistry.h"
#include "engine/inference/SegmentationLoss.h"

#include <CLI/CLI.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace segstudio::engine;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}


struct StepTimes {
    double backward = 0;  // loss.backward(), hooks included
    double finish = 0;    // finishStep(): what communication is left after the backward pass
};

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{"Gradient all-reduce on CPU: 2 Gloo processes, plain vs bucketed (overlapped)"};
    std::string modelName = "segnet";
    int height = 360, width = 480, batch = 1, steps = 3, threads = 1;
    app.add_option("--model", modelName, "model")->capture_default_str();
    app.add_option("--height", height)->capture_default_str();
    app.add_option("--width", width)->capture_default_str();
    app.add_option("--batch", batch, "images per rank")->capture_default_str();
    app.add_option("--steps", steps, "measured steps per variant (after one warm-up)")->capture_default_str();
    app.add_option("--threads", threads, "compute threads per rank")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    WorldInfo world;
    world.worldSize = 2;
    world.masterPort = freeTcpPort();
    const pid_t child = ::fork();  // before any torch thread exists
    world.rank = child == 0 ? 1 : 0;
    torch::set_num_threads(threads);
    auto communicator = connectProcessGroup(world, "gloo", std::chrono::minutes(10));
    torch::manual_seed(1);
    auto model = ModelRegistry::instance().create(modelName, 11);
    std::vector<torch::Tensor> parameters;
    std::int64_t elements = 0;
    for (auto& parameter : model->parameters()) {
        parameters.push_back(parameter);
        elements += parameter.numel();
    }
    const auto input = torch::randn({batch, 3, height, width});
    const auto labels = torch::randint(0, 11, {batch, height, width}, torch::kLong);
    const SegmentationLoss loss;

    const auto measure = [&](GradientSync* sync) {
        std::vector<double> backward, finish;
        for (int step = 0; step <= steps; ++step) {
            communicator->barrier();
            model->zero_grad();
            if (sync)
                sync->beginStep();
            const auto value = loss(model->forward(input), labels);
            const auto t0 = Clock::now();
            value.backward();
            const auto t1 = Clock::now();
            if (sync)
                sync->finishStep();
            const auto t2 = Clock::now();
            if (step > 0) {  // the first is a warm-up (and the bucketed sync's rebuild)
                backward.push_back(ms(t0, t1));
                finish.push_back(ms(t1, t2));
            }
        }
        return StepTimes{median(backward), median(finish)};
    };

    const StepTimes alone = measure(nullptr);
    auto plainSync = makePlainGradientSync(*communicator, parameters);
    const StepTimes plain = measure(plainSync.get());
    plainSync.reset();
    auto bucketSync = makeBucketedGradientSync(*communicator, parameters);
    const StepTimes bucketed = measure(bucketSync.get());
    const auto buckets = bucketSync->bucketBytes();
    bucketSync.reset();

    std::vector<double> bucketMs;
    for (const std::size_t bytes : buckets) {
        auto buffer = torch::ones({std::int64_t(bytes / 4)});
        std::vector<double> times;
        for (int repeat = 0; repeat < 5; ++repeat) {
            communicator->barrier();
            const auto t0 = Clock::now();
            communicator->sum(buffer);
            times.push_back(ms(t0, Clock::now()));
        }
        bucketMs.push_back(median(times));
    }
    // All gradients in one all-reduce, on a buffer that already exists (the plain sync also
    // flattens into a fresh buffer and copies back).
    std::vector<double> wholeMs;
    {
        auto whole = torch::ones({elements});
        for (int repeat = 0; repeat < 3; ++repeat) {
            communicator->barrier();
            const auto t0 = Clock::now();
            communicator->sum(whole);
            wholeMs.push_back(ms(t0, Clock::now()));
        }
    }
    communicator->barrier();
    if (world.rank == 0) {
        const double exposedBucketed = bucketed.backward + bucketed.finish - alone.backward;
        const double hidden = 1.0 - exposedBucketed / plain.finish;
        std::printf("%s %dx%d batch %d per rank, 2 ranks x %d thread(s), Gloo over 127.0.0.1\n", modelName.c_str(), height,
                    width, batch, threads);
        std::printf("parameters %.1f M, gradients %.1f MB in %zu buckets\n", double(elements) / 1e6,
                    double(elements) * 4 / 1e6, buckets.size());
        std::printf("backward alone                      %9.1f ms\n", alone.backward);
        std::printf("plain: backward %9.1f ms + all-reduce after %9.1f ms\n", plain.backward, plain.finish);
        std::printf("bucketed: backward with hooks %9.1f ms + wait after %9.1f ms\n", bucketed.backward, bucketed.finish);
        std::printf("communication exposed: plain %.1f ms, bucketed %.1f ms; hidden behind backward %.0f %%\n",
                    plain.finish, exposedBucketed, 100.0 * hidden);
        std::printf("one all-reduce of all %.1f MB: %.1f ms\n", double(elements) * 4 / 1e6, median(wholeMs));
        std::printf("bucket  MB      all-reduce ms   MB/s\n");
        for (std::size_t b = 0; b < buckets.size(); ++b)
            std::printf("%4zu  %7.2f  %10.1f  %8.0f\n", b, double(buckets[b]) / 1e6, bucketMs[b],
                        double(buckets[b]) / 1e6 / (bucketMs[b] / 1e3));
    }
    communicator.reset();
    if (child > 0)
        ::waitpid(child, nullptr, 0);
    return 0;
}
