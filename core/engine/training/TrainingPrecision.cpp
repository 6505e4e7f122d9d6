#include "TrainingPrecision.h"

#include "engine/runtime/EngineError.h"
#include "engine/models/ModelRegistry.h"
#include "engine/runtime/Runtime.h"

namespace segstudio::engine {
inline namespace training {

namespace {

// What keeps this device from training in amp, or nothing.
std::string precisionProblem(const std::string& amp, const std::string& model, torch::Device device, bool modelBf16)
{
    if (amp == "fp16" && !device.is_cuda())
        return "amp fp16 needs a CUDA device, this run would train on " + device.str() +
               " (use --amp bf16, auto or none)";
    if (amp == "bf16" && !device.is_cuda() && !cpuComputesBf16())
        return "amp bf16 on a CPU needs bf16 instructions (AVX512-BF16 or AMX), which this CPU lacks: it would be "
               "emulated, slower than fp32 (use --amp auto or none)";
    if (amp == "bf16" && !device.is_cuda() && !modelBf16)
        return "model " + model + " does not train in bf16 on a CPU (an op without a bf16 CPU backward, "
               "such as MobileNetV2's ReLU6); use --amp auto or none, or deeplabv3plus-resnet18";
    return {};
}

}  // namespace

TrainingPrecision TrainingPrecision::choose(const TrainConfig& config, torch::Device device, bool resuming)
{
    const bool modelBf16 = ModelRegistry::instance().trainsInBf16OnCpu(config.model);
    TrainingPrecision precision;
    precision.amp = resolveAmp(config.amp, device, cpuComputesBf16(), modelBf16);
    const std::string problem = precisionProblem(precision.amp, config.model, device, modelBf16);
    if (!problem.empty()) {
        if (!resuming)
            throw EngineError("training configuration: " + problem);
        precision.note = "training goes on in fp32: " + problem;
        precision.amp = "none";
    }
    // Parameters and inputs channels-last (NHWC) on a GPU, for cuDNN's fast kernels, and on a CPU
    // training in bf16, where oneDNN's AMX convolutions take NHWC as is (NCHW costs a reorder of
    // every activation). fp32 on a CPU stays NCHW: measured no faster in NHWC (docs/BENCHMARKS.md).
    precision.channelsLast = config.channelsLast && (device.is_cuda() || autocasts(precision.amp, device));
    return precision;
}

}  // namespace training
}  // namespace segstudio::engine
