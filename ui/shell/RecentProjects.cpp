#include "RecentProjects.h"

#include <QFileInfo>
#include <QSettings>

namespace segstudio::ui::shell {

namespace {

const QString kKey = QStringLiteral("recentProjects");

QString normalized(const QString& file)
{
    return QFileInfo(file).absoluteFilePath();
}

}  // namespace

RecentProjects::RecentProjects(QSettings& settings, int limit) : m_settings(settings), m_limit(std::max(1, limit)) {}

QStringList RecentProjects::files() const
{
    return m_settings.value(kKey).toStringList();
}

void RecentProjects::add(const QString& file)
{
    const QString path = normalized(file);
    QStringList list = files();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > m_limit)
        list.removeLast();
    store(list);
}

void RecentProjects::remove(const QString& file)
{
    QStringList list = files();
    list.removeAll(normalized(file));
    store(list);
}

void RecentProjects::clear()
{
    store({});
}

void RecentProjects::store(const QStringList& files)
{
    m_settings.setValue(kKey, files);
}

}  // namespace segstudio::ui::shell
