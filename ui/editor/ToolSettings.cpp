#include "ToolSettings.h"

#include <algorithm>

namespace segstudio::ui::editor {

ToolSettings::ToolSettings(QObject* parent) : QObject(parent) {}

void ToolSettings::setCurrentClass(int classId)
{
    if (classId == m_currentClass || classId < 0 || classId > 254)
        return;
    m_currentClass = classId;
    emit currentClassChanged(classId);
    emit changed();
}

void ToolSettings::setBrushSize(int size)
{
    size = std::clamp(size, 1, kMaxBrushSize);
    if (size == m_brushSize)
        return;
    m_brushSize = size;
    emit changed();
}

void ToolSettings::growBrush() { setBrushSize(m_brushSize + std::max(1, m_brushSize / 5)); }
void ToolSettings::shrinkBrush() { setBrushSize(m_brushSize - std::max(1, m_brushSize / 6)); }

void ToolSettings::setBrushShape(paint::BrushShape shape)
{
    if (shape == m_shape)
        return;
    m_shape = shape;
    emit changed();
}

void ToolSettings::setTolerance(int tolerance)
{
    tolerance = std::clamp(tolerance, 0, 255);
    if (tolerance == m_tolerance)
        return;
    m_tolerance = tolerance;
    emit changed();
}

void ToolSettings::setSuperpixelSize(int size)
{
    size = std::clamp(size, 4, 200);
    if (size == m_superpixelSize)
        return;
    m_superpixelSize = size;
    emit changed();
}

void ToolSettings::setOnlyUnlabelled(bool on)
{
    m_guard.setOnlyUnlabelled(on);
    emit changed();
}

void ToolSettings::setProtected(int classId, bool isProtected)
{
    m_guard.setProtected(classId, isProtected);
    emit changed();
}

}  // namespace segstudio::ui::editor
