#pragma once

#include "Project.h"

#include <cstdint>
#include <functional>
#include <opencv2/core.hpp>
#include <vector>

namespace segstudio::data {
inline namespace project {

// Per-class pixel statistics of a set of label maps, and the class-balancing weights made from
// them (the formulas live in core/pack's ClassWeights, shared with the engine).
class DatasetStatistics {
public:
    explicit DatasetStatistics(std::size_t classSlots = 256);

    void addLabelMap(const cv::Mat& labels);  // CV_8UC1
    void merge(const DatasetStatistics& other);

    // Reads the label maps of the given project entries (all when indices is empty).
    static DatasetStatistics ofProject(const Project& project, const std::vector<std::size_t>& indices = {},
                                       const std::function<bool(std::size_t done, std::size_t total)>& progress = {});

    std::uint64_t classPixels(int id) const { return m_classPixels.at(id); }
    std::uint64_t imagePixels(int id) const { return m_imagePixels.at(id); }   // pixels of images containing id
    std::uint64_t imagesContaining(int id) const { return m_images.at(id); }
    std::uint64_t unlabelledPixels() const { return m_classPixels.at(255); }
    std::uint64_t labelMapCount() const { return m_labelMaps; }

    // Weights indexed by class id 0..maxId (absent classes get 0).
    std::vector<double> medianFrequencyWeights(int maxId) const;
    std::vector<double> inverseFrequencyWeights(int maxId) const;

private:
    std::vector<std::uint64_t> m_classPixels;
    std::vector<std::uint64_t> m_imagePixels;
    std::vector<std::uint64_t> m_images;
    std::uint64_t m_labelMaps = 0;
};

}  // namespace project
}  // namespace segstudio::data
