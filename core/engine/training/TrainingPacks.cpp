#include "TrainingPacks.h"

#include "engine/runtime/EngineError.h"
#include "pack/ClassWeights.h"
#include "pack/PackError.h"

namespace segstudio::engine {
inline namespace training {

TrainingPacks::TrainingPacks(const TrainConfig& config, int world)
{
    open(config);
    check(config, world);
    for (const auto& c : m_train->spec().classes)
        m_classNames.push_back(c.name);
    computeClassWeights(config);
}

void TrainingPacks::open(const TrainConfig& config)
{
    try {
        m_train = std::make_unique<pack::PackReader>(config.trainPack);
        if (!config.valPack.empty())
            m_validation = std::make_unique<pack::PackReader>(config.valPack);
    } catch (const pack::PackError& error) {
        throw EngineError(std::string("refusing to train on a bad pack: ") + error.what());
    }
}

void TrainingPacks::check(const TrainConfig& config, int world) const
{
    const auto& classes = m_train->spec().classes;
    if (classes.empty() || m_train->size() == 0)
        throw EngineError(config.trainPack + ": pack has no classes or no records");
    if (config.classes != 0 && config.classes != int(classes.size()))
        throw EngineError(config.trainPack + ": pack has " + std::to_string(classes.size()) +
                          " classes, config asks for " + std::to_string(config.classes));
    if (m_validation && m_validation->spec().classes.size() != classes.size())
        throw EngineError(config.valPack + ": validation pack has " +
                          std::to_string(m_validation->spec().classes.size()) + " classes, the training pack " +
                          std::to_string(classes.size()));
    const auto& spec = m_train->spec();
    if (config.cropHeight > int(spec.height) || config.cropWidth > int(spec.width))
        throw EngineError(config.trainPack + ": the crop " + std::to_string(config.cropHeight) + "x" +
                          std::to_string(config.cropWidth) + " is larger than its images (" +
                          std::to_string(spec.height) + "x" + std::to_string(spec.width) +
                          "); crop within them, or 0 for whole images");
    if (std::int64_t(m_train->size()) < std::int64_t(config.batchSize) * world)
        throw EngineError(config.trainPack + ": " + std::to_string(m_train->size()) +
                          " records are fewer than one batch of " + std::to_string(config.batchSize) +
                          (world > 1 ? " on each of " + std::to_string(world) + " ranks" : std::string()));
}

void TrainingPacks::computeClassWeights(const TrainConfig& config)
{
    std::vector<std::uint64_t> pixels, imagePixels;
    for (const auto& c : m_train->spec().classes) {
        pixels.push_back(c.pixelCount);
        imagePixels.push_back(c.imagePixelCount);
    }
    if (config.classWeighting == "median")
        m_classWeights = pack::medianFrequencyWeights(pixels, imagePixels);
    else if (config.classWeighting == "sqrt-median")
        m_classWeights = pack::sqrtMedianFrequencyWeights(pixels, imagePixels);
    else if (config.classWeighting == "inverse")
        m_classWeights = pack::inverseFrequencyWeights(pixels);
    double sum = 0.0;
    for (double w : m_classWeights)
        sum += w;
    if (!m_classWeights.empty() && !(sum > 0.0))
        throw EngineError(config.trainPack +
                          ": the pack header counts no labelled pixels, so class weights are undefined");
}

}  // namespace training
}  // namespace segstudio::engine
