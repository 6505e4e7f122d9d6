#include "ActionIcons.h"

#include "icons/Icons.h"

#include <QHash>

namespace segstudio::ui::editor {

// The three that find a region for the user differ at a glance: cells, a rectangle, a click.
QIcon ActionIcons::forAction(const QString& objectName)
{
    static const QHash<QString, QString> names{
        {QStringLiteral("tool.brush"), QStringLiteral("draw-brush")},
        {QStringLiteral("tool.eraser"), QStringLiteral("draw-eraser")},
        {QStringLiteral("tool.polygon"), QStringLiteral("draw-polygon")},
        {QStringLiteral("tool.fill"), QStringLiteral("color-fill")},
        {QStringLiteral("tool.wand"), QStringLiteral("tools-wizard")},
        {QStringLiteral("tool.superpixel"), QStringLiteral("grid-rectangular")},
        {QStringLiteral("tool.grabcut"), QStringLiteral("select-rectangular")},
        {QStringLiteral("tool.smartclick"), QStringLiteral("input-mouse-click-left")},
        {QStringLiteral("tool.thinstroke"), QStringLiteral("draw-freehand")},
        {QStringLiteral("tool.picker"), QStringLiteral("color-picker")},
        {QStringLiteral("view.zoomIn"), QStringLiteral("zoom-in")},
        {QStringLiteral("view.zoomOut"), QStringLiteral("zoom-out")},
        {QStringLiteral("view.fit"), QStringLiteral("zoom-fit-best")},
        {QStringLiteral("view.actual"), QStringLiteral("zoom-original")},
        {QStringLiteral("view.labels"), QStringLiteral("view-visible")},
        {QStringLiteral("view.outline"), QStringLiteral("format-stroke-color")},
        {QStringLiteral("view.predictionInstead"), QStringLiteral("document-swap")},
    };
    const QString name = names.value(objectName);
    return name.isEmpty() ? QIcon() : icons::icon(name);
}

}  // namespace segstudio::ui::editor
