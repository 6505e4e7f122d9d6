#include "OpenCvOnnxModel.h"

#include <opencv2/imgproc.hpp>

#include <nlohmann/json.hpp>
#include <onnx/onnx_pb.h>

#include <cfloat>
#include <fstream>
#include <stdexcept>

namespace segstudio::deploy {

namespace {

// The input's 1x3xHxW and the metadata, from the file itself: OpenCV's Net does not say its input
// shape before a forward, nor keep metadata.
onnx::ModelProto readModel(const std::filesystem::path& file)
{
    std::ifstream stream(file, std::ios::binary);
    onnx::ModelProto model;
    if (!stream || !model.ParseFromIstream(&stream))
        throw std::runtime_error(file.string() + ": not an ONNX file");
    return model;
}

int declaredClasses(const onnx::ModelProto& model, const std::filesystem::path& file)
{
    if (model.graph().output_size() < 1 || model.graph().output(0).type().tensor_type().shape().dim_size() != 4)
        throw std::runtime_error(file.string() + ": the model's output is not 1xKxHxW");
    return int(model.graph().output(0).type().tensor_type().shape().dim(1).dim_value());
}

cv::Size declaredInputSize(const onnx::ModelProto& model, const std::filesystem::path& file)
{
    if (model.graph().input_size() < 1)
        throw std::runtime_error(file.string() + ": the model has no input");
    const auto& shape = model.graph().input(0).type().tensor_type().shape();
    if (shape.dim_size() != 4 || shape.dim(1).dim_value() != 3 || shape.dim(2).dim_value() < 1 || shape.dim(3).dim_value() < 1)
        throw std::runtime_error(file.string() + ": the model's input is not 1x3xHxW with a fixed size");
    return {int(shape.dim(3).dim_value()), int(shape.dim(2).dim_value())};
}

}  // namespace

OpenCvOnnxModel::OpenCvOnnxModel(const std::filesystem::path& file) : m_file(file)
{
    if (!std::filesystem::exists(file))
        throw std::runtime_error(file.string() + ": not found");
    try {
        m_net = cv::dnn::readNetFromONNX(file.string());
        m_net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        m_net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        const onnx::ModelProto model = readModel(file);
        m_inputSize = declaredInputSize(model, file);
        m_classes = declaredClasses(model, file);
        for (const auto& entry : model.metadata_props())
            m_metadata[entry.key()] = entry.value();
    } catch (const cv::Exception& error) {
        throw std::runtime_error(file.string() + ": OpenCV cannot read the model: " + error.what());
    }
}

std::vector<std::string> OpenCvOnnxModel::classNames() const
{
    std::vector<std::string> names;
    const auto found = m_metadata.find("segstudio.classes");
    if (found != m_metadata.end()) {
        const auto list = nlohmann::json::parse(found->second, nullptr, /*allow_exceptions=*/false);
        if (list.is_array() && int(list.size()) == m_classes)
            for (const auto& name : list)
                names.push_back(name.is_string() ? name.get<std::string>() : name.dump());
    }
    for (int k = int(names.size()); k < m_classes; ++k)
        names.push_back("class" + std::to_string(k));
    return names;
}

cv::Mat OpenCvOnnxModel::logits(const cv::Mat& rgb)
{
    if (rgb.type() != CV_8UC3 || rgb.size() != m_inputSize)
        throw std::invalid_argument("OpenCvOnnxModel::logits: an 8-bit RGB image of the input size");
    // NCHW, RGB kept (no swap), 0..255: the graph normalises.
    const cv::Mat blob = cv::dnn::blobFromImage(rgb, 1.0, cv::Size(), cv::Scalar(), /*swapRB=*/false, /*crop=*/false, CV_32F);
    try {
        m_net.setInput(blob);
        return m_net.forward().clone();
    } catch (const cv::Exception& error) {
        throw std::runtime_error(m_file.string() + ": OpenCV cannot run the model: " + error.what());
    }
}

// As the engine's predict: the image resized to the model's size, each class's logits resized back
// (bilinear), the label the largest; one class plane at a time, so a 12 MP photo costs two float
// planes, not K.
cv::Mat OpenCvOnnxModel::labels(const cv::Mat& rgb)
{
    cv::Mat input = rgb;
    if (rgb.size() != m_inputSize)
        cv::resize(rgb, input, m_inputSize, 0, 0, cv::INTER_LINEAR);
    const cv::Mat scores = logits(input);
    cv::Mat best(rgb.size(), CV_8UC1, cv::Scalar(0));
    cv::Mat bestScore(rgb.size(), CV_32F, cv::Scalar(-FLT_MAX));
    cv::Mat plane;
    for (int k = 0; k < scores.size[1]; ++k) {
        const cv::Mat small(m_inputSize, CV_32F, const_cast<float*>(scores.ptr<float>(0, k)));
        if (small.size() == rgb.size())
            plane = small;
        else
            cv::resize(small, plane, rgb.size(), 0, 0, cv::INTER_LINEAR);
        const cv::Mat better = plane > bestScore;
        plane.copyTo(bestScore, better);
        best.setTo(k, better);
    }
    return best;
}

}  // namespace segstudio::deploy
