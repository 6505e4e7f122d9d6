#pragma once

#include <QObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <optional>

namespace segstudio::ui {

// Runs a training in its own process, segstudio-train, as three steps: pack the project's train
// split, pack its val split (both into the run folder), then train into the run folder. The GUI
// never links LibTorch; it follows the run through its directory (RunWatcher).
// Requirements: GUI thread; one chain at a time (start() refuses while busy).
// Guarantees: never blocks: every step is an asynchronous QProcess. stop() sends SIGTERM; the
//   trainer checkpoints and exits 130, a pack step just ends. stopAfterEpoch() sends SIGUSR1: the
//   trainer ends the epoch (and its validation) first. resume() continues a stopped run (one
//   step, no packing). finished() comes once per start() or resume();
//   on a failure its message carries the step's own error line (segstudio-train names the file
//   and the problem, e.g. "No space left on device").
class TrainingLauncher : public QObject {
    Q_OBJECT

public:
    // What the Train dialog sets. Empty or zero = the engine's default (docs/ENGINE.md, "Defaults
    // that learn"): only what the user chose is passed, so the engine's defaults stay one list.
    struct Settings {
        bool recipe = false;  // --recipe: SegNet's published CamVid recipe under the fields below
        QString model;        // empty: the engine's default model (models --json marks it)
        // How long: `minutes` of training time when > 0 (--time-budget: the engine plans the epochs
        // and the schedule to end then), else `epochs`. The Train dialog proposes 30 minutes
        // (TrainDialog::presetSettings(EngineDefaults)).
        int minutes = 0;
        int epochs = 100;
        int height = 180;
        int width = 240;
        int batch = 4;
        QString optimizer;       // sgd | adam | adamw
        double learningRate = 0;
        QString schedule;        // none | step | cosine
        QString classWeighting;  // sqrt-median | median | inverse | none
        bool flip = true;
        int translate = 10;  // pixels
        int valEpochs = 1;
        QStringList devices;  // empty: the engine's choice; "cpu", or GPUs ("cuda:0", "cuda:1": data parallel)
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
    static QStringList resumeArguments(const QString& runDir, int epochs);  // 0 = as configured
    // The settings a run was trained with (its config.json and train.pack), for "Train again".
    static Settings settingsOfRun(const QString& runDir, const Settings& fallback);

    struct ModelChoice {
        QString name;
        QString description;
        bool isDefault = false;  // what segstudio-train trains when no --model is given
    };
    struct DeviceChoice {
        QString name;  // "cpu", "cuda:0", ...
        QString description;
        qint64 memoryBytes = 0;
    };
    // The engine's models (segstudio-train models --json), asked once in the background; until
    // the answer comes, or when the trainer cannot be asked, the models every build has.
    QList<ModelChoice> models() const { return m_models; }
    void refreshModels();  // and the devices (segstudio-train devices --json)
    static QList<ModelChoice> builtInModels();
    QList<DeviceChoice> devices() const { return m_devices; }

    void setTrainer(const QString& program) { m_program = program; }
    QString trainer() const { return m_program; }
    bool start(const QString& projectFile, const QString& runDir, const Settings& settings);
    bool resume(const QString& runDir, int epochs = 0);
    void stop();  // idempotent: a second request does nothing while the first is honoured
    bool stopAfterEpoch();  // false unless the trainer itself is running
    bool isTraining() const;  // the trainer step itself (not packing) is running
    // The window is closing and the user keeps the run: the trainer is left running (it is its
    // own process, in its own session) and the panel re-attaches to its run folder next time.
    void keepRunningInBackground();
    // A segstudio-train that holds the run folder's lock and is alive on this host: its pid.
    static std::optional<qint64> liveTrainerOf(const QString& runDir);
    bool isBusy() const { return m_step != Step::Idle; }
    QString runDirectory() const { return m_runDir; }

signals:
    void modelsChanged();
    void devicesChanged();
    void started(const QString& runDir);
    void output(const QString& text);  // stdout and stderr of each step, as it comes
    // While the project's splits are packed: "train" or "val", images done of total; then
    // packingEnded (also when packing fails or is stopped).
    void packingProgress(const QString& split, int done, int total);
    void packingEnded();
    void finished(bool ok, const QString& message);

private:
    enum class Step { Idle, PackTrain, PackVal, Train, Resume };
    void runStep(Step step);
    void stepFinished(int exitCode, QProcess::ExitStatus status);
    void finish(bool ok, const QString& message);
    void remember(const QString& text);
    QString failureReason() const;
    void reportPackingProgress();
    bool isPacking() const { return m_step == Step::PackTrain || m_step == Step::PackVal; }

    QProcess* m_process;
    QString m_program;
    QString m_projectFile;
    QString m_runDir;
    Settings m_settings;
    int m_resumeEpochs = 0;
    Step m_step = Step::Idle;
    bool m_stopping = false;
    bool m_detached = false;  // keepRunningInBackground(): never stopped or killed by us
    static constexpr int kStopWaitMs = 30000;
    QString m_stepTail;
    QString m_lastPackingReport;  // the packing progress last said (split + line)  // the last output of the running step, for the reason of a failure
    QList<ModelChoice> m_models;
    QList<DeviceChoice> m_devices;  // "cpu" until the engine answers
    QProcess* m_catalog = nullptr;
    QProcess* m_deviceCatalog = nullptr;
};

}  // namespace segstudio::ui
