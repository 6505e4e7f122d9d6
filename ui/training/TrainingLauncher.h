#pragma once

#include "common/TrainSettings.h"
#include "common/TrainerProcess.h"

#include <QObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace segstudio::ui::training {

class RemoteTrainer;

// Runs a training in its own process, segstudio-train, as three steps: pack the project's train
// split, pack its val split (both into the run folder), then train into the run folder. The GUI
// never links LibTorch; it follows the run through its directory (RunWatcher).
// Requirements: GUI thread; one chain at a time (start() refuses while busy).
// Guarantees: never blocks: every step is an asynchronous TrainerProcess. stop() sends SIGTERM; the
//   trainer checkpoints and exits 130, a pack step just ends. stopAfterEpoch() sends SIGUSR1: the
//   trainer ends the epoch (and its validation) first. resume() continues a stopped run (one
//   step, no packing). finished() comes once per start() or resume();
//   on a failure its message carries the step's own error line (segstudio-train names the file
//   and the problem, e.g. "No space left on device").
// Settings::where (issue 64.2): the packs are made here, then the run trains on that machine or
//   cluster (RemoteTrainer: sent, started, mirrored back into the run folder); stop() and
//   stopAfterEpoch() reach the trainer there; closing the window leaves it training, and
//   attachRemote() follows it again.
class TrainingLauncher : public QObject {
    Q_OBJECT

public:
    using Settings = common::TrainSettings;  // what the Train dialog sets

    explicit TrainingLauncher(QObject* parent = nullptr);
    ~TrainingLauncher() override;

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

    void setTrainer(const QString& program);
    QString trainer() const;
    bool start(const QString& projectFile, const QString& runDir, const Settings& settings);
    // TrainerArguments::resume; a run that trained elsewhere (remote.json) resumes there.
    bool resume(const QString& runDir, int epochs = 0, int minutes = 0);
    // What a run trains with on another machine: segstudio-train's arguments there (its run folder
    // and packs there, none of this computer's devices), and for SLURM the job script submitted.
    static QStringList remoteTrainArguments(const QString& runDir, const Settings& settings);
    static QString jobScript(const QString& runDir, const Settings& settings);
    // Follows a run that trains elsewhere (its folder's remote.json) until it ends; false when idle
    // is not possible (busy) or there is no record.
    bool attachRemote(const QString& runDir);
    bool isRemote() const { return m_step == Step::Remote; }
    void stop();  // idempotent: a second request does nothing while the first is honoured
    bool stopAfterEpoch();  // false unless the trainer itself is running
    bool isTraining() const;  // the trainer step itself (not packing) is running
    bool isStopping() const;  // Stop was asked: the trainer saves its checkpoint
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
    // A run elsewhere: its trainer started there ("pid 4711 on gpu1"), and the link to it.
    void remoteStarted(const QString& where);
    void connectionChanged(bool connected, const QString& message);

private:
    enum class Step { Idle, PackTrain, PackVal, Train, Resume, Remote };
    void startRemote();
    void runStep(Step step);
    void stepFinished(const common::TrainerProcess::Exit& exit);
    void finish(bool ok, const QString& message);
    void reportPackingProgress();
    bool isPacking() const { return m_step == Step::PackTrain || m_step == Step::PackVal; }

    common::TrainerProcess* m_process;
    QString m_projectFile;
    QString m_runDir;
    Settings m_settings;
    int m_resumeEpochs = 0;
    int m_resumeMinutes = 0;
    Step m_step = Step::Idle;
    bool m_stopping = false;
    bool m_detached = false;  // keepRunningInBackground(): never stopped or killed by us
    static constexpr int kStopWaitMs = 30000;
    QString m_lastPackingReport;  // the packing progress last said (split + line)
    QList<ModelChoice> m_models;
    QList<DeviceChoice> m_devices;  // "cpu" until the engine answers
    common::TrainerProcess* m_catalog;
    common::TrainerProcess* m_deviceCatalog;
    RemoteTrainer* m_remote;
};

}  // namespace segstudio::ui::training
