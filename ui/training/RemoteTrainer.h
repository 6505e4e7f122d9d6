#pragma once

#include "remote/RemoteCommands.h"
#include "remote/RemoteRunRecord.h"

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <optional>

namespace segstudio::ui::training {

// A run trained on another machine, followed from here (issue 64.2): the run folder made there,
// the packs sent (only what changed: rsync --checksum), the trainer started (nohup over ssh, or
// the job script submitted with sbatch), the run folder's record written (remote.json), then the
// far side's run folder mirrored into the local one every few seconds, so the plots, the ETA,
// Stop and the predictions work as for a run trained here. The commands are
// remote::RemoteCommands', run as processes (ssh, rsync): nothing home-made.
// Requirements: GUI thread; one run per object at a time.
// Guarantees: never blocks. A dropped connection while the run trains is said
//   (connectionChanged) and retried (2 s, doubling up to 30 s); it never stops the run there,
//   which stops only through stop() (SIGTERM, or scancel: the trainer writes its checkpoint) or by
//   itself. finished() comes once per start() or attach(): when the start failed (nothing runs
//   there), or when the run there has ended and its last files are home (ok when it finished).
//   Destroying it (the window closes) leaves the run there training; attach() picks it up again.
class RemoteTrainer : public QObject {
    Q_OBJECT

public:
    explicit RemoteTrainer(QObject* parent = nullptr);
    ~RemoteTrainer() override;

    // trainArguments: segstudio-train's arguments naming the far side's run folder
    // (remote::RemoteCommands::remoteRunDir of the local run folder's name) and its packs there.
    void start(const QString& localRunDir, const remote::RemoteTarget& target, const QStringList& trainArguments);
    // Follows the run recorded in localRunDir's remote.json; false (nothing emitted) without one.
    bool attach(const QString& localRunDir);
    // Trains the run recorded in localRunDir's remote.json again there, from its last.pt there
    // (TrainerArguments::resume of the run folder there); the record takes the new pid or job.
    // False (nothing emitted) without a record, or while active.
    bool resume(const QString& localRunDir, int epochs, int minutes);
    static std::optional<remote::RemoteRunRecord> recordOf(const QString& localRunDir);
    bool isActive() const { return m_step != Step::Idle; }
    bool isTraining() const { return isActive() && m_record.has_value(); }  // started there
    QString runDirectory() const { return m_localRunDir; }
    std::optional<remote::RemoteRunRecord> record() const { return m_record; }

    // Idempotent while the request is on its way. While the trainer there is being started, it
    // is stopped as soon as its pid or job is known. A stop that cannot reach the far side while
    // the link is down ends the following (finished(), the run may go on there; attach() again).
    void stop();
    bool isStopping() const { return m_stopping; }
    bool stopAfterEpoch();  // false unless the trainer runs there
    void setMirrorInterval(int milliseconds) { m_interval = milliseconds; }

    // The far side's run folder for a local run folder (its name under the target's folder).
    static QString remoteRunDirFor(const remote::RemoteTarget& target, const QString& localRunDir);

signals:
    void output(const QString& text);
    void started(const QString& where);  // the trainer runs there: "pid 4711 on gpu1", "SLURM job 42 via login"
    void connectionChanged(bool connected, const QString& message);
    void finished(bool ok, const QString& message);

private:
    enum class Step { Idle, MakeDir, Send, Start, MirrorLogs, MirrorFiles, Status, Wait };
    void runStep(Step step);
    void run(const remote::RemoteCommands::Command& command, const QByteArray& input = {});
    void stepFinished(int exitCode, QProcess::ExitStatus status);
    void trainerStarted(const QString& printed);
    void lostConnection(const QString& why);
    void nextRound();
    void finishFromRecords();
    void finish(bool ok, const QString& message);
    void control(const std::string& remoteCommand, const QString& what, bool isStop);
    void controlFinished(int exitCode, QProcess::ExitStatus status);
    void sendStop();
    static QString lastLine(const QString& printed);
    QString lastErrorLine() const;

    QProcess* m_process;
    QProcess* m_control;  // stop / stop after epoch, beside the mirror
    QTimer m_wait;
    Step m_step = Step::Idle;
    QString m_localRunDir;
    remote::RemoteTarget m_target;
    QString m_remoteRunDir;
    QStringList m_trainArguments;
    std::optional<remote::RemoteRunRecord> m_record;
    bool m_ended = false;      // the run there has ended: this round's mirror is the last
    bool m_connected = true;
    bool m_stopping = false;
    bool m_stopQueued = false;     // Stop asked while another control command was on its way
    bool m_controlIsStop = false;  // the control command on its way is the stop
    int m_failures = 0;        // mirror rounds in a row that could not reach the far side
    int m_interval = 2000;
    QByteArray m_errors;       // the current command's standard error
};

}  // namespace segstudio::ui::training
