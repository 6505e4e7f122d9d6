#pragma once

#include "SegmentationMetrics.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace segstudio::metrics {

// A confusion matrix counted on the host, from class-id maps (one byte a pixel): rows are the
// true class, columns the predicted one. Truth values >= classes (255 = unlabelled) are skipped;
// a predicted value >= classes is an error (std::invalid_argument), never silently dropped.
class ConfusionCounts {
public:
    explicit ConfusionCounts(int classes);

    void add(const std::uint8_t* truth, const std::uint8_t* predicted, std::size_t pixels);
    void add(const ConfusionCounts& other);
    void addCount(int truth, int predicted, std::int64_t count);

    int classes() const { return m_classes; }
    std::int64_t at(int truth, int predicted) const
    {
        return m_counts[std::size_t(truth) * std::size_t(m_classes) + std::size_t(predicted)];
    }
    const std::vector<std::int64_t>& counts() const { return m_counts; }
    std::int64_t labelledPixels() const;
    std::int64_t wrongPixels() const;
    SegmentationMetrics metrics() const { return SegmentationMetrics::fromConfusion(m_counts, m_classes); }
    // Each row divided by its sum (the share of a true class predicted as each class); rows of
    // classes absent from the truth are zero.
    std::vector<double> normalisedByTruth() const;

private:
    int m_classes;
    std::vector<std::int64_t> m_counts;
};

}  // namespace segstudio::metrics
