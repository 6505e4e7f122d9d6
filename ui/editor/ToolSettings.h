#pragma once

#include "paint/Brush.h"
#include "paint/WriteGuard.h"

#include <QObject>

namespace segstudio::ui::editor {

// What the tools share: current class, brush tip, wand tolerance, superpixel size and the lock
// options. Owned by the editor; the tool bar and the classes panel edit it, tools read it.
// Requirements: GUI thread. Guarantees: changed() follows every effective change.
class ToolSettings : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxBrushSize = 500;

    explicit ToolSettings(QObject* parent = nullptr);

    int currentClass() const { return m_currentClass; }
    void setCurrentClass(int classId);
    int brushSize() const { return m_brushSize; }
    void setBrushSize(int size);
    void growBrush();    // ] : larger steps for larger brushes, like paint programs
    void shrinkBrush();  // [
    paint::BrushShape brushShape() const { return m_shape; }
    void setBrushShape(paint::BrushShape shape);
    paint::Brush brush() const { return paint::Brush(m_brushSize, m_shape); }
    int tolerance() const { return m_tolerance; }
    void setTolerance(int tolerance);
    int superpixelSize() const { return m_superpixelSize; }
    void setSuperpixelSize(int size);

    const paint::WriteGuard& guard() const { return m_guard; }
    void setOnlyUnlabelled(bool on);
    void setProtected(int classId, bool isProtected);

signals:
    void currentClassChanged(int classId);
    void changed();

private:
    int m_currentClass = 0;
    int m_brushSize = 15;
    paint::BrushShape m_shape = paint::BrushShape::Round;
    int m_tolerance = 24;
    int m_superpixelSize = 24;
    paint::WriteGuard m_guard;
};

}  // namespace segstudio::ui::editor
