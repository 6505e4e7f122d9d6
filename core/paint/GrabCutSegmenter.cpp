#include "GrabCutSegmenter.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace segstudio::paint {

namespace {

cv::Rect withMargin(const cv::Rect& rect, cv::Size imageSize, int margin)
{
    return cv::Rect(rect.x - margin, rect.y - margin, rect.width + 2 * margin, rect.height + 2 * margin) &
           cv::Rect({0, 0}, imageSize);
}

}  // namespace

RegionMask GrabCutSegmenter::fromRect(const cv::Mat& rgb, const cv::Rect& rect, int iterations, int maxWorkPixels)
{
    CV_Assert(rgb.type() == CV_8UC3);
    const cv::Rect clipped = rect & cv::Rect(0, 0, rgb.cols, rgb.rows);
    if (clipped.width < 2 || clipped.height < 2)
        return {};
    // A rectangle encloses the object: GrabCut only needs a ring of background context around it.
    const cv::Rect roi = withMargin(clipped, rgb.size(), std::max(16, std::max(clipped.width, clipped.height) / 5));
    return run(rgb, roi, cv::Mat(), cv::GC_INIT_WITH_RECT, clipped - roi.tl(), iterations, maxWorkPixels);
}

RegionMask GrabCutSegmenter::fromStrokes(const cv::Mat& rgb, const cv::Mat& foreground, const cv::Mat& background,
                                         int iterations, int maxWorkPixels)
{
    CV_Assert(rgb.type() == CV_8UC3 && foreground.size() == rgb.size() && background.size() == rgb.size());
    const cv::Rect seed = cv::boundingRect(foreground);
    if (seed.empty())
        return {};
    // Strokes lie inside the object, which reaches beyond them: look as far again as the strokes
    // span on every side (the work is scaled to maxWorkPixels, so this costs no more time).
    const int margin = std::max(32, std::max(seed.width, seed.height));
    const cv::Rect roi = withMargin(seed, rgb.size(), margin) | (cv::boundingRect(background) & cv::Rect({0, 0}, rgb.size()));
    cv::Mat seedMask(roi.size(), CV_8UC1, cv::Scalar(cv::GC_PR_BGD));
    seedMask.setTo(cv::GC_BGD, background(roi));
    seedMask.setTo(cv::GC_FGD, foreground(roi));
    return run(rgb, roi, seedMask, cv::GC_INIT_WITH_MASK, {}, iterations, maxWorkPixels);
}

RegionMask GrabCutSegmenter::run(const cv::Mat& rgb, const cv::Rect& roi, cv::Mat seedMask, int mode,
                                 cv::Rect rectInRoi, int iterations, int maxWorkPixels)
{
    const double scale = std::min(1.0, std::sqrt(static_cast<double>(maxWorkPixels) / roi.area()));
    cv::Mat crop = rgb(roi).clone();
    if (scale < 1.0) {
        cv::resize(crop, crop, cv::Size(), scale, scale, cv::INTER_AREA);
        if (!seedMask.empty())
            cv::resize(seedMask, seedMask, crop.size(), 0, 0, cv::INTER_NEAREST);
        rectInRoi = cv::Rect(cv::Point(int(rectInRoi.x * scale), int(rectInRoi.y * scale)),
                             cv::Size(std::max(1, int(rectInRoi.width * scale)), std::max(1, int(rectInRoi.height * scale))));
    }
    cv::Mat mask = seedMask.empty() ? cv::Mat(crop.size(), CV_8UC1, cv::Scalar(cv::GC_BGD)) : seedMask;
    cv::Mat backgroundModel, foregroundModel;
    try {
        cv::grabCut(crop, mask, rectInRoi, backgroundModel, foregroundModel, std::max(1, iterations), mode);
    } catch (const cv::Exception&) {
        // GrabCut refuses seeds with no background or no foreground sample: nothing to select.
        return {};
    }
    cv::Mat foreground = (mask == cv::GC_FGD) | (mask == cv::GC_PR_FGD);
    if (scale < 1.0)
        cv::resize(foreground, foreground, roi.size(), 0, 0, cv::INTER_NEAREST);
    RegionMask inRoi = RegionMask::fromFullMask(foreground);
    if (inRoi.empty())
        return {};
    inRoi.bounds += roi.tl();
    return inRoi;
}

}  // namespace segstudio::paint
