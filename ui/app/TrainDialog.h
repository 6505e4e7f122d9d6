#pragma once

#include "TrainingLauncher.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace segstudio::ui {

// Asks for the few settings of a new run (model, epochs, pack size, batch, run name) with
// defaults that finish on a CPU. Everything else is segstudio-train's default.
class TrainDialog : public QDialog {
    Q_OBJECT

public:
    TrainDialog(const QString& runName, const TrainingLauncher::Settings& settings, QWidget* parent = nullptr);

    TrainingLauncher::Settings settings() const;
    QString runName() const;

private:
    QLineEdit* m_name;
    QComboBox* m_model;
    QSpinBox* m_epochs;
    QSpinBox* m_height;
    QSpinBox* m_width;
    QSpinBox* m_batch;
};

}  // namespace segstudio::ui
