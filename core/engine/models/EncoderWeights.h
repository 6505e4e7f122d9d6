#pragma once

#include <string>

namespace segstudio::engine {
inline namespace models { class SegmentationModelImpl; }

inline namespace models {
// Starts a model's encoder from pretrained weights in a TorchScript archive (nothing is ever
// downloaded: docs/ENGINE.md shows how to make one). SegNet takes VGG-16's 13 convolutions
// (VggWeights); any other model's encoder() takes the archive's parameters by position, and its
// batch-norm statistics too when the archive has them, e.g. torchvision's
// `mobilenet_v2(weights=...).features` for DeepLabV3+. Trailing archive layers the encoder lacks
// (MobileNetV2's last 1x1 conv) are ignored.
// Throws EngineError naming the file and the first tensor whose shape differs, or saying that the
// model has no encoder to load into.
void loadEncoderWeights(SegmentationModelImpl& model, const std::string& modelName, const std::string& path);

}  // namespace models
}  // namespace segstudio::engine
