#include "WorldJoin.h"

#include "engine/distributed/Communicator.h"
#include "engine/distributed/Replicas.h"
#include "engine/runtime/EngineError.h"
#include "pack/PackReader.h"

namespace segstudio::engine {
inline namespace training {

std::unique_ptr<GradientSync> WorldJoin::join(Communicator* communicator, const Replicas& replicas,
                                              SegmentationModelImpl& model, const TrainConfig& config,
                                              const pack::PackReader& train, const pack::PackReader* val)
{
    if (!communicator)
        return nullptr;
    requireSamePacks(replicas, config, train, val);
    replicas.broadcastFromLeader(model);
    std::vector<torch::Tensor> parameters;
    for (auto& parameter : model.parameters())
        parameters.push_back(parameter);
    return config.gradientSync == "plain" ? makePlainGradientSync(*communicator, parameters)
                                          : makeBucketedGradientSync(*communicator, parameters);
}

void WorldJoin::requireSamePacks(const Replicas& replicas, const TrainConfig& config, const pack::PackReader& train,
                                 const pack::PackReader* val)
{
    const auto differs = replicas.differingFromLeader(
        {std::int64_t(train.storedChecksum()), std::int64_t(val ? val->storedChecksum() : 0)});
    if (differs[0] > 0)
        throw EngineError(config.trainPack + ": the training pack differs between ranks (" + std::to_string(differs[0]) +
                          " rank(s) hold another checksum than rank 0); give every rank the same file");
    if (differs[1] > 0)
        throw EngineError(config.valPack + ": the validation pack differs between ranks; give every rank the same file");
}

}  // namespace training
}  // namespace segstudio::engine
