#pragma once

#include <cstdint>

namespace segstudio::engine {
inline namespace training {

// One AdamW step's arithmetic for a run of float parameters, in one pass over memory. The
// coefficients are those of torch::optim::AdamW for this step (its decay, bias corrections and
// step size), so the result is the same update as LibTorch's eight tensor operations make.
struct AdamWCoefficients {
    float decay;             // 1 - lr * weight_decay
    float beta1, beta2;
    float inverseRootCorrection2;  // 1 / sqrt(1 - beta2^t)
    float epsilon;
    float stepSize;          // lr / (1 - beta1^t)
};

void adamWUpdate(float* parameters, const float* gradients, float* averages, float* squareAverages, std::int64_t count,
                 const AdamWCoefficients& c);

}  // namespace training
}  // namespace segstudio::engine
