#include "DatasetStatistics.h"

#include "data/labels/DataError.h"
#include "data/labels/LabelCounts.h"
#include "data/labels/LabelMapIO.h"
#include "pack/ClassWeights.h"

#include <filesystem>

namespace segstudio::data {
inline namespace project {

DatasetStatistics::DatasetStatistics(std::size_t classSlots)
    : m_classPixels(classSlots, 0), m_imagePixels(classSlots, 0), m_images(classSlots, 0)
{
}

void DatasetStatistics::addLabelMap(const cv::Mat& labels)
{
    if (labels.type() != CV_8UC1)
        throw DataError({}, "statistics need 8-bit single-channel label maps");
    const LabelCounts histogram = countLabels(labels);
    const std::uint64_t pixels = std::uint64_t(labels.total());
    for (std::size_t id = 0; id < m_classPixels.size() && id < 256; ++id) {
        if (histogram[id] == 0)
            continue;
        m_classPixels[id] += std::uint64_t(histogram[id]);
        // Median-frequency balancing counts every pixel of an image that contains the class,
        // unlabelled ones included (as SegNet's and MATLAB's recipes do).
        m_imagePixels[id] += pixels;
        ++m_images[id];
    }
    ++m_labelMaps;
}

void DatasetStatistics::merge(const DatasetStatistics& other)
{
    for (std::size_t id = 0; id < m_classPixels.size() && id < other.m_classPixels.size(); ++id) {
        m_classPixels[id] += other.m_classPixels[id];
        m_imagePixels[id] += other.m_imagePixels[id];
        m_images[id] += other.m_images[id];
    }
    m_labelMaps += other.m_labelMaps;
}

DatasetStatistics DatasetStatistics::ofProject(const Project& project, const std::vector<std::size_t>& indices,
                                               const std::function<bool(std::size_t, std::size_t)>& progress)
{
    std::vector<std::size_t> chosen = indices;
    if (chosen.empty())
        for (std::size_t i = 0; i < project.size(); ++i)
            chosen.push_back(i);
    DatasetStatistics statistics;
    for (std::size_t n = 0; n < chosen.size(); ++n) {
        const std::filesystem::path path = project.labelMapPath(chosen[n]);
        if (std::filesystem::exists(path))
            statistics.addLabelMap(readLabelMap(path, project.schema()));
        if (progress && !progress(n + 1, chosen.size()))
            break;
    }
    return statistics;
}

std::vector<double> DatasetStatistics::medianFrequencyWeights(int maxId) const
{
    const std::size_t n = std::size_t(maxId + 1);
    return pack::medianFrequencyWeights({m_classPixels.begin(), m_classPixels.begin() + std::ptrdiff_t(n)},
                                        {m_imagePixels.begin(), m_imagePixels.begin() + std::ptrdiff_t(n)});
}

std::vector<double> DatasetStatistics::inverseFrequencyWeights(int maxId) const
{
    const std::size_t n = std::size_t(maxId + 1);
    return pack::inverseFrequencyWeights({m_classPixels.begin(), m_classPixels.begin() + std::ptrdiff_t(n)});
}

}  // namespace project
}  // namespace segstudio::data
