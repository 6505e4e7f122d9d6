#include "Icons.h"

#include "ThemedSvgIconEngine.h"

#include <QFile>

// Q_INIT_RESOURCE declares the resource's init function, which must be at global scope. A static
// library's resource object is linked only when something refers to it: this does.
static void initBreezeIcons() { Q_INIT_RESOURCE(breeze); }

namespace segstudio::ui::icons {

QIcon icon(const QString& name)
{
    static const bool registered = (initBreezeIcons(), true);
    Q_UNUSED(registered);
    const QString file = QStringLiteral(":/icons/breeze/%1.svg").arg(name);
    // A missing file gives a null icon: a typo must show as one, not as an empty button.
    QFile svg(file);
    if (!svg.open(QIODevice::ReadOnly))
        return QIcon();
    return QIcon(new ThemedSvgIconEngine(svg.readAll()));
}

}  // namespace segstudio::ui::icons
