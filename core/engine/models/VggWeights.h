#pragma once

#include <string>

namespace segstudio::engine {
inline namespace models { class SegNetImpl; }

inline namespace models {
// Loads VGG-16 convolution weights into SegNet's encoder. The file is a TorchScript archive whose
// parameters hold the 13 convolutions in order (weight then bias each), e.g. made in Python with
//   torch.jit.save(torch.jit.script(torchvision.models.vgg16(weights="IMAGENET1K_V1").features), "vgg16.pt")
// (docs/ENGINE.md). Other parameters (a classifier head, 2-D linear weights) are ignored.
// Throws EngineError naming the file and the first convolution whose shape does not match.
void loadVgg16Encoder(SegNetImpl& model, const std::string& path);

}  // namespace models
}  // namespace segstudio::engine
