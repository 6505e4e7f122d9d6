#pragma once

#include "remote/RemoteTarget.h"

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace segstudio::ui::training {

// "Train on" in the Train dialog (issue 64.2): this computer, a machine over SSH (host, user,
// port, the folder of runs there and segstudio-train's path there), or a SLURM cluster reached
// over SSH (the same, and the partition, GPUs and time limit). Keys are not asked for: ssh takes
// them from the user's agent and ~/.ssh/config.
class TrainTargetBox : public QWidget {
    Q_OBJECT

public:
    explicit TrainTargetBox(QWidget* parent = nullptr);

    // nullopt: this computer.
    std::optional<remote::RemoteTarget> target() const;
    void setTarget(const std::optional<remote::RemoteTarget>& target);
    // What keeps the choice from being used ("Name the machine to train on."), or empty.
    QString problem() const;

signals:
    void changed();

private:
    void showKind();

    QComboBox* m_kind;
    QWidget* m_remote;  // the fields of a machine elsewhere
    QLineEdit* m_host;
    QLineEdit* m_user;
    QSpinBox* m_port;
    QLineEdit* m_folder;
    QLineEdit* m_trainer;
    QWidget* m_slurm;  // a cluster's fields
    QLineEdit* m_partition;
    QSpinBox* m_gpus;
    QSpinBox* m_hours;
    std::vector<std::string> m_sshOptions;  // a remembered target's (not edited here): kept
};

}  // namespace segstudio::ui::training
