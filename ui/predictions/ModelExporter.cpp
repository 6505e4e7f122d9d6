#include "ModelExporter.h"

#include "common/RunLayoutOf.h"
#include "common/TrainerProcess.h"
#include "run/RunProgress.h"
#include "run/RunState.h"

#include <QFileInfo>

#include <QRegularExpression>

namespace segstudio::ui::predictions {

ModelExporter::ModelExporter(QObject* parent) : QObject(parent), m_process(new common::TrainerProcess(this))
{
    // Standard output holds the summary ("wrote first.onnx: …, 11 classes"); the error stream the
    // warnings and the error, which the user is shown as they are.
    m_process->setSeparateChannels(true);
    connect(m_process, &common::TrainerProcess::finished, this, [this](const common::TrainerProcess::Exit& exit) {
        const QString details = m_process->tail().trimmed();
        if (!exit.ok) {
            emit finished(false, exit.message, details);
            return;
        }
        const QStringList lines = QString::fromLocal8Bit(m_process->standardOutput())
                                      .split(QRegularExpression(QStringLiteral("[\r\n]")), Qt::SkipEmptyParts);
        const QString summary = lines.isEmpty() ? tr("Exported the model to %1").arg(m_file)
                                                : tr("Exported the model: %1").arg(lines.last().trimmed());
        emit finished(true, summary, details);
    });
}

QStringList ModelExporter::arguments(const QString& checkpoint, const QString& onnxFile, const QString& projectFile)
{
    QStringList arguments{QStringLiteral("export-model"), QStringLiteral("-c"), checkpoint, QStringLiteral("-o"),
                          onnxFile};
    if (!projectFile.isEmpty())
        arguments << QStringLiteral("-P") << projectFile;
    return arguments;
}

QString ModelExporter::stillTrainingWarning(const QString& runDir)
{
    if (runDir.isEmpty())
        return {};
    const auto progress = run::RunProgress::read(common::layoutOf(runDir).metricsFile());
    if (!progress.hasRunInfo() || run::isEnded(progress.state()))
        return {};
    QString best;
    if (const auto mIoU = progress.bestMeanIoU())
        best = tr(" (val mIoU %1 at epoch %2)").arg(*mIoU, 0, 'f', 3).arg(progress.bestEpoch());
    return tr("%1 is still training (epoch %2 of %3): the export takes its best checkpoint so far%4, and the run may "
              "yet write a better one. Export when it has finished for its final model.")
        .arg(QFileInfo(runDir).fileName())
        .arg(progress.epoch())
        .arg(progress.plannedEpochs())
        .arg(best);
}

void ModelExporter::setTrainer(const QString& program) { m_process->setProgram(program); }
QString ModelExporter::trainer() const { return m_process->program(); }

bool ModelExporter::start(const QString& checkpoint, const QString& onnxFile, const QString& projectFile)
{
    if (isRunning() || checkpoint.isEmpty() || onnxFile.isEmpty())
        return false;
    m_file = onnxFile;
    return m_process->start(arguments(checkpoint, onnxFile, projectFile));
}

bool ModelExporter::isRunning() const { return m_process->isRunning(); }
QString ModelExporter::commandLine() const { return m_process->commandLine(); }

}  // namespace segstudio::ui::predictions
