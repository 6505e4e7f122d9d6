#pragma once

#include <QObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace segstudio::ui {

// Runs a training in its own process, segstudio-train, as three steps: pack the project's train
// split, pack its val split (both into the run folder), then train into the run folder. The GUI
// never links LibTorch; it follows the run through its directory (RunWatcher).
// Requirements: GUI thread; one chain at a time (start() refuses while busy).
// Guarantees: never blocks: every step is an asynchronous QProcess. stop() sends SIGTERM; the
//   trainer checkpoints and exits 130, a pack step just ends. finished() comes once per start();
//   on a failure its message carries the step's own error line (segstudio-train names the file
//   and the problem, e.g. "No space left on device").
class TrainingLauncher : public QObject {
    Q_OBJECT

public:
    struct Settings {
        QString model;  // empty: the engine's default model (models --json marks it)
        int epochs = 100;  // with the engine's defaults: a useful model (docs/ENGINE.md, "Defaults")
        int height = 180;
        int width = 240;
        int batch = 4;
    };

    explicit TrainingLauncher(QObject* parent = nullptr);
    ~TrainingLauncher() override;

    // segstudio-train next to the GUI (build tree: ../segstudio-train/, install: same folder),
    // else on PATH; empty when there is none.
    static QString findTrainer();
    // The argument lists of the three steps (pure, for tests).
    static QStringList packArguments(const QString& projectFile, const QString& split, const QString& packFile,
                                     const Settings& settings);
    static QStringList trainArguments(const QString& runDir, const Settings& settings);

    struct ModelChoice {
        QString name;
        QString description;
        bool isDefault = false;  // what segstudio-train trains when no --model is given
    };
    // The engine's models (segstudio-train models --json), asked once in the background; until
    // the answer comes, or when the trainer cannot be asked, the models every build has.
    QList<ModelChoice> models() const { return m_models; }
    void refreshModels();
    static QList<ModelChoice> builtInModels();

    void setTrainer(const QString& program) { m_program = program; }
    QString trainer() const { return m_program; }
    bool start(const QString& projectFile, const QString& runDir, const Settings& settings);
    void stop();
    bool isBusy() const { return m_step != Step::Idle; }
    QString runDirectory() const { return m_runDir; }

signals:
    void modelsChanged();
    void started(const QString& runDir);
    void output(const QString& text);  // stdout and stderr of each step, as it comes
    void finished(bool ok, const QString& message);

private:
    enum class Step { Idle, PackTrain, PackVal, Train };
    void runStep(Step step);
    void stepFinished(int exitCode, QProcess::ExitStatus status);
    void finish(bool ok, const QString& message);
    void remember(const QString& text);
    QString failureReason() const;

    QProcess* m_process;
    QString m_program;
    QString m_projectFile;
    QString m_runDir;
    Settings m_settings;
    Step m_step = Step::Idle;
    bool m_stopping = false;
    QString m_stepTail;
    QList<ModelChoice> m_models;
    QProcess* m_catalog = nullptr;  // the last output of the running step, for the reason of a failure
};

}  // namespace segstudio::ui
