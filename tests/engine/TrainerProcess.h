#pragma once

#include <QObject>
#include <QProcess>
#include <QStringList>

namespace segstudio::enginetest {

// segstudio-train as a user starts it, one compute thread (tests run beside each other on two
// cores), stdout and stderr merged, with `extra` added to the environment; owned by parent.
inline QProcess* startTrainer(QObject* parent, const QString& program, const QStringList& arguments,
                              const QProcessEnvironment& extra = {})
{
    auto* process = new QProcess(parent);
    process->setProcessChannelMode(QProcess::MergedChannels);
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    environment.insert(extra);
    process->setProcessEnvironment(environment);
    process->start(program, arguments);
    return process;
}

}  // namespace segstudio::enginetest
