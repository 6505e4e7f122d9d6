#include "DenseFlow.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace segstudio::paint {

namespace {

// DIS builds a pyramid down to patches of 8 px; below this it has no level to start from.
constexpr int kSmallestSide = 16;

cv::Size workingSizeOf(cv::Size image, int maxSide)
{
    const int longSide = std::max(image.width, image.height);
    if (maxSide <= 0 || longSide <= maxSide)
        return image;
    const double scale = double(maxSide) / longSide;
    return {std::max(1, int(std::lround(image.width * scale))), std::max(1, int(std::lround(image.height * scale)))};
}

// Grey first, then scaled: a third of the pixels to scale.
cv::Mat greyAt(const cv::Mat& frame, cv::Size size)
{
    cv::Mat grey = frame;
    if (frame.channels() == 3)
        cv::cvtColor(frame, grey, cv::COLOR_RGB2GRAY);
    if (grey.size() == size)
        return grey.isContinuous() ? grey : grey.clone();  // DIS wants continuous frames
    cv::Mat scaled;
    cv::resize(grey, scaled, size, 0, 0, cv::INTER_AREA);
    return scaled;
}

cv::Mat disFlow(const cv::Mat& from, const cv::Mat& to, DenseFlow::Preset preset)
{
    const int opencvPreset =
        preset == DenseFlow::Preset::Fast ? cv::DISOpticalFlow::PRESET_FAST : cv::DISOpticalFlow::PRESET_MEDIUM;
    cv::Ptr<cv::DISOpticalFlow> dis = cv::DISOpticalFlow::create(opencvPreset);
    cv::Mat flow;
    dis->calc(from, to, flow);
    return flow;
}

// The field at (x, y), bilinear between its four nearest vectors; (x, y) lies inside it.
cv::Vec2f bilinear(const cv::Mat& field, float x, float y)
{
    const int x0 = std::min(int(x), field.cols - 1), y0 = std::min(int(y), field.rows - 1);
    const int x1 = std::min(x0 + 1, field.cols - 1), y1 = std::min(y0 + 1, field.rows - 1);
    const float ax = x - float(x0), ay = y - float(y0);
    const cv::Vec2f* top = field.ptr<cv::Vec2f>(y0);
    const cv::Vec2f* bottom = field.ptr<cv::Vec2f>(y1);
    const cv::Vec2f upper = top[x0] * (1 - ax) + top[x1] * ax;
    const cv::Vec2f lower = bottom[x0] * (1 - ax) + bottom[x1] * ax;
    return upper * (1 - ay) + lower * ay;
}

}  // namespace

DenseFlow::DenseFlow(const cv::Mat& target, const cv::Mat& source, Parameters parameters) : m_imageSize(target.size())
{
    const auto isFrame = [](const cv::Mat& m) { return m.type() == CV_8UC3 || m.type() == CV_8UC1; };
    if (!isFrame(target) || !isFrame(source) || target.type() != source.type() || target.size() != source.size()
        || target.empty())
        throw std::invalid_argument("optical flow needs two 8-bit frames of one size and type");
    const cv::Size working = workingSizeOf(m_imageSize, parameters.maxSide);
    if (std::min(working.width, working.height) < kSmallestSide) {
        m_backward = cv::Mat(working, CV_32FC2, cv::Scalar(0, 0));
        m_forward = m_backward.clone();
        return;
    }
    const cv::Mat targetGrey = greyAt(target, working), sourceGrey = greyAt(source, working);
    // DIS's calc(I0, I1) gives, for each pixel x of I0, I1(x + flow(x)) ~ I0(x).
    m_backward = disFlow(targetGrey, sourceGrey, parameters.preset);
    m_forward = disFlow(sourceGrey, targetGrey, parameters.preset);
}

cv::Mat DenseFlow::consistent(double alpha, double beta, cv::Mat* mismatch) const
{
    cv::Mat ok(m_backward.size(), CV_8UC1, cv::Scalar(0));
    if (mismatch)
        mismatch->create(m_backward.size(), CV_32FC1);
    const float width = float(m_backward.cols), height = float(m_backward.rows);
    for (int y = 0; y < m_backward.rows; ++y) {
        const cv::Vec2f* back = m_backward.ptr<cv::Vec2f>(y);
        std::uint8_t* out = ok.ptr<std::uint8_t>(y);
        float* error = mismatch ? mismatch->ptr<float>(y) : nullptr;
        for (int x = 0; x < m_backward.cols; ++x) {
            const cv::Vec2f wb = back[x];
            const float sx = float(x) + wb[0], sy = float(y) + wb[1];
            if (error)
                error[x] = std::numeric_limits<float>::infinity();
            // Inside means its nearest source pixel exists, as the label lookup will take it.
            if (!(sx >= -0.5f && sx < width - 0.5f && sy >= -0.5f && sy < height - 0.5f))
                continue;
            const cv::Vec2f wf = bilinear(m_forward, std::max(sx, 0.0f), std::max(sy, 0.0f));
            const cv::Vec2f sum = wb + wf;
            const double squared = double(sum.dot(sum));
            if (error)
                error[x] = float(std::sqrt(squared));
            if (squared < alpha * (double(wb.dot(wb)) + double(wf.dot(wf))) + beta)
                out[x] = 255;
        }
    }
    return ok;
}

}  // namespace segstudio::paint
