#pragma once

#include <QString>

namespace segstudio::ui {

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
    // A project file for a dataset in datasetDir that does not go inside it (datasets are often
    // read-only, and a project's labels/ would mix with the data): <parent>/<name>-segstudio/
    // <name>.segstudio, or under the user's documents when the parent is not writable.
    static QString suggestFor(const QString& datasetDir);
    bool createFolder(QString* error) const;  // makes folderToCreate; true when there is none
};

}  // namespace segstudio::ui
