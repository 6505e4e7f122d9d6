#include "RecentProjectsMenu.h"

#include <QFileInfo>

namespace segstudio::ui::shell {

RecentProjectsMenu::RecentProjectsMenu(QWidget* parent) : QMenu(tr("Open &Recent"), parent)
{
    setEnabled(false);
}

void RecentProjectsMenu::setProjects(const QStringList& files)
{
    clear();
    for (const QString& file : files)
        addAction(QFileInfo(file).fileName(), this, [this, file] { emit projectChosen(file); })->setToolTip(file);
    setEnabled(!files.isEmpty());
}

}  // namespace segstudio::ui::shell
