#pragma once

#include "run/RunProgress.h"

#include <QWidget>

class QLabel;
class QProgressBar;

namespace segstudio::ui::training {

// The information panel beside the curves, as MATLAB's training-progress window has it: state,
// epoch i/N, iteration i/N, learning rate, devices, elapsed time, a progress bar and the ETA,
// and the best validation mIoU with the epoch it came from. Shows a run::RunProgress.
// Requirements: GUI thread.
class RunInfoPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunInfoPanel(QWidget* parent = nullptr);

    void showProgress(const run::RunProgress& progress);
    void clear();
    // What the launcher knows and the file cannot say (the process ended without a last record,
    // the trainer could not start): shown as the state, with the reason under it.
    void showOutcome(const QString& state, const QString& reason);

    QString stateText() const;
    QString etaText() const;
    QString bestText() const;
    int progressPercent() const;

    static QString duration(double seconds);  // "1 h 05 min", "4 min 10 s", "12 s"

private:
    QLabel* addRow(const QString& name);

    QLabel* m_state;
    QLabel* m_reason;
    QLabel* m_epoch;
    QLabel* m_iteration;
    QLabel* m_learningRate;
    QLabel* m_devices;
    QLabel* m_elapsed;
    QLabel* m_eta;
    QLabel* m_best;
    QProgressBar* m_progress;
};

}  // namespace segstudio::ui::training
