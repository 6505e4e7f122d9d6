#pragma once

#include "PathField.h"

namespace segstudio::ui::project {

// The "new project file" field of the wizards: follows the source folder being typed with a
// writable suggestion beside it (NewProjectFile::suggestFor) until the user edits the path, and
// on accept creates a missing folder, asking first unless it is the suggested one.
class ProjectFileField : public PathField {
    Q_OBJECT

public:
    explicit ProjectFileField(QWidget* parent = nullptr);

    void suggestFrom(const QString& sourceDir);
    QString suggestion() const { return m_suggestion; }
    // The checked project file, its folder created; empty and *error set when it cannot be used
    // (or the user declined to create the folder).
    QString prepare(QWidget* dialogParent, QString* error);

private:
    QString m_suggestion;
};

}  // namespace segstudio::ui::project
