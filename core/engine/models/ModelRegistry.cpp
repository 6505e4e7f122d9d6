#include "ModelRegistry.h"

#include "DeepLabV3Plus.h"
#include "engine/runtime/EngineError.h"
#include "SegNet.h"

namespace segstudio::engine {
inline namespace models {

namespace {

// DeepLabV3+ on a ResNet-18 encoder at output stride 32 (pyramid rates halved to 2 and 4).
std::shared_ptr<SegmentationModelImpl> resNet18DeepLab(int classes, int lastStageChannels, int middleSkipChannels = 0)
{
    DeepLabV3PlusOptions options;
    options.classes = classes;
    options.encoder = DeepLabV3PlusOptions::Encoder::ResNet;
    options.resNetLastStageChannels = lastStageChannels;
    options.encoderStride = 32;
    options.rates = {2, 4};
    options.middleSkipChannels = middleSkipChannels;
    return std::make_shared<DeepLabV3PlusImpl>(options);
}

}  // namespace

ModelRegistry& ModelRegistry::instance()
{
    static ModelRegistry registry;
    return registry;
}

ModelRegistry::ModelRegistry()
{
    add("segnet", "SegNet: VGG-16 encoder (13 conv+BN+ReLU, 5 index-keeping max-pools), mirrored decoder",
        [](int classes) { return std::make_shared<SegNetImpl>(SegNetOptions::vgg16(classes)); });
    add("segnet-basic", "SegNet-Basic: 4 stages of one 7x7 conv, 64 channels (paper's small model)",
        [](int classes) { return std::make_shared<SegNetImpl>(SegNetOptions::basic(classes)); });
    add("segnet-tiny", "fast 3x3 SegNet with 16-32-64-64 channels, for CPUs and quick experiments",
        [](int classes) { return std::make_shared<SegNetImpl>(SegNetOptions::tiny(classes)); });
    add("deeplabv3plus", "DeepLabV3+ with a MobileNetV2 encoder (output stride 16, atrous pyramid, stride-4 skip); "
                         "2.1 M parameters, 4.1 GFLOPs at 360x480",
        [](int classes) {
            DeepLabV3PlusOptions options;
            options.classes = classes;
            return std::make_shared<DeepLabV3PlusImpl>(options);
        });
    add("deeplabv3plus-os32", "DeepLabV3+ with MobileNetV2's own output stride 32 (not dilated); 2.1 M parameters, "
                              "2.7 GFLOPs at 360x480",
        [](int classes) {
            DeepLabV3PlusOptions options;
            options.classes = classes;
            options.encoderStride = 32;
            options.rates = {2, 4};  // DeepLab's rates halve with the grid; 6x8 on a 180x240 crop
            return std::make_shared<DeepLabV3PlusImpl>(options);
        });
    add("deeplabv3plus-resnet18", "DeepLabV3+ with a ResNet-18 encoder (deep 3x3 stem, output stride 32): dense 3x3 convs "
                                  "that CPUs with bf16 matrix units run fast (--amp auto); 11.6 M parameters, 13.9 GFLOPs at 360x480",
        [](int classes) { return resNet18DeepLab(classes, 512); },
        /*bf16OnCpu=*/true);
    add("deeplabv3plus-resnet18-256", "deeplabv3plus-resnet18 with a 256-channel last stage: the stride-32 stage's "
                                      "convs, its parameters and the optimiser's pass over them cut to a quarter; "
                                      "5.5 M parameters, 11.8 GFLOPs at 360x480",
        [](int classes) { return resNet18DeepLab(classes, 256); },
        /*bf16OnCpu=*/true);
    add("deeplabv3plus-resnet18-256-s16", "deeplabv3plus-resnet18-256 with a second skip: the stride-16 features "
                                          "(64 channels) join the context before its x4 upsampling; 5.5 M parameters, 11.8 GFLOPs at 360x480",
        [](int classes) { return resNet18DeepLab(classes, 256, 64); },
        /*bf16OnCpu=*/true);
    add("deeplabv3plus-slim", "DeepLabV3+ with a half-width MobileNetV2 encoder; 0.6 M parameters, 1.35 GFLOPs at 360x480",
        [](int classes) {
            DeepLabV3PlusOptions options;
            options.classes = classes;
            options.width = 0.5;
            options.pyramidChannels = 96;
            options.decoderChannels = 64;
            options.skipChannels = 24;
            return std::make_shared<DeepLabV3PlusImpl>(options);
        });
}

void ModelRegistry::add(const std::string& name, const std::string& description, ModelFactory factory, bool bf16OnCpu)
{
    m_entries[name] = Entry{description, std::move(factory), bf16OnCpu};
}

bool ModelRegistry::trainsInBf16OnCpu(const std::string& name) const
{
    const auto it = m_entries.find(name);
    return it != m_entries.end() && it->second.bf16OnCpu;
}

std::shared_ptr<SegmentationModelImpl> ModelRegistry::create(const std::string& name, int classes) const
{
    const auto it = m_entries.find(name);
    if (it == m_entries.end()) {
        std::string known;
        for (const auto& entry : m_entries)
            known += (known.empty() ? "" : ", ") + entry.first;
        throw EngineError("unknown model '" + name + "' (known: " + known + ")");
    }
    return it->second.factory(classes);
}

std::vector<ModelInfo> ModelRegistry::models() const
{
    std::vector<ModelInfo> result;
    for (const auto& entry : m_entries)
        result.push_back({entry.first, entry.second.description});
    return result;
}

std::vector<ModelInfo> availableModels()
{
    return ModelRegistry::instance().models();
}

}  // namespace models
}  // namespace segstudio::engine
