#pragma once

#include <filesystem>
#include <map>
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <string>
#include <vector>

namespace segstudio::deploy {

// A SegStudio ONNX file run by OpenCV's DNN module (no LibTorch): the runtime a deployment without
// LibTorch uses, and the independent check of the export. The input size is the file's; an image
// of another size is resized to it and the logits back (bilinear), as the engine's predict does.
class OpenCvOnnxModel {
public:
    // Throws std::runtime_error naming the file when OpenCV cannot read or run it.
    explicit OpenCvOnnxModel(const std::filesystem::path& file);

    cv::Size inputSize() const { return m_inputSize; }
    int classes() const { return m_classes; }
    // The file's metadata_props (segstudio.classes, segstudio.colors, ...).
    const std::map<std::string, std::string>& metadata() const { return m_metadata; }

    // Logits 1 x K x H x W (CV_32F, 4-D) for an 8-bit RGB image of the input size.
    cv::Mat logits(const cv::Mat& rgb);
    // The label map (CV_8UC1, class index per pixel) for an RGB image of any size.
    cv::Mat labels(const cv::Mat& rgb);
    // The class names of the file's segstudio.classes (class0, class1, ... when it has none).
    std::vector<std::string> classNames() const;

private:
    std::filesystem::path m_file;
    cv::dnn::Net m_net;
    cv::Size m_inputSize;
    int m_classes = 0;
    std::map<std::string, std::string> m_metadata;
};

}  // namespace segstudio::deploy
