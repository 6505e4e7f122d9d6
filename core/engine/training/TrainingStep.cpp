#include "TrainingStep.h"

#include "engine/input/Augmenter.h"
#include "engine/input/BatchLoader.h"
#include "engine/input/CropSchedule.h"
#include "engine/input/DeviceResidentPack.h"
#include "engine/distributed/GradientSync.h"
#include "LossScaler.h"
#include "LrSchedule.h"
#include "engine/runtime/Runtime.h"
#include "engine/inference/SegmentationLoss.h"
#include "engine/models/SegmentationModel.h"
#include "WeightAverage.h"

#include <cstdio>
#include <limits>

namespace segstudio::engine {
inline namespace training {

namespace {

std::uint64_t mix(std::uint64_t x)  // splitmix64 finaliser: well-spread per-batch seeds
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

}  // namespace

TrainingStep::TrainingStep(Settings settings, Parts parts, Hooks hooks)
    : m_settings(std::move(settings)), m_parts(parts), m_hooks(std::move(hooks))
{
    if (!m_settings.cudaGraphs || !m_settings.device.is_cuda())
        return;  // nothing to say on a CPU, where graphs never apply
    const auto reason = CudaGraphStep::declines(m_settings.device, m_settings.accumulate, m_parts.gradientSync != nullptr,
                                                m_parts.scaler.enabled());
    if (reason.empty())
        m_graph = std::make_unique<CudaGraphStep>(m_parts.model);
    else
        m_unsaid = "CUDA graphs off: " + reason;  // said with the first step, in the session's log
}

TrainingStep::Result TrainingStep::run(const HostBatch& batch, const Place& place, bool measureAccuracy)
{
    auto& model = m_parts.model;
    model.train();
    if (!m_unsaid.empty())
        say(std::exchange(m_unsaid, std::string()));
    auto [images, labels] = onDevice(batch);
    fitCropToProgress(place);
    if (m_parts.augmenter.enabled()) {
        // The transforms depend only on (seed, epoch, batch, rank): resuming redraws them exactly,
        // and each rank draws its own.
        std::uint64_t seed =
            mix(mix(m_settings.seed) ^ mix(std::uint64_t(place.epoch) << 32 | std::uint64_t(batch.index)));
        if (m_settings.rank > 0)
            seed = mix(seed ^ std::uint64_t(m_settings.rank));
        // Labels on the host only where the draw reads them (class-uniform crops).
        const auto transforms = batch.labels.defined() ? m_parts.augmenter.draw(batch.labels, seed)
                                                       : m_parts.augmenter.draw(batch.size(), seed);
        std::tie(images, labels) = m_parts.augmenter.apply(images, labels, transforms);
    }
    const auto input = normaliseImages(images, m_settings.channelsLast);
    setLearningRate(place);
    Result result;
    result.loss = passes(input, labels, measureAccuracy, result);
    if (m_settings.debugNanAtIteration >= 0 && place.iteration == m_settings.debugNanAtIteration)
        result.loss = result.loss * std::numeric_limits<double>::quiet_NaN();
    if (m_hooks.judge)
        m_hooks.judge(result.loss);
    if (m_parts.scaler.unscaleAndCheck(model.parameters())) {
        m_parts.optimizer.step();
        if (m_parts.average)
            m_parts.average->update(place.iteration);
    }
    return result;
}

std::pair<torch::Tensor, torch::Tensor> TrainingStep::onDevice(const HostBatch& batch) const
{
    torch::Tensor images, labels;
    if (m_parts.resident) {
        std::tie(images, labels) = m_parts.resident->gather(batch.records);
        images = imagesToDevice(images, m_settings.device);
    } else {
        images = imagesToDevice(batch.images, m_settings.device);
        labels = batch.labels.to(m_settings.device, /*non_blocking=*/batch.labels.is_pinned());
    }
    return {images, labels.to(torch::kLong)};
}

void TrainingStep::fitCropToProgress(const Place& place)
{
    const auto& crops = m_parts.crops;
    if (!crops.progressive())
        return;
    const double progress = m_parts.schedule.progress(place.position);
    const auto crop = crops.cropAt(progress);
    m_cost = crops.relativeCost(progress);
    if (crop == m_cropInUse)
        return;
    m_cropInUse = crop;
    m_parts.augmenter.setCrop(crop.first, crop.second);
    char line[128];
    std::snprintf(line, sizeof line, "crops %.0fx%.0f from iteration %.0f (%.0f %% of the run)", double(crop.first),
                  double(crop.second), double(place.iteration), 100.0 * progress);
    say(line);
}

void TrainingStep::setLearningRate(const Place& place)
{
    const double lr = m_parts.schedule.at(place.position) * m_settings.learningRateFactor;
    for (auto& group : m_parts.optimizer.param_groups())
        group.options().set_lr(lr);
}

// The forward and backward passes of the step's micro-batches (or its graph's replay); returns the
// step's mean loss (0-dim double, on the device).
torch::Tensor TrainingStep::passes(const torch::Tensor& input, const torch::Tensor& labels, bool measureAccuracy,
                                   Result& result)
{
    if (m_graph) {
        if (const auto outputs = graphedPass(input, labels)) {
            if (measureAccuracy)
                measure(outputs->logits, labels, result);
            return outputs->loss.to(torch::kDouble);  // a copy: the next replay overwrites the graph's
        }
    }
    // Set to none rather than zeroed (LibTorch 2.x's default, not 1.13's): backward then hands
    // each parameter its gradient instead of adding it to a zeroed one, a pass less per step.
    for (auto& parameter : m_parts.model.parameters())
        parameter.mutable_grad().reset();
    auto* sync = m_parts.gradientSync;
    if (sync)
        sync->beginStep();
    // Micro-batch k takes samples k, k + parts, ...: with the ranks of a data-parallel run doing
    // the same, rank r's batch is exactly micro-batch r of one process with accumulate = world.
    const int parts = m_settings.accumulate;
    const auto on = torch::TensorOptions().device(m_settings.device);
    auto lossSum = torch::zeros({}, on.dtype(torch::kDouble));
    for (int part = 0; part < parts; ++part) {
        const auto rows = torch::arange(part, input.size(0), parts, on.dtype(torch::kLong));
        if (sync)
            sync->setAccumulating(part + 1 < parts);
        const auto partLabels = parts == 1 ? labels : labels.index_select(0, rows);
        const auto outputs =
            forwardBackward(parts == 1 ? input : input.index_select(0, rows), partLabels, 1.0 / parts);
        if (measureAccuracy && part + 1 == parts)
            measure(outputs.logits, partLabels, result);
        lossSum += outputs.loss.to(torch::kDouble);
    }
    if (sync)
        sync->finishStep();
    return lossSum / double(parts);
}

// The passes replayed from the CUDA graph; nullopt after a failed capture or replay, said once,
// when the run goes on without graphs.
std::optional<CudaGraphStep::Outputs> TrainingStep::graphedPass(const torch::Tensor& input, const torch::Tensor& labels)
{
    try {
        const int capturesBefore = m_graph->captures();
        auto outputs = m_graph->run(input, labels, [this](const torch::Tensor& in, const torch::Tensor& out) {
            return forwardBackward(in, out, 1.0);
        });
        if (m_graph->captures() != capturesBefore) {
            char line[160];
            std::snprintf(line, sizeof line, "CUDA graphs: the passes captured for batches of %lld x %lld x %lld (%.1f s)",
                          static_cast<long long>(input.size(0)), static_cast<long long>(labels.size(1)),
                          static_cast<long long>(labels.size(2)), m_graph->lastCaptureSeconds());
            say(line);
        }
        return outputs;
    } catch (const std::exception& error) {
        say(std::string("CUDA graphs off: the capture failed (") + error.what() + "); the steps run eagerly");
        m_graph.reset();
        return std::nullopt;
    }
}

CudaGraphStep::Outputs TrainingStep::forwardBackward(const torch::Tensor& input, const torch::Tensor& labels,
                                                     double share)
{
    torch::Tensor logits;
    {
        AutocastScope autocast(m_settings.amp, m_settings.device);
        logits = m_parts.model.forward(input);
    }
    const auto value = m_parts.loss(logits, labels);
    // Always backward, also for a NaN loss: the other ranks' gradient all-reduces wait for ours.
    (value * (m_parts.scaler.scale() * share)).backward();
    return {logits.detach(), value.detach()};
}

// Pixels right and labelled pixels of the logits' batch, read on the host.
void TrainingStep::measure(const torch::Tensor& logits, const torch::Tensor& labels, Result& result)
{
    torch::NoGradGuard noGrad;
    const auto valid = labels.ne(SegmentationLoss::kIgnoreIndex);
    result.hits = logits.argmax(1).eq(labels).logical_and(valid).sum().item<double>();
    result.valid = valid.sum().item<double>();
}

void TrainingStep::say(const std::string& line) const
{
    if (m_hooks.say)
        m_hooks.say(line);
}

}  // namespace training
}  // namespace segstudio::engine
