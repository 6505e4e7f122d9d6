#pragma once

#include <QLabel>

namespace segstudio::run {
class RunProgress;
}

namespace segstudio::ui::training {

class TrainingDock;

// The run the Training panel shows, in one line for the Label workspace's status bar: its name,
// state, progress, best validation mIoU and the time left ("20261126-0930 · training 41 % ·
// val mIoU 0.512 · 12 min left"), so training can be watched without leaving the canvas.
// While Predict as I label packs or learns, it says so too ("Predict as I label: learning, 40 s
// of 2 min"), in every workspace. Clicking it asks for the Train workspace. Empty (hidden) while
// there is nothing to say.
class RunStatusLine : public QLabel {
    Q_OBJECT

public:
    explicit RunStatusLine(TrainingDock* training, QWidget* parent = nullptr);

    // Pure, for tests: the line for a run's progress.
    static QString describe(const QString& runName, const run::RunProgress& progress);

signals:
    void clicked();

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void refresh();

    TrainingDock* m_training;
};

}  // namespace segstudio::ui::training
