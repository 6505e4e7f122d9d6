#pragma once

#include "data/ClassSchema.h"

#include <QWidget>

class QComboBox;
class QPlainTextEdit;

namespace segstudio::ui {

// Picks the class schema in the project wizards: a preset, or custom class names one a line.
class SchemaChooser : public QWidget {
    Q_OBJECT

public:
    explicit SchemaChooser(QWidget* parent = nullptr);

    // Throws DataError when the custom names are not usable.
    data::ClassSchema schema() const;

private:
    QComboBox* m_preset;
    QPlainTextEdit* m_names;
};

}  // namespace segstudio::ui
