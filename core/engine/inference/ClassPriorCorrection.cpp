#include "ClassPriorCorrection.h"

#include "engine/runtime/EngineError.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace segstudio::engine {
inline namespace inference {

ClassPriorCorrection::ClassPriorCorrection(const std::vector<double>& classWeights, double strength)
{
    if (classWeights.empty() || strength == 0.0)
        return;
    if (std::any_of(classWeights.begin(), classWeights.end(), [](double w) { return !(w >= 0) || !std::isfinite(w); }))
        throw EngineError("class prior correction: class weights must be finite and not negative");
    // Weight 0: a class without training pixels, which taught no tilt to undo.
    std::vector<float> offsets;
    bool tilted = false;
    for (double weight : classWeights) {
        offsets.push_back(weight > 0 ? float(-strength * std::log(weight)) : 0.0f);
        tilted = tilted || offsets.back() != offsets.front();
    }
    if (tilted)
        m_offsets = torch::tensor(offsets, torch::kFloat);
}

torch::Tensor ClassPriorCorrection::apply(const torch::Tensor& logits) const
{
    const auto asFloat = logits.to(torch::kFloat);
    if (!active())
        return asFloat;
    TORCH_CHECK(logits.dim() == 4 && logits.size(1) == m_offsets.size(0), "class prior correction: ", m_offsets.size(0),
                " classes, logits of shape ", logits.sizes());
    return asFloat + m_offsets.to(logits.device()).view({1, -1, 1, 1});
}

}  // namespace inference
}  // namespace segstudio::engine
