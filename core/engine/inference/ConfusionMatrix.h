#pragma once

#include "SegmentationMetrics.h"

#include <torch/torch.h>

namespace segstudio::engine {
inline namespace inference {

// Accumulates a classes x classes confusion matrix on the device of the predictions, so
// validation never copies per-pixel data to the host; only the final matrix is read back.
// Requirements: predictions and labels have the same shape; labels 255 (unlabelled) and any id
// >= classes are ignored.
class ConfusionMatrix {
public:
    ConfusionMatrix(int classes, torch::Device device);

    void add(const torch::Tensor& predictions, const torch::Tensor& labels);
    void reset();

    int classes() const { return m_classes; }
    torch::Tensor& countsTensor() { return m_counts; }  // summed over the ranks of a data-parallel run
    std::vector<std::int64_t> counts() const;
    SegmentationMetrics metrics() const;

private:
    int m_classes;
    torch::Tensor m_counts;  // int64, classes*classes
};

}  // namespace inference
}  // namespace segstudio::engine
