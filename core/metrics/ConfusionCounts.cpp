#include "ConfusionCounts.h"

#include <stdexcept>
#include <string>

namespace segstudio::metrics {

ConfusionCounts::ConfusionCounts(int classes) : m_classes(classes)
{
    if (classes <= 0 || classes > 255)
        throw std::invalid_argument("a confusion matrix needs 1 to 255 classes, not " + std::to_string(classes));
    m_counts.assign(std::size_t(classes) * std::size_t(classes), 0);
}

void ConfusionCounts::add(const std::uint8_t* truth, const std::uint8_t* predicted, std::size_t pixels)
{
    const auto classes = std::size_t(m_classes);
    for (std::size_t i = 0; i < pixels; ++i) {
        const std::size_t t = truth[i];
        if (t >= classes)
            continue;
        const std::size_t p = predicted[i];
        if (p >= classes)
            throw std::invalid_argument("predicted class " + std::to_string(p) + " is beyond the " +
                                        std::to_string(classes) + " classes");
        ++m_counts[t * classes + p];
    }
}

void ConfusionCounts::add(const ConfusionCounts& other)
{
    if (other.m_classes != m_classes)
        throw std::invalid_argument("cannot add a confusion matrix of " + std::to_string(other.m_classes) + " classes to one of " +
                                    std::to_string(m_classes));
    for (std::size_t i = 0; i < m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
}

void ConfusionCounts::addCount(int truth, int predicted, std::int64_t count)
{
    if (truth < 0 || truth >= m_classes || predicted < 0 || predicted >= m_classes || count < 0)
        throw std::invalid_argument("confusion entry (" + std::to_string(truth) + ", " + std::to_string(predicted) +
                                    ") = " + std::to_string(count) + " outside " + std::to_string(m_classes) + " classes");
    m_counts[std::size_t(truth) * std::size_t(m_classes) + std::size_t(predicted)] += count;
}

std::int64_t ConfusionCounts::labelledPixels() const
{
    std::int64_t sum = 0;
    for (const auto count : m_counts)
        sum += count;
    return sum;
}

std::int64_t ConfusionCounts::wrongPixels() const
{
    std::int64_t correct = 0;
    for (int c = 0; c < m_classes; ++c)
        correct += at(c, c);
    return labelledPixels() - correct;
}

std::vector<double> ConfusionCounts::normalisedByTruth() const
{
    std::vector<double> normalised(m_counts.size(), 0.0);
    const auto classes = std::size_t(m_classes);
    for (std::size_t t = 0; t < classes; ++t) {
        double row = 0.0;
        for (std::size_t p = 0; p < classes; ++p)
            row += double(m_counts[t * classes + p]);
        if (row > 0)
            for (std::size_t p = 0; p < classes; ++p)
                normalised[t * classes + p] = double(m_counts[t * classes + p]) / row;
    }
    return normalised;
}

}  // namespace segstudio::metrics
