#pragma once

#include "TrainingLauncher.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QPushButton;
class QLineEdit;
class QSpinBox;

namespace segstudio::ui {

// Asks for the few settings of a new run (model, epochs, pack size, batch, run name) with
// defaults that finish on a CPU. Everything else is segstudio-train's default. A name that is
// empty or already a run in runsFolder is explained in the dialog, and Train stays disabled, so
// nothing typed is lost to a refusal after the dialog closed.
class TrainDialog : public QDialog {
    Q_OBJECT

public:
    TrainDialog(const QString& runName, const TrainingLauncher::Settings& settings, const QString& runsFolder = {},
                const QList<TrainingLauncher::ModelChoice>& models = TrainingLauncher::builtInModels(),
                QWidget* parent = nullptr);

    TrainingLauncher::Settings settings() const;
    QString runName() const;
    QString problem() const;  // why Train is disabled; empty when it is not
    bool canTrain() const;

private:
    void validate();

    QString m_runsFolder;
    QLabel* m_problem;
    QPushButton* m_train = nullptr;
    QLineEdit* m_name;
    QComboBox* m_model;
    QSpinBox* m_epochs;
    QSpinBox* m_height;
    QSpinBox* m_width;
    QSpinBox* m_batch;
};

}  // namespace segstudio::ui
