#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>

namespace segstudio::engine {
inline namespace training {

// Before any checkpoint file is written (issue 65.1, out of Trainer): the loss check comes before
// a step, and a step that makes the parameters NaN/inf (an absurd learning rate) shows only in the
// next loss, which may never come; so the model's parameters and floating buffers are checked
// here, before a file could hold them as best.pt or last.pt.
// Guarantees: NonFiniteParameters naming the file, the iteration and the epoch when any value is
// not finite; nothing otherwise (integer buffers, e.g. batch norm's step count, are not looked at).
class FiniteModelCheck {
public:
    static void require(const torch::nn::Module& model, std::int64_t iteration, int epoch, const std::string& fileName);
};

}  // namespace training
}  // namespace segstudio::engine
