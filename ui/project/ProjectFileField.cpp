#include "ProjectFileField.h"

#include "NewProjectFile.h"

#include <QDir>
#include <QMessageBox>

namespace segstudio::ui::project {

ProjectFileField::ProjectFileField(QWidget* parent)
    : PathField(Kind::SaveFile, tr("SegStudio projects (*.segstudio)"), parent)
{
    setObjectName(QStringLiteral("projectFile"));
}

void ProjectFileField::suggestFrom(const QString& sourceDir)
{
    if (!path().isEmpty() && path() != m_suggestion)
        return;  // the user's own choice stays
    m_suggestion = sourceDir.trimmed().isEmpty() ? QString() : NewProjectFile::suggestFor(sourceDir.trimmed());
    setPath(m_suggestion);
}

QString ProjectFileField::prepare(QWidget* dialogParent, QString* error)
{
    const NewProjectFile checked = NewProjectFile::check(path());
    if (!checked.error.isEmpty()) {
        *error = checked.error;
        return {};
    }
    if (!checked.folderToCreate.isEmpty() && QDir::cleanPath(path()) != QDir::cleanPath(m_suggestion)) {
        const auto answer = QMessageBox::question(dialogParent, tr("Create folder"),
                                                  tr("%1 does not exist. Create it for the project?").arg(checked.folderToCreate));
        if (answer != QMessageBox::Yes) {
            *error = tr("%1: no such folder").arg(checked.folderToCreate);
            return {};
        }
    }
    if (!checked.createFolder(error))
        return {};
    return checked.file;
}

}  // namespace segstudio::ui::project
