#pragma once

#include <QString>

namespace segstudio::ui {

// Where a new project file may go: the one check the new-project and import wizards both make
// before any work starts, kept out of the dialogs so tests can call it.
// Guarantees: `file` is the path with the project suffix added when it was missing; `error` is
//   empty when a new project may be written there (not empty, not existing yet, in a folder that
//   exists and is writable), else says why not, naming the path.
struct NewProjectFile {
    QString file;
    QString error;

    static NewProjectFile check(const QString& path);
};

}  // namespace segstudio::ui
