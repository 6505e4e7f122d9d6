#pragma once

#include <QObject>
#include <QPoint>
#include <QPointF>
#include <QString>

class QKeyEvent;
class QMouseEvent;
class QPainter;

namespace segstudio::ui::editor {

class LabelCanvas;
class LabelDocument;
class ToolSettings;

// Base of the editor's tools (Tiled's AbstractTool): the canvas forwards mouse and key events in
// image coordinates to the active tool, which changes the document only through its edit API
// (one undo command per gesture).
// Requirements: activate() before events; the canvas outlives the activation.
// Guarantees: deactivate() abandons any gesture in progress without leaving a partial edit.
class AbstractTool : public QObject {
    Q_OBJECT

public:
    AbstractTool(const QString& name, ToolSettings* settings, QObject* parent = nullptr);

    const QString& name() const { return m_name; }
    virtual QString toolTip() const { return m_name; }  // how to use it, for the tool button
    virtual void activate(LabelCanvas* canvas);
    virtual void deactivate();
    virtual void mousePressed(QMouseEvent* event, const QPointF& imagePos) = 0;
    virtual void mouseMoved(QMouseEvent* event, const QPointF& imagePos);
    virtual void mouseReleased(QMouseEvent* event, const QPointF& imagePos);
    virtual void mouseDoubleClicked(QMouseEvent* event, const QPointF& imagePos);
    virtual bool keyPressed(QKeyEvent* event);  // true when handled
    // The pointer left the canvas: whatever follows it (a hover preview) must not stay behind.
    virtual void mouseLeft() {}
    // Drawn over the labels with the view transform set: coordinates are image pixels.
    virtual void paintOverlay(QPainter& painter);
    virtual void documentChanged();  // the canvas shows another document (or none)
    virtual void predictionChanged() {}  // the model's prediction of the image came (or went)

signals:
    void message(const QString& text);

protected:
    // The image pixel under an image position (floor of each coordinate: a pixel spans [x, x + 1)).
    static QPoint pixelOf(const QPointF& imagePos);
    LabelCanvas* canvas() const { return m_canvas; }
    LabelDocument* document() const;
    ToolSettings* settings() const { return m_settings; }
    void requestRepaint();

private:
    QString m_name;
    ToolSettings* m_settings;
    LabelCanvas* m_canvas = nullptr;
};

}  // namespace segstudio::ui::editor
