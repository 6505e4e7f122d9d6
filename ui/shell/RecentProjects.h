#pragma once

#include <QStringList>

class QSettings;

namespace segstudio::ui::shell {

// The most-recently-used project files, newest first, kept in QSettings under "recentProjects".
// Requirements: the settings object outlives this one.
// Guarantees: no duplicates (paths compared after making them absolute), at most `limit` entries.
class RecentProjects {
public:
    explicit RecentProjects(QSettings& settings, int limit = 8);

    QStringList files() const;
    void add(const QString& file);
    void remove(const QString& file);
    void clear();

private:
    void store(const QStringList& files);

    QSettings& m_settings;
    int m_limit;
};

}  // namespace segstudio::ui::shell
