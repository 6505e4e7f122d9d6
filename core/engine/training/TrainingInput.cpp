#include "TrainingInput.h"

#include "engine/runtime/GpuMonitor.h"

namespace segstudio::engine {
inline namespace training {

namespace {

// The card's memory, for the choice of keeping the pack there (0: not known, or not CUDA).
double deviceMemoryOf(const TrainConfig& config, torch::Device device)
{
    double memory = 0.0;
    if (device.is_cuda() && config.dataOnDevice == "auto")
        if (const auto monitor = GpuMonitor::open({device.has_index() ? int(device.index()) : 0}))
            for (const auto& gpu : monitor->sample())
                memory = gpu.memoryTotal;
    return memory;
}

}  // namespace

BatchLoader::Options TrainingInput::loaderOptions(const TrainConfig& config, torch::Device device, int rank, int world,
                                                  bool resident)
{
    BatchLoader::Options options;
    options.batchSize = config.batchSize;
    options.seed = config.seed;
    options.pinMemory = device.is_cuda();
    options.device = device;
    options.prefetch = config.prefetch;
    options.rank = rank;
    options.worldSize = world;
    options.copyImages = !resident;
    options.copyLabels = !resident || (config.classCrops > 0 && config.cropHeight > 0);
    return options;
}

TrainingInput TrainingInput::make(const TrainConfig& config, const pack::PackReader& train, torch::Device device, int rank,
                                  int world)
{
    TrainingInput input;
    input.augmenter = std::make_unique<Augmenter>(AugmentOptions{config.flip, config.translate, config.scaleCrop,
                                                                 config.scaleMin, config.scaleMax, config.cropHeight,
                                                                 config.cropWidth, config.colorJitter, config.classCrops});
    input.crops = std::make_unique<CropSchedule>(config.cropHeight, config.cropWidth, config.cropStartScale);
    if (DeviceResidentPack::wanted(config.dataOnDevice, train, device, deviceMemoryOf(config, device), input.note))
        input.resident = std::make_unique<DeviceResidentPack>(train, device);
    input.loader =
        std::make_unique<BatchLoader>(train, loaderOptions(config, device, rank, world, input.resident != nullptr));
    return input;
}

}  // namespace training
}  // namespace segstudio::engine
