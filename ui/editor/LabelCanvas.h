#pragma once

#include "data/ClassSchema.h"

#include <QImage>
#include <QPointer>
#include <QWidget>

#include <opencv2/core.hpp>

#include <array>
#include <optional>

namespace segstudio::ui {

class AbstractTool;
class LabelDocument;

// Shows a LabelDocument: the image with the label map overlaid in class colours, zoomed and
// panned, and forwards mouse/key input in image coordinates to the active tool. It only composes
// and displays: a cached ARGB overlay is recomposed for the dirty rectangle of each change, and
// paintEvent draws only the exposed part of the view.
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

    void setDocument(LabelDocument* document);
    LabelDocument* document() const { return m_document; }
    void setSchema(const data::ClassSchema& schema);
    void setTool(AbstractTool* tool);
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

    const QImage& overlay() const { return m_overlay; }  // for tests and benchmarks
    void recompose(const QRect& imageRect);              // usually driven by labelsChanged
    std::optional<QPoint> hoveredPixel() const { return m_hover; }

signals:
    void hoverChanged(std::optional<QPoint> pixel);
    void scaleChanged(double scale);

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
    void rebuildImage();
    void rebuildColors();
    void onLabelsChanged(const QRect& imageRect);
    void updateHover(const QPointF& widgetPos);
    void drawPixelGrid(QPainter& painter, const QRect& imageRect) const;
    QRect exposedImageRect(const QRect& widgetRect) const;

    LabelDocument* m_document = nullptr;
    AbstractTool* m_tool = nullptr;
    data::ClassSchema m_schema;
    QImage m_image;
    QImage m_overlay;
    std::array<QRgb, 256> m_colors{};
    std::array<bool, 256> m_hidden{};
    double m_scale = 1.0;
    QPointF m_offset;  // widget position of the image's top-left corner
    double m_opacity = 0.5;
    bool m_labelsVisible = true;
    bool m_outline = false;
    bool m_spaceHeld = false;
    bool m_panning = false;
    bool m_fitPending = true;
    QPoint m_panStart;
    QPointF m_panOffsetStart;
    std::optional<QPoint> m_hover;
};

}  // namespace segstudio::ui
