#pragma once

namespace segstudio::cli {

// The largest height or width a command takes for the images it packs, exports or crops to. A
// pack record is height x width x 4 bytes (three colour bytes and a label byte per pixel), the
// whole pack is one file that is written and then memory-mapped, and training holds a batch of
// such records plus a model's activations, many times larger: at 16384 x 16384 one record is
// already 1 GiB. Anything larger is a typo (40000 for 400), better refused before any work than
// met as a pack of terabytes or an allocation that fails half-way.
constexpr int kMaxImageSide = 16384;

}  // namespace segstudio::cli
