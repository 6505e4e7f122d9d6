#include "NewProjectFile.h"

#include "data/Project.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace segstudio::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("NewProjectFile", text);
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
    if (!folder.isDir())
        result.error = tr("%1: no such folder").arg(folder.filePath());
    else if (!folder.isWritable())
        result.error = tr("%1: this folder is not writable").arg(folder.filePath());
    return result;
}

}  // namespace segstudio::ui
