#pragma once

#include "CanvasImages.h"
#include "PredictionLayer.h"
#include "data/labels/ClassSchema.h"

#include <QFutureWatcher>
#include <QImage>
#include <QPointer>
#include <QWidget>

#include <opencv2/core.hpp>

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace segstudio::ui::editor {

class AbstractTool;
class LabelDocument;

// Shows a LabelDocument: the image with the label map overlaid in class colours, zoomed and
// panned, and forwards mouse/key input in image coordinates to the active tool. It only composes
// and displays: a cached ARGB overlay is composed lazily, tile by tile, for the part of the image
// a paint exposes (so opening a 12 MP image composes nothing up front), recomposed for the dirty
// rectangle of each change, and paintEvent draws only the exposed part of the view. The image is
// shown straight from the document's RGB pixels (no copy) until a background thread has made the
// faster-to-draw RGB32 copy.
// Requirements: GUI thread; the document and schema set here outlive their use (the editor
// resets them before destroying them).
// Guarantees: the view never modifies the document; hoverChanged() reports the pixel under the
// cursor (nullopt outside the image).
class LabelCanvas : public QWidget {
    Q_OBJECT

public:
    static constexpr double kMinScale = 1.0 / 64.0;
    static constexpr double kMaxScale = 64.0;
    static constexpr double kGridScale = 8.0;  // from this zoom on, a pixel grid is drawn

    explicit LabelCanvas(QWidget* parent = nullptr);
    ~LabelCanvas() override;

    // What a worker can make ahead of setDocument() so that showing a 12 MP image costs the GUI
    // thread only the drawing: the RGB32 display copy and the composed overlay, in a given style.
    using OverlayStyle = ui::editor::OverlayStyle;
    using Prepared = CanvasImages;
    OverlayStyle overlayStyle() const { return {m_colors, m_outline}; }
    // Any thread:
    static QImage displayImage(const cv::Mat& rgb);
    static double fitScale(QSize image, QSize viewport);
    static QImage previewImage(const cv::Mat& rgb, double scale);  // INTER_AREA; null when not smaller
    static QImage previewOverlay(const QImage& overlay, double scale);  // the same for a composed overlay
    static QImage composedOverlay(const cv::Mat& labels, const OverlayStyle& style);

    // prepared: optional; parts that do not match the document's size (or the current style) are
    // made here as before, lazily.
    void setDocument(LabelDocument* document, const Prepared& prepared = {});
    LabelDocument* document() const { return m_document; }
    void setSchema(const data::ClassSchema& schema);
    void setTool(AbstractTool* tool);
    // Off: the tool gets no input (an image is being swapped in, or the dataset rewritten); panning
    // and zooming still work, and nothing is redrawn for it.
    void setEditable(bool editable);
    bool isEditable() const { return m_editable; }
    AbstractTool* tool() const { return m_tool; }

    double scale() const { return m_scale; }
    void setScale(double scale, const QPointF& anchor);  // anchor: widget point that stays put
    void zoomIn();
    void zoomOut();
    void fitToWindow();
    void actualSize();
    QPointF mapToImage(const QPointF& widgetPos) const;
    QPointF mapFromImage(const QPointF& imagePos) const;
    QRect widgetRectOf(const QRect& imageRect) const;

    double labelOpacity() const { return m_opacity; }
    void setLabelOpacity(double opacity);
    bool labelsVisible() const { return m_labelsVisible; }
    void setLabelsVisible(bool visible);
    bool outlineMode() const { return m_outline; }
    void setOutlineMode(bool outline);
    void setClassVisible(int classId, bool visible);
    bool classVisible(int classId) const;

    // The model's prediction of this image (class ids, confidence, entropy: CV_8UC1 of the
    // document's size), drawn as the chosen view over the labels; cleared with the document.
    void setPrediction(const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy, const cv::Mat& scores = {});
    bool hasPrediction() const { return m_prediction.hasPrediction(); }
    void setPredictionView(PredictionLayer::View view);
    PredictionLayer::View predictionView() const { return m_predictionView; }
    double predictionOpacity() const { return m_predictionOpacity; }
    void setPredictionOpacity(double opacity);
    // Flips between the labels and the predicted classes (one key in the editor).
    void setShowPredictionInstead(bool on);
    bool showsPredictionInstead() const { return m_predictionInstead; }
    std::optional<PredictionLayer::Pixel> predictionAt(const QPoint& pixel) const { return m_prediction.at(pixel); }
    const QImage& predictionImage();  // fully composed, for tests
    const PredictionLayer& prediction() const { return m_prediction; }
    // The pixels a propagation marked for review (a carried label that a sure prediction
    // contradicts), as a tint of the image's size drawn over labels and prediction; null: none.
    // Cleared with the document.
    void setReviewLayer(const QImage& tint);
    const QImage& reviewLayer() const { return m_review; }

    static constexpr int kOverlayTile = 256;  // overlay composition unit, in image pixels
    // Drawing a 12 MP image smoothly at fit to window costs Qt ~100 ms: minified, the canvas draws
    // a copy at the fit scale instead, averaged once on a worker (exact at fit, and at most 2:1 when
    // zoomed out a little further).
    const QImage& overlay();                  // fully composed, for tests and benchmarks
    void recompose(const QRect& imageRect);   // usually driven by labelsChanged
    int composedTileCount() const;            // how much of the overlay exists, for tests
    void waitForDisplayImage();               // blocks until the RGB32 copy is in use (tests, bench)
    std::optional<QPoint> hoveredPixel() const { return m_hover; }

signals:
    void hoverChanged(std::optional<QPoint> pixel);
    void scaleChanged(double scale);
    void editRefused();  // a tool was used while the canvas takes no edits (read-only, busy)

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void rebuildImage(const Prepared& prepared);
    void rebuildColors();
    void invalidateOverlay();
    void ensureComposed(const QRect& imageRect);
    void composeRect(const QRect& rect);
    static void composeInto(QImage& overlay, const cv::Mat& labels, const OverlayStyle& style, const QRect& rect);
    void onDisplayImageReady();
    bool drawsPreview() const;
    bool toolTakesInput() const;  // minified to between half the preview's scale and its scale
    void onLabelsChanged(const QRect& imageRect);
    void updateHover(const QPointF& widgetPos);
    void drawPixelGrid(QPainter& painter, const QRect& imageRect) const;
    QRect exposedImageRect(const QRect& widgetRect) const;

    LabelDocument* m_document = nullptr;
    AbstractTool* m_tool = nullptr;
    data::ClassSchema m_schema;
    cv::Mat m_rgb;   // keeps the document's pixels alive while m_image wraps them
    QImage m_image;  // RGB888 view of m_rgb, then its RGB32 copy once converted
    QImage m_preview;  // m_image at m_previewScale, drawn when minified to between half that and that
    double m_previewScale = 0;
    QImage m_overlayPreview;  // m_overlay at m_previewScale, dropped at the first change of either
    QImage m_overlay;
    std::vector<bool> m_tileComposed;
    int m_tilesX = 0;
    QFutureWatcher<CanvasImages> m_displayWatcher;
    int m_generation = 0;  // a conversion finishing for an earlier document is ignored
    std::shared_ptr<std::atomic<int>> m_currentGeneration = std::make_shared<std::atomic<int>>(0);
    std::array<QRgb, 256> m_colors{};
    std::array<bool, 256> m_hidden{};
    double m_scale = 1.0;
    QPointF m_offset;  // widget position of the image's top-left corner
    double m_opacity = 0.5;
    bool m_labelsVisible = true;
    bool m_outline = false;
    bool m_spaceHeld = false;
    bool m_editable = true;
    bool m_panning = false;
    bool m_fitPending = true;
    QPoint m_panStart;
    QPointF m_panOffsetStart;
    std::optional<QPoint> m_hover;
    PredictionLayer m_prediction;
    PredictionLayer::View m_predictionView = PredictionLayer::View::Off;
    double m_predictionOpacity = 0.6;
    bool m_predictionInstead = false;
    QImage m_review;
};

}  // namespace segstudio::ui::editor
