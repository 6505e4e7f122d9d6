#pragma once

#include <torch/torch.h>

#include <vector>

namespace segstudio::engine {
inline namespace inference {

// Training with class weights w_c (SegmentationLoss) teaches a model the class posterior tilted
// towards the rare classes, p(c | x) w_c / Z: it then over-predicts them (on CamVid val the
// default model labelled Pedestrian with 0.86 recall for an IoU of 0.18). Predictions undo part
// of the tilt by adding -strength x ln(w_c) to the logits before the argmax: strength 1 would
// give back the unweighted posterior (best pixel accuracy), 0 keeps the weighted one (best recall
// of rare classes); mean IoU, which wants both, peaked between them. kStrength was chosen on
// CamVid val over seven runs of three models (+0.8 to +1.8 points for each of 30 minutes or more;
// docs/BENCHMARKS.md, "Predicting with class weights").
// A per-class constant: it commutes with the bilinear resizes, and a graph adds it as one node.
// Every consumer of a model's decisions applies it: validation, evaluate, predict, ONNX export.
class ClassPriorCorrection {
public:
    static constexpr double kStrength = 0.5;

    ClassPriorCorrection() = default;  // none: logits as they are
    // Weights as the loss used them (any common scale; 0 for a class absent from training, left
    // alone); empty or all equal: no correction. Throws EngineError for negative or non-finite ones.
    explicit ClassPriorCorrection(const std::vector<double>& classWeights, double strength = kStrength);

    bool active() const { return m_offsets.defined(); }
    // Offsets per class (C floats), undefined when not active.
    const torch::Tensor& offsets() const { return m_offsets; }
    // logits N x C x H x W (any float type and device) plus the offsets, in float.
    torch::Tensor apply(const torch::Tensor& logits) const;

private:
    torch::Tensor m_offsets;
};

}  // namespace inference
}  // namespace segstudio::engine
