#include "Validation.h"

#include "engine/input/BatchLoader.h"
#include "engine/distributed/Communicator.h"
#include "ConfusionMatrix.h"
#include "engine/runtime/Runtime.h"

namespace segstudio::engine {
inline namespace inference {

SegmentationMetrics validate(SegmentationModelImpl& model, const pack::PackReader& pack, const SegmentationLoss& loss,
                             const ValidationSettings& settings)
{
    const bool wasTraining = model.is_training();
    model.eval();
    torch::NoGradGuard noGrad;
    BatchLoader::Options options;
    options.batchSize = settings.batchSize;
    options.shuffle = false;
    options.dropLast = false;
    options.pinMemory = settings.pinMemory;
    options.device = settings.device;
    options.padToEqual = false;
    if (settings.communicator) {
        options.rank = settings.communicator->rank();
        options.worldSize = settings.communicator->size();
    }
    BatchLoader loader(pack, options);
    ConfusionMatrix confusion(model.classes(), settings.device);
    auto lossSum = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(settings.device));
    std::int64_t samples = 0;
    loader.start(/*epoch=*/0);
    while (auto batch = loader.next()) {
        const auto images = normaliseImages(imagesToDevice(batch->images, settings.device), settings.channelsLast);
        const auto labels = batch->labels.to(settings.device).to(torch::kLong);
        torch::Tensor logits;
        {
            AutocastScope autocast(settings.amp, settings.device);
            logits = model.forward(images);
        }
        for (std::int64_t i = 0; i < images.size(0); ++i)
            lossSum += loss(logits.narrow(0, i, 1), labels.narrow(0, i, 1)).to(torch::kDouble);
        samples += images.size(0);
        confusion.add(settings.correction.apply(logits).argmax(1), labels);
    }
    if (settings.communicator) {
        settings.communicator->sum(confusion.countsTensor());
        auto totals = torch::stack({lossSum, torch::full({}, double(samples), lossSum.options())});
        settings.communicator->sum(totals);
        lossSum = totals[0];
        samples = std::int64_t(totals[1].item<double>());
    }
    auto metrics = confusion.metrics();
    metrics.loss = samples > 0 ? lossSum.item<double>() / double(samples) : 0.0;
    model.train(wasTraining);
    return metrics;
}

}  // namespace inference
}  // namespace segstudio::engine
