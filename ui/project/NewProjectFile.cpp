#include "NewProjectFile.h"

#include "data/project/Project.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace segstudio::ui::project {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("NewProjectFile", text);
}

// The deepest part of `path` that exists: what decides whether the rest can be created.
QFileInfo existingAncestor(const QString& path)
{
    QString current = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    while (!QFileInfo::exists(current)) {
        const QString parent = QFileInfo(current).path();
        if (parent == current)
            break;
        current = parent;
    }
    return QFileInfo(current);
}

}  // namespace

NewProjectFile NewProjectFile::check(const QString& path)
{
    NewProjectFile result;
    result.file = path.trimmed();
    if (result.file.isEmpty()) {
        result.error = tr("Choose where the new project file goes");
        return result;
    }
    const QString suffix = QString::fromLatin1(data::Project::kFileSuffix);
    if (!result.file.endsWith(suffix))
        result.file += suffix;
    const QFileInfo info(result.file);
    if (info.exists()) {
        result.error = tr("%1: already exists; choose a new project file").arg(result.file);
        return result;
    }
    const QFileInfo folder(info.absolutePath());
    if (folder.isDir()) {
        if (!folder.isWritable())
            result.error = tr("%1: this folder is not writable").arg(folder.filePath());
        return result;
    }
    const QFileInfo ancestor = existingAncestor(folder.filePath());
    if (!ancestor.isDir())
        result.error = tr("%1: no such folder (%2 is a file)").arg(folder.filePath(), ancestor.filePath());
    else if (!ancestor.isWritable())
        result.error = tr("%1: no such folder, and %2 is not writable").arg(folder.filePath(), ancestor.filePath());
    else
        result.folderToCreate = folder.filePath();
    return result;
}

QString NewProjectFile::projectsRoot()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).filePath(QStringLiteral("SegStudio"));
}

QString NewProjectFile::suggestFor(const QString& datasetDir)
{
    return suggestFor(datasetDir, projectsRoot());
}

QString NewProjectFile::suggestFor(const QString& datasetDir, const QString& projectsRoot)
{
    const QFileInfo dataset(QDir::cleanPath(datasetDir));
    const QString name = dataset.fileName().isEmpty() ? QStringLiteral("project") : dataset.fileName();
    const QDir root(projectsRoot);
    QString folder = name;
    for (int n = 2; QFileInfo::exists(root.filePath(folder)); ++n)
        folder = QStringLiteral("%1-%2").arg(name).arg(n);
    return root.filePath(folder + QLatin1Char('/') + name + QString::fromLatin1(data::Project::kFileSuffix));
}

bool NewProjectFile::createFolder(QString* error) const
{
    if (folderToCreate.isEmpty() || QDir().mkpath(folderToCreate))
        return true;
    if (error)
        *error = tr("%1: cannot create this folder").arg(folderToCreate);
    return false;
}

}  // namespace segstudio::ui::project
