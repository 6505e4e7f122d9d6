#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace segstudio::ui::common {

// segstudio-train as a child process: the one place the GUI starts it (training, packing, the
// live fine-tune, predictions, evaluation, the ONNX model export, the model and device
// catalogues). It finds the program, starts it asynchronously, passes its output on as it comes,
// keeps the last lines, and turns how it ended into one message per outcome (run::ExitCode:
// stopped, diverged, a hung data-parallel rank, a busy run folder, a failure with
// segstudio-train's own error line).
// Requirements: GUI thread; one process at a time per object (start() refuses while running).
// Guarantees: never blocks except in waitForFinished() and on destruction (kill and wait: a
//   running process is killed unless release() let it go, so a trainer the user keeps must be
//   released, never destroyed); finished() comes once per successful start(), also when it
//   could not start.
class TrainerProcess : public QObject {
    Q_OBJECT

public:
    // How the child runs: in the GUI's session (ended with it), in a session of its own (a
    // training the user may keep after the window closes: no hangup or terminal signal meant for
    // the GUI reaches it), or at the lowest CPU priority (background work that must never slow
    // labeling down).
    enum class Launch { Attached, OwnSession, LowestPriority };

    struct Exit {
        bool ok = false;
        int code = -1;             // the exit code; -1 when it crashed or never started
        bool stopped = false;      // exit 130: ended on request, its checkpoint written
        bool crashed = false;      // killed by a signal (also by kill())
        bool failedToStart = false;
        QString message;           // for the user: what happened, and what to do
    };

    explicit TrainerProcess(QObject* parent = nullptr);
    ~TrainerProcess() override;

    // segstudio-train next to the GUI (build tree: ../segstudio-train/, install: same folder),
    // else on PATH; empty when there is none.
    static QString find();
    // What an exit means for the user, from the subcommand ("train", "pack", "predict", ...), the
    // exit status and code, and the output's last lines (segstudio-train's error line names the
    // file and the problem).
    static Exit describe(const QString& subcommand, QProcess::ExitStatus status, int exitCode, const QString& tail);
    // The error line of an output: "segstudio-train: <file>: <problem>" without the prefix, else
    // the last line.
    static QString errorLine(const QString& tail);
    static QString notFoundMessage();  // what to say when find() found nothing

    void setProgram(const QString& program) { m_program = program; }
    QString program() const { return m_program; }
    void setLaunch(Launch launch) { m_launch = launch; }
    // Standard output kept apart from the log (a catalogue's JSON, read by standardOutput()
    // once finished); by default both channels are one stream, passed on by output().
    void setSeparateChannels(bool separate) { m_separate = separate; }

    // false, with nothing emitted, while running or without a program (notFoundMessage()).
    bool start(const QStringList& arguments);
    bool isRunning() const;
    qint64 processId() const;
    QString commandLine() const { return m_commandLine; }  // "segstudio-train train ...", for logs
    QString tail() const { return m_tail; }                // the last output (a few KB)
    QByteArray standardOutput() const { return m_standardOutput; }

    void terminate();          // SIGTERM: the trainer checkpoints and exits 130
    bool stopAfterEpoch();     // SIGUSR1: the trainer ends its epoch first; false unless running
    void kill();               // SIGKILL and wait: for work that is cheap to redo
    bool waitForFinished(int milliseconds);
    // Lets a running process go: it is neither killed nor waited for, and reports nothing more.
    void release();

signals:
    void output(const QString& text);
    void finished(const TrainerProcess::Exit& exit);

private:
    void readOutput();
    void processFinished(int exitCode, QProcess::ExitStatus status);

    QProcess* m_process;
    QString m_program;
    Launch m_launch = Launch::Attached;
    bool m_separate = false;
    QString m_subcommand;
    QString m_commandLine;
    QString m_tail;
    QByteArray m_standardOutput;
};

}  // namespace segstudio::ui::common
