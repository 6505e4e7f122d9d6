#pragma once

#include "data/labels/ClassSchema.h"

#include <QWidget>

class QComboBox;
class QPlainTextEdit;

namespace segstudio::ui::project {

// Picks the class schema in the project wizards: a preset, or custom class names one a line. The
// names field shows the chosen preset's classes (read-only); only "Custom" makes it editable,
// with an example as placeholder, and keeps what the user typed there across preset changes.
class SchemaChooser : public QWidget {
    Q_OBJECT

public:
    explicit SchemaChooser(QWidget* parent = nullptr);

    // Throws DataError when the custom names are not usable.
    data::ClassSchema schema() const;

private:
    void showChoice(int index);
    bool customChosen() const;

    QComboBox* m_preset;
    QPlainTextEdit* m_names;
    QString m_customNames;  // what was typed under "Custom", kept while a preset is shown
    bool m_customShown = false;
};

}  // namespace segstudio::ui::project
