#pragma once

#include <opencv2/core.hpp>

#include <vector>

namespace segstudio::paint {

// ilastik's pixel features for a classifier that learns a new kind of image from a few strokes
// (PixelClassifier): at each scale sigma (0.7, 1.6, 3.5, 5 and 10 px), the image smoothed (each
// channel of CIELab, so colour counts where there is colour and a grey image costs nothing more),
// and of its lightness the gradient magnitude, the Laplacian of Gaussian, the Hessian's and the
// structure tensor's two eigenvalues. 45 values a pixel, as float rows of a N x 45 matrix (and
// the columns of any planes appended after them).
// Images larger than maxSide on their long side are described at that size (a 12-megapixel photo
// would need 2 GB of features): pixel (x, y) of the image is sample at workingPoint(x, y).
// Requirements: none (the image's features are a pure function of it, append() adds the caller's;
//   cv::parallel_for_ inside OpenCV's filters).
class PixelFeatures {
public:
    static constexpr int kMaxSide = 1024;

    explicit PixelFeatures(const cv::Mat& rgb, int maxSide = kMaxSide);

    static int count();                           // features a pixel: 45
    static const std::vector<double>& scales();   // the sigmas, in pixels of the working size
    cv::Size imageSize() const { return m_imageSize; }
    cv::Size workingSize() const { return m_workingSize; }
    const cv::Mat& rows() const { return m_rows; }  // CV_32F, workingSize().area() x columns()
    int columns() const { return m_rows.cols; }     // count(), and the planes appended
    // More values a pixel after the image's own (autocontext: a model's scores of the image, as
    // PredictionCorrector learns from them): planes of any depth and channel count, at any size
    // (resized to the working size, bilinear), become the last columns.
    void append(const cv::Mat& planes);
    // The row of the image's pixel (x, y).
    int rowOf(int x, int y) const;

private:
    cv::Size m_imageSize;
    cv::Size m_workingSize;
    cv::Mat m_rows;
};

}  // namespace segstudio::paint
