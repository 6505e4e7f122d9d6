#pragma once

#include <QMenu>
#include <QStringList>

namespace segstudio::ui::shell {

// File > Open Recent: one entry per recent project (its file name, the whole path as tooltip),
// off while there is none. Choosing one says so by a signal; the window's project session opens it.
class RecentProjectsMenu : public QMenu {
    Q_OBJECT

public:
    explicit RecentProjectsMenu(QWidget* parent = nullptr);

public slots:
    void setProjects(const QStringList& files);

signals:
    void projectChosen(const QString& file);
};

}  // namespace segstudio::ui::shell
