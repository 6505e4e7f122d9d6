#include "ToolSettingsStore.h"

#include "ToolSettings.h"

#include <QSettings>

namespace segstudio::ui::editor {

namespace {

constexpr const char* kBrushSize = "editor/brushSize";
constexpr const char* kBrushShape = "editor/brushShape";
constexpr const char* kTolerance = "editor/tolerance";
constexpr const char* kSuperpixelSize = "editor/superpixelSize";

}  // namespace

void ToolSettingsStore::restore(ToolSettings& settings)
{
    const QSettings stored;
    settings.setBrushSize(stored.value(QLatin1String(kBrushSize), settings.brushSize()).toInt());
    const int shape = stored.value(QLatin1String(kBrushShape), int(settings.brushShape())).toInt();
    if (shape == int(paint::BrushShape::Round) || shape == int(paint::BrushShape::Square))
        settings.setBrushShape(paint::BrushShape(shape));
    settings.setTolerance(stored.value(QLatin1String(kTolerance), settings.tolerance()).toInt());
    settings.setSuperpixelSize(stored.value(QLatin1String(kSuperpixelSize), settings.superpixelSize()).toInt());
}

void ToolSettingsStore::keep(const ToolSettings& settings)
{
    QSettings stored;
    stored.setValue(QLatin1String(kBrushSize), settings.brushSize());
    stored.setValue(QLatin1String(kBrushShape), int(settings.brushShape()));
    stored.setValue(QLatin1String(kTolerance), settings.tolerance());
    stored.setValue(QLatin1String(kSuperpixelSize), settings.superpixelSize());
}

void ToolSettingsStore::forget()
{
    QSettings stored;
    for (const char* key : {kBrushSize, kBrushShape, kTolerance, kSuperpixelSize})
        stored.remove(QLatin1String(key));
}

}  // namespace segstudio::ui::editor
