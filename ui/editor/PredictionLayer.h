#pragma once

#include <QImage>
#include <QRect>

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace segstudio::ui::editor {

// What the canvas draws of a model's prediction over the image: the predicted classes in class
// colours, the error map (pixels where the prediction differs from the label; unlabelled pixels
// excluded), or the confidence / uncertainty as a heat map. Composed lazily tile by tile, as the
// label overlay is, so a 12 MP image costs nothing until shown; the error map follows label
// edits (invalidate the edited rectangle).
// Requirements: GUI thread; the truth map set here outlives its use (the canvas's document).
class PredictionLayer {
public:
    enum class View { Off, Classes, Errors, Confidence, Uncertainty };
    static constexpr int kTile = 256;
    static constexpr QRgb kErrorColor = 0xffff00ffu;  // magenta: no class colour in the presets

    // classes, confidence, entropy: CV_8UC1 of the image's size; empty = no prediction.
    // scores: every class's score at the model's size (data::PredictionCache::Entry::scores), or
    // empty; the smart click tool works from them.
    void setMaps(const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy, const cv::Mat& scores = {});
    void clear() { setMaps({}, {}, {}); }
    const cv::Mat& scores() const { return m_scores; }
    bool hasPrediction() const { return !m_classes.empty(); }
    const cv::Mat& classes() const { return m_classes; }
    const cv::Mat& confidence() const { return m_confidence; }
    void setTruth(const cv::Mat* labels) { m_truth = labels; invalidate(); }
    void setView(View view);
    View view() const { return m_view; }
    // Class colours with hidden classes transparent (the canvas's own table): per-class visibility
    // applies to every view through the predicted (and, for errors, the true) class.
    void setColors(const std::array<QRgb, 256>& colors);

    void invalidate();
    void invalidate(const QRect& rect);
    // The composed layer, valid at least inside rect.
    const QImage& composed(const QRect& rect);

    struct Pixel {
        int classId;
        double confidence;  // 0..1
    };
    std::optional<Pixel> at(const QPoint& pixel) const;

private:
    void composeTile(const QRect& rect);

    cv::Mat m_classes;
    cv::Mat m_confidence;
    cv::Mat m_entropy;
    cv::Mat m_scores;
    const cv::Mat* m_truth = nullptr;
    View m_view = View::Off;
    std::array<QRgb, 256> m_colors{};
    QImage m_image;
    std::vector<bool> m_composed;
    int m_tilesX = 0;
};

}  // namespace segstudio::ui::editor
