#pragma once

#include <opencv2/core.hpp>

namespace segstudio::paint {

// Dense optical flow both ways between two frames of a sequence (OpenCV's DIS, Kroeger et al.
// 2016), and the forward-backward check of Sundaram et al. 2010 that says where it holds. Frames
// are scaled down to a working size first (long side at most maxSide): DIS costs in proportion to
// the pixels, so a 12-megapixel frame pays for 0.3 megapixels of flow; the flow between two frames
// is smooth, and the labels themselves are then looked up at full size.
// Requirements: two frames of one size, CV_8UC3 in one channel order (RGB as data::readImageRgb
//   reads them; BGR gives nearly the same flow) or CV_8UC1 grey. Any thread: each object has its
//   own DIS instance; DIS runs on OpenCV's threads as cv::getNumThreads() allows.
// Guarantees: backward() and forward() are CV_32FC2 at workingSize(), in working pixels; the same
//   frames and parameters give the same flows at the same cv::getNumThreads() (DIS's spatial
//   propagation runs one stripe per thread, so another thread count may differ in the last
//   decimals; the labels carried on CamVid were identical at 1 and 2 threads). Frames under 16 px
//   on a side are too small for DIS and are taken as not moving.
class DenseFlow {
public:
    // DIS's presets: Medium refines at half resolution with smaller steps, Fast at a quarter.
    enum class Preset { Fast, Medium };
    struct Parameters {
        Preset preset = Preset::Medium;
        int maxSide = 640;  // working size's long side at most; <= 0: the frames' own size
    };

    // target: the frame to be labelled; source: the frame its labels come from.
    DenseFlow(const cv::Mat& target, const cv::Mat& source, Parameters parameters);

    cv::Size imageSize() const { return m_imageSize; }
    cv::Size workingSize() const { return m_backward.size(); }
    // For each target pixel q (working size), where it is in the source: q + backward(q).
    const cv::Mat& backward() const { return m_backward; }
    // For each source pixel p (working size), where it is in the target: p + forward(p).
    const cv::Mat& forward() const { return m_forward; }

    // CV_8UC1 at the working size, 255 where the target pixel's backward flow lands inside the
    // source and the forward flow there brings it back: |wb + wf|^2 < alpha (|wb|^2 + |wf|^2) + beta,
    // in working pixels (wf sampled bilinearly at q + wb). Elsewhere the pixel was occluded, came
    // into view, or was matched wrongly. mismatch (optional) gets |wb + wf| as CV_32FC1 at the
    // working size, +infinity where q + wb lies outside the source.
    cv::Mat consistent(double alpha = 0.01, double beta = 0.5, cv::Mat* mismatch = nullptr) const;

private:
    cv::Size m_imageSize;
    cv::Mat m_backward;
    cv::Mat m_forward;
};

}  // namespace segstudio::paint
