#pragma once

#include <QString>

namespace segstudio::ui::project {

// Where a new project file may go: the one check the new-project and import wizards both make
// before any work starts, kept out of the dialogs so tests can call it.
// Guarantees: `file` is the path with the project suffix added when it was missing; `error` is
//   empty when a new project may be written there (not empty, not existing yet, in a folder that
//   is writable or can be created), else says why not, naming the path; `folderToCreate` names
//   the missing folder the wizard must create (after asking) before writing.
struct NewProjectFile {
    QString file;
    QString error;
    QString folderToCreate;

    static NewProjectFile check(const QString& path);
    // A project file for a dataset in datasetDir, in a folder of its own under the user's
    // documents (<Documents>/SegStudio/<name>/<name>.segstudio; <name>-2 … when taken), never
    // inside or beside the dataset: datasets are often read-only or shared, and a project's
    // labels would mix with the data or with another user's project.
    static QString suggestFor(const QString& datasetDir);
    static QString suggestFor(const QString& datasetDir, const QString& projectsRoot);
    static QString projectsRoot();  // <Documents>/SegStudio
    bool createFolder(QString* error) const;  // makes folderToCreate; true when there is none
};

}  // namespace segstudio::ui::project
