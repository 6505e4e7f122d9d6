#pragma once

#include "TrainerProcess.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

namespace segstudio::enginetest {

// A one-node SLURM cluster (munged, slurmctld, slurmd on localhost) living in a folder of its own,
// started by tests/engine/cluster/one-node-slurm.sh (SEGSTUDIO_ONE_NODE_SLURM) and stopped again
// in the destructor. Clients find it through SLURM_CONF=FOLDER/slurm.conf alone.
class OneNodeSlurm {
public:
    explicit OneNodeSlurm(const QString& folder) : m_folder(folder) {}
    ~OneNodeSlurm()
    {
        if (m_started)
            run(QStringLiteral(SEGSTUDIO_ONE_NODE_SLURM), {QStringLiteral("stop"), m_folder});
    }
    // What the SLURM tests need here, or why they cannot run (empty: all there).
    static QString missing()
    {
        for (const QString& program : {QStringLiteral("munged"), QStringLiteral("slurmctld"), QStringLiteral("slurmd"),
                                       QStringLiteral("srun"), QStringLiteral("sbatch"), QStringLiteral("scancel")})
            if (QStandardPaths::findExecutable(program, {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"),
                                                         QStringLiteral("/sbin"), QStringLiteral("/bin")})
                    .isEmpty())
                return program + QStringLiteral(" is not installed (Debian: apt install slurmctld slurmd slurm-client "
                                                "munge; packaging/install-deps.sh does)");
        return {};
    }
    // Empty when the cluster is up, else why not.
    QString start()
    {
        QString said;
        const int code = run(QStringLiteral(SEGSTUDIO_ONE_NODE_SLURM), {QStringLiteral("start"), m_folder}, &said);
        m_started = true;  // a half-started cluster is stopped too
        return code == 0 ? QString() : said.trimmed();
    }
    QString configFile() const { return m_folder + QStringLiteral("/slurm.conf"); }
    // A SLURM command (srun, sbatch, scancel, scontrol) against this cluster.
    QProcess* command(QObject* parent, const QString& program, const QStringList& arguments) const
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("SLURM_CONF"), configFile());
        return startTrainer(parent, program, arguments, environment);
    }
    // `scontrol show job`'s JobState of a job ("RUNNING", "COMPLETED", "CANCELLED", ...).
    QString jobState(const QString& job) const
    {
        QProcess scontrol;
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("SLURM_CONF"), configFile());
        scontrol.setProcessEnvironment(environment);
        scontrol.start(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("job"), job});
        scontrol.waitForFinished(30000);
        const auto match = QRegularExpression(QStringLiteral("JobState=(\\w+)")).match(QString::fromUtf8(scontrol.readAll()));
        return match.hasMatch() ? match.captured(1) : QString();
    }

private:
    static int run(const QString& program, const QStringList& arguments, QString* output = nullptr)
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(program, arguments);
        if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit)
            return -1;
        if (output)
            *output = QString::fromLocal8Bit(process.readAll());
        return process.exitCode();
    }

    QString m_folder;
    bool m_started = false;
};

}  // namespace segstudio::enginetest
