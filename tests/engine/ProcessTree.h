#pragma once

#include <QDir>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

#include <csignal>
#include <sys/types.h>

namespace segstudio::enginetest {

// Exited (a zombie nobody reaped counts as gone).
inline bool gone(pid_t pid)
{
    QFile status(QStringLiteral("/proc/%1/stat").arg(pid));
    if (::kill(pid, 0) != 0 || !status.open(QIODevice::ReadOnly))
        return true;
    return QString::fromLatin1(status.readAll()).section(')', 1).trimmed().startsWith(QLatin1Char('Z'));
}

// The processes whose parent is `parent` (from /proc).
inline QList<pid_t> childrenOf(qint64 parent)
{
    QList<pid_t> children;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile status(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!status.open(QIODevice::ReadOnly))
            continue;
        const QStringList fields = QString::fromLatin1(status.readAll()).section(')', 1).split(' ', Qt::SkipEmptyParts);
        if (fields.size() >= 2 && fields[1].toLongLong() == parent)
            children << pid_t(entry.toInt());
    }
    return children;
}

// `root` and everything below it.
inline QList<pid_t> processTree(qint64 root)
{
    QList<pid_t> tree{pid_t(root)};
    for (int i = 0; i < tree.size(); ++i)
        tree += childrenOf(tree[i]);
    return tree;
}

}  // namespace segstudio::enginetest
