#include "PixelFeatures.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace segstudio::paint {

namespace {

cv::Mat smoothed(const cv::Mat& plane, double sigma)
{
    cv::Mat out;
    cv::GaussianBlur(plane, out, cv::Size(), sigma, sigma, cv::BORDER_REFLECT);
    return out;
}

// Eigenvalues of the symmetric 2x2 field [[a, b], [b, c]], larger first.
void eigenvalues(const cv::Mat& a, const cv::Mat& b, const cv::Mat& c, cv::Mat& larger, cv::Mat& smaller)
{
    cv::Mat half = (a + c) * 0.5, diff = (a - c) * 0.5, root;
    cv::sqrt(diff.mul(diff) + b.mul(b), root);
    larger = half + root;
    smaller = half - root;
}

// The planes of one scale: L, a, b smoothed, then of L the gradient magnitude, LoG, Hessian and
// structure tensor eigenvalues.
void addScale(const std::vector<cv::Mat>& lab, double sigma, std::vector<cv::Mat>& planes)
{
    for (const cv::Mat& channel : lab)
        planes.push_back(smoothed(channel, sigma));
    const cv::Mat& lightness = planes[planes.size() - 3];
    cv::Mat dx, dy, dxx, dyy, dxy;
    cv::Sobel(lightness, dx, CV_32F, 1, 0, 3, 0.125);
    cv::Sobel(lightness, dy, CV_32F, 0, 1, 3, 0.125);
    cv::Mat magnitude;
    cv::magnitude(dx, dy, magnitude);
    planes.push_back(magnitude);
    cv::Sobel(lightness, dxx, CV_32F, 2, 0, 3, 0.25);
    cv::Sobel(lightness, dyy, CV_32F, 0, 2, 3, 0.25);
    cv::Sobel(lightness, dxy, CV_32F, 1, 1, 3, 0.25);
    planes.push_back(dxx + dyy);  // the LoG: the smoothed image's Laplacian
    cv::Mat larger, smaller;
    eigenvalues(dxx, dxy, dyy, larger, smaller);
    planes.push_back(larger);
    planes.push_back(smaller);
    // The structure tensor: products of the first derivatives, averaged over twice the scale.
    eigenvalues(smoothed(dx.mul(dx), 2 * sigma), smoothed(dx.mul(dy), 2 * sigma), smoothed(dy.mul(dy), 2 * sigma), larger,
                smaller);
    planes.push_back(larger);
    planes.push_back(smaller);
}

cv::Size workingSizeOf(cv::Size size, int maxSide)
{
    const int longest = std::max(size.width, size.height);
    if (longest <= maxSide)
        return size;
    const double scale = double(maxSide) / longest;
    return {std::max(1, int(std::lround(size.width * scale))), std::max(1, int(std::lround(size.height * scale)))};
}

}  // namespace

const std::vector<double>& PixelFeatures::scales()
{
    static const std::vector<double> sigmas{0.7, 1.6, 3.5, 5.0, 10.0};
    return sigmas;
}

int PixelFeatures::count() { return int(scales().size()) * 9; }

PixelFeatures::PixelFeatures(const cv::Mat& rgb, int maxSide)
    : m_imageSize(rgb.size()), m_workingSize(workingSizeOf(rgb.size(), maxSide))
{
    CV_Assert(rgb.type() == CV_8UC3 && !rgb.empty());
    cv::Mat working = rgb;
    if (m_workingSize != m_imageSize)
        cv::resize(rgb, working, m_workingSize, 0, 0, cv::INTER_AREA);
    cv::Mat lab;
    working.convertTo(lab, CV_32FC3, 1.0 / 255.0);
    cv::cvtColor(lab, lab, cv::COLOR_RGB2Lab);  // L in 0..100, a and b about -100..100
    std::vector<cv::Mat> channels;
    cv::split(lab, channels);
    std::vector<cv::Mat> planes;
    for (const double sigma : scales())
        addScale(channels, sigma, planes);
    // One pixel a row: merge the planes as channels, then view them as rows.
    cv::Mat merged;
    cv::merge(planes, merged);
    m_rows = merged.reshape(1, m_workingSize.area());
}

void PixelFeatures::append(const cv::Mat& planes)
{
    CV_Assert(!planes.empty());
    cv::Mat working;
    planes.convertTo(working, CV_MAKETYPE(CV_32F, planes.channels()));
    if (working.size() != m_workingSize)
        cv::resize(working, working, m_workingSize, 0, 0, cv::INTER_LINEAR);
    cv::hconcat(m_rows, working.reshape(1, m_workingSize.area()), m_rows);
}

int PixelFeatures::rowOf(int x, int y) const
{
    const int wx = std::min(m_workingSize.width - 1, int(x * double(m_workingSize.width) / m_imageSize.width));
    const int wy = std::min(m_workingSize.height - 1, int(y * double(m_workingSize.height) / m_imageSize.height));
    return wy * m_workingSize.width + wx;
}

}  // namespace segstudio::paint
