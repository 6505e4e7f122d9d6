#pragma once

#include <QWidget>

class QListWidget;

namespace segstudio::ui::shell {

// What the window shows with no project open: recent projects and the ways to get one.
// It only asks; the window does the opening.
class StartPage : public QWidget {
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);

    void setRecentProjects(const QStringList& files);
    QListWidget* recentList() const { return m_recent; }

signals:
    void newProjectRequested();
    void openProjectRequested();
    void importRequested();
    void demoRequested();
    void recentProjectRequested(const QString& file);

private:
    QListWidget* m_recent;
};

}  // namespace segstudio::ui::shell
