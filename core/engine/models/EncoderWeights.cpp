#include "EncoderWeights.h"

#include "engine/runtime/EngineError.h"
#include "SegNet.h"
#include "engine/runtime/TensorShapeText.h"
#include "VggWeights.h"

#include <torch/script.h>

namespace segstudio::engine {
inline namespace models {

namespace {

struct NamedTensor {
    std::string name;
    torch::Tensor value;
};

// Batch-norm running statistics; the integer num_batches_tracked counters are not weights.
bool isStatistic(const torch::Tensor& tensor) { return tensor.is_floating_point(); }

torch::jit::Module loadArchive(const std::string& path)
{
    try {
        return torch::jit::load(path, torch::kCPU);
    } catch (const c10::Error& error) {
        throw EngineError(path + ": not a TorchScript archive of encoder weights (" + error.what_without_backtrace() + ")");
    }
}

// Copies sources[i] into targets[i] for every target; the sources may have more entries.
void copyByPosition(const std::vector<NamedTensor>& sources, const std::vector<NamedTensor>& targets,
                    const std::string& path, const std::string& what)
{
    if (sources.size() < targets.size())
        throw EngineError(path + ": holds " + std::to_string(sources.size()) + " " + what + ", the encoder has " +
                          std::to_string(targets.size()));
    for (std::size_t i = 0; i < targets.size(); ++i)
        if (sources[i].value.sizes() != targets[i].value.sizes())
            throw EngineError(path + ": " + what + " " + std::to_string(i + 1) + " ('" + sources[i].name + "') is " +
                              shapeText(sources[i].value) + ", the encoder's '" + targets[i].name + "' is " +
                              shapeText(targets[i].value));
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < targets.size(); ++i)
        targets[i].value.copy_(sources[i].value.to(targets[i].value.device(), targets[i].value.scalar_type()));
}

void loadByPosition(torch::nn::Module& encoder, const std::string& path)
{
    const auto archive = loadArchive(path);
    std::vector<NamedTensor> archiveParameters, encoderParameters, archiveStatistics, encoderStatistics;
    for (const auto& item : archive.named_parameters(/*recurse=*/true))
        archiveParameters.push_back({item.name, item.value});
    for (const auto& item : archive.named_buffers(/*recurse=*/true))
        if (isStatistic(item.value))
            archiveStatistics.push_back({item.name, item.value});
    for (const auto& item : encoder.named_parameters(/*recurse=*/true))
        encoderParameters.push_back({item.key(), item.value()});
    for (const auto& item : encoder.named_buffers(/*recurse=*/true))
        if (isStatistic(item.value()))
            encoderStatistics.push_back({item.key(), item.value()});
    copyByPosition(archiveParameters, encoderParameters, path, "parameters");
    // An archive without running statistics (saved from a bare parameter list) leaves the fresh ones.
    if (!archiveStatistics.empty())
        copyByPosition(archiveStatistics, encoderStatistics, path, "batch-norm statistics");
}

}  // namespace

void loadEncoderWeights(SegmentationModelImpl& model, const std::string& modelName, const std::string& path)
{
    if (auto* segnet = dynamic_cast<SegNetImpl*>(&model)) {
        loadVgg16Encoder(*segnet, path);
        return;
    }
    auto* encoder = model.encoder();
    if (!encoder)
        throw EngineError(path + ": model '" + modelName + "' has no encoder that pretrained weights can start");
    loadByPosition(*encoder, path);
}

}  // namespace models
}  // namespace segstudio::engine
