#include "TrainingValidation.h"

#include <cmath>

namespace segstudio::engine {
inline namespace training {

ValidationSettings TrainingValidation::settingsFor(const TrainConfig& config, torch::Device device,
                                                   const TrainingPrecision& precision,
                                                   const std::vector<double>& classWeights, Communicator* communicator)
{
    ValidationSettings settings;
    settings.device = device;
    settings.batchSize = device.is_cuda() ? config.batchSize : 1;
    settings.amp = precision.amp;
    settings.correction = ClassPriorCorrection(classWeights);
    settings.channelsLast = precision.channelsLast;
    settings.pinMemory = device.is_cuda();
    settings.communicator = communicator;
    return settings;
}

bool TrainingValidation::isNewBest(const SegmentationMetrics& metrics, double bestMeanIoU)
{
    return std::isfinite(metrics.loss) && metrics.meanIoU > bestMeanIoU;
}

}  // namespace training
}  // namespace segstudio::engine
