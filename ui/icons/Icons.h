#pragma once

#include <QIcon>
#include <QString>

namespace segstudio::ui::icons {

// One of SegStudio's own icons by its Breeze name ("draw-brush", "zoom-in"): the SVG embedded from
// resources/icons/breeze (its README lists them), the same on every desktop whatever its icon
// theme, drawn in the palette's text colour (ThemedSvgIconEngine), so a dark theme shows them light.
// Requirements: a QGuiApplication for the pixmaps and the palette.
// Guarantees: the embedded resource is registered before the first icon (the library is static,
// so nothing else would pull it in); a name that is not embedded gives a null icon.
QIcon icon(const QString& name);

}  // namespace segstudio::ui::icons
