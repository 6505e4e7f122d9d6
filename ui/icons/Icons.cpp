#include "Icons.h"

#include <QFile>

// Q_INIT_RESOURCE declares the resource's init function, which must be at global scope. A static
// library's resource object is linked only when something refers to it: this does.
static void initBreezeIcons() { Q_INIT_RESOURCE(breeze); }

namespace segstudio::ui {

QIcon icon(const QString& name)
{
    static const bool registered = (initBreezeIcons(), true);
    Q_UNUSED(registered);
    const QString file = QStringLiteral(":/icons/breeze/%1.svg").arg(name);
    // QIcon(file) of a missing file is not null; a typo must show as one, not as an empty button.
    return QFile::exists(file) ? QIcon(file) : QIcon();
}

}  // namespace segstudio::ui
