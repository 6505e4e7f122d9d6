#pragma once

#include "ModelComparison.h"

#include <QObject>
#include <QString>

namespace segstudio::ui::training {

// The run whose model predicts and answers Smart Click: the user's choice, kept per project across
// sessions (QSettings under the project file's path). It changes when the user chooses a run
// (choose()), and otherwise only when a run this window trained or fine-tuned validated better on
// the same images (offer(), ModelComparison); a weaker or unvalidated run never takes over
// silently: the status says what it scored and that the model in use stays.
// Requirements: GUI thread.
class ModelChoice : public QObject {
    Q_OBJECT

public:
    explicit ModelChoice(QObject* parent = nullptr);

    QString runDirectory() const { return m_runDir; }
    // A project opened: its remembered choice when that run is still there, else `fallback`
    // (then remembered as the choice).
    void restore(const QString& projectFile, const QString& fallback);
    // The user's choice (a run clicked, Use for Predictions); a run without a checkpoint is not a
    // model: ignored.
    void choose(const QString& runDir);
    // A run that just finished training (or fine-tuning) asks to take over: it does when nothing is
    // in use yet or it validated better on the same images. Returns whether it took over.
    bool offer(const QString& runDir);

signals:
    void changed(const QString& runDir);
    void message(const QString& text);  // for the status bar: why the model changed or stayed

private:
    void set(const QString& runDir);
    static QString nameOf(const QString& runDir);

    QString m_projectFile;
    QString m_runDir;
};

}  // namespace segstudio::ui::training
