#include "AdamWKernel.h"

#include <cmath>

namespace segstudio::engine {
inline namespace training {

// Built with -O3 -fno-math-errno (CMakeLists.txt), so the compiler vectorises the loop, sqrt
// included. The order of operations is LibTorch's: decay, the two averages, then
// p -= step * m / (sqrt(v) / sqrt(1 - beta2^t) + eps).
void adamWUpdate(float* __restrict parameters, const float* __restrict gradients, float* __restrict averages,
                 float* __restrict squareAverages, std::int64_t count, const AdamWCoefficients& c)
{
    const float decay = c.decay, beta1 = c.beta1, beta2 = c.beta2;
    const float keep1 = 1.0f - beta1, keep2 = 1.0f - beta2;
    const float inverseRoot = c.inverseRootCorrection2, epsilon = c.epsilon, stepSize = c.stepSize;
    for (std::int64_t i = 0; i < count; ++i) {
        const float g = gradients[i];
        const float m = averages[i] * beta1 + g * keep1;
        const float v = squareAverages[i] * beta2 + g * g * keep2;
        averages[i] = m;
        squareAverages[i] = v;
        parameters[i] = parameters[i] * decay - stepSize * m / (std::sqrt(v) * inverseRoot + epsilon);
    }
}

}  // namespace training
}  // namespace segstudio::engine
