#include "PredictionsDock.h"

#include "ImageListModel.h"
#include "PredictionService.h"
#include "ProcessLog.h"
#include "TrainingLauncher.h"
#include "data/PredictionCache.h"
#include "data/Project.h"
#include "run/RunLayout.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace segstudio::ui {

PredictionsDock::PredictionsDock(QWidget* parent)
    : QWidget(parent), m_program(TrainingLauncher::findTrainer()), m_process(new QProcess(this)),
      m_scoring(new QFutureWatcher<std::vector<data::PredictionScore>>(this)),
      m_predictButton(new QPushButton(tr("&Predict Validation Images"), this)),
      m_cancelButton(new QPushButton(tr("Cancel"), this)), m_checkpoint(new QComboBox(this)),
      m_service(new PredictionService(this)), m_status(new QLabel(this)), m_log(new QPlainTextEdit(this))
{
    m_service->setTrainer(m_program);
    m_checkpoint->addItem(tr("Best checkpoint"), QStringLiteral("best"));
    m_checkpoint->addItem(tr("Last checkpoint"), QStringLiteral("last"));
    m_checkpoint->setToolTip(tr("The checkpoint whose predictions the editor shows and the browser scores"));
    m_predictButton->setToolTip(tr("Label the val images with the selected run's best checkpoint and score each "
                                   "against its label map (IoU column of the dataset list)"));
    m_status->setWordWrap(true);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(m_checkpoint);
    row->addWidget(m_predictButton);
    row->addWidget(m_cancelButton);
    row->addWidget(m_status, 1);
    layout->addLayout(row);
    layout->addWidget(m_log, 1);

    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::readyRead, this, [this] {
        const QString text = QString::fromLocal8Bit(m_process->readAll());
        appendProcessOutput(m_log, text);
        showProgress(text);
    });
    connect(m_process, &QProcess::finished, this, &PredictionsDock::processFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(false, tr("Cannot start %1: %2").arg(m_program, m_process->errorString()));
    });
    connect(m_scoring, &QFutureWatcherBase::finished, this, &PredictionsDock::scoringFinished);
    connect(m_predictButton, &QPushButton::clicked, this, &PredictionsDock::predictValidation);
    connect(m_cancelButton, &QPushButton::clicked, this, &PredictionsDock::cancel);
    connect(m_checkpoint, &QComboBox::currentIndexChanged, this, &PredictionsDock::checkpointChanged);
    updateButtons();
}

PredictionsDock::~PredictionsDock()
{
    m_process->disconnect(this);
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();  // predictions are cheap to redo
        m_process->waitForFinished(2000);
    }
    m_scoring->disconnect(this);
    m_scoring->waitForFinished();  // it works on its own copy of the project
}

void PredictionsDock::setProject(const data::Project* project, ImageListModel* model)
{
    m_project = project;
    m_model = model;
    m_service->setProject(project);
    ++m_generation;
    m_status->clear();
    m_log->clear();  // the last project's run is no business of this one
    updateButtons();
    scoreExistingPredictions();
}

void PredictionsDock::setRunDirectory(const QString& runDir)
{
    if (runDir == m_runDir)
        return;
    m_runDir = runDir;
    checkpointChanged();
}

void PredictionsDock::checkpointChanged()
{
    ++m_generation;
    m_service->setCheckpoint(m_runDir, checkpointFile());
    updateButtons();
    scoreExistingPredictions();
}

QString PredictionsDock::checkpointFile() const
{
    if (m_runDir.isEmpty())
        return {};
    const run::RunLayout layout(m_runDir.toStdString());
    const auto file = m_checkpoint->currentData().toString() == QStringLiteral("last") ? layout.lastCheckpoint()
                                                                                      : layout.checkpointToUse();
    return QString::fromStdString(file.string());
}

void PredictionsDock::showProgress(const QString& output)
{
    // segstudio-train predict prints "predicted i/n <image>" after each image.
    m_outputTail = (m_outputTail + output).right(512);
    static const QRegularExpression line(QStringLiteral("predicted (\\d+)/(\\d+)"));
    QRegularExpressionMatch last;
    for (auto it = line.globalMatch(m_outputTail); it.hasNext();)
        last = it.next();
    if (last.hasMatch())
        m_status->setText(tr("Predicting: %1 of %2 images…").arg(last.captured(1), last.captured(2)));
}

void PredictionsDock::cancel()
{
    if (m_process->state() == QProcess::NotRunning)
        return;
    ++m_generation;  // what it wrote stays in the cache; the scores of this job are not wanted
    m_process->kill();
}

void PredictionsDock::scoreExistingPredictions()
{
    // Another run's (or project's) IoUs must not stay in the browser; this run's predictions
    // from an earlier session come back, so the IoU column and sort survive a restart.
    // Only rows that have one: each change re-sorts a proxy sorted by IoU.
    if (m_model && m_model->hasIoU())
        for (int row = 0; row < m_model->rowCount(); ++row)
            if (m_model->data(m_model->index(row, 0), ImageListModel::IoURole).toDouble() >= 0.0)
                m_model->setIoU(row, std::nullopt);
    if (!m_project || !m_model || m_runDir.isEmpty() || isBusy() || !QDir(predictionsFolder()).exists())
        return;
    // Predictions of an earlier state of the checkpoint are not this model's.
    if (!data::PredictionCache(m_runDir.toStdString(), checkpointFile().toStdString()).isCurrent())
        return;
    m_indices = m_project->indicesOf(data::Split::Val);
    if (m_indices.empty())
        return;
    m_jobGeneration = m_generation;
    m_status->setText(tr("Reading the predictions of %1…").arg(QFileInfo(m_runDir).fileName()));
    scoreInBackground();
}

void PredictionsDock::scoreInBackground()
{
    // A copy: the scoring thread must not read the live project while the user edits it.
    m_scoring->setFuture(QtConcurrent::run(
        [project = *m_project, dir = std::filesystem::path(predictionsFolder().toStdString()), indices = m_indices] {
            return data::scorePredictions(project, dir, indices);
        }));
    updateButtons();
}

void PredictionsDock::setTrainer(const QString& program)
{
    m_program = program;
    updateButtons();
}

bool PredictionsDock::isBusy() const { return m_process->state() != QProcess::NotRunning || m_scoring->isRunning(); }

QString PredictionsDock::predictionsFolder() const { return m_service->cacheFolder(); }

QString PredictionsDock::statusText() const { return m_status->text(); }

bool PredictionsDock::predictValidation()
{
    if (isBusy() || !m_project || m_runDir.isEmpty() || m_program.isEmpty())
        return false;
    m_indices = m_project->indicesOf(data::Split::Val);
    if (m_indices.empty()) {
        m_status->setText(tr("The project has no validation images."));
        return false;
    }
    try {
        data::PredictionCache(m_runDir.toStdString(), checkpointFile().toStdString()).prepare();
    } catch (const std::exception& error) {
        m_status->setText(QString::fromStdString(error.what()));
        return false;
    }
    const QStringList arguments{QStringLiteral("predict"), QStringLiteral("-c"), checkpointFile(), QStringLiteral("-o"),
                                predictionsFolder(), QStringLiteral("-P"), QString::fromStdString(m_project->file().string()),
                                QStringLiteral("-s"), QStringLiteral("val"), QStringLiteral("--confidence"),
                                QStringLiteral("--no-overlay")};
    m_jobGeneration = m_generation;
    m_outputTail.clear();
    m_log->clear();
    m_log->appendPlainText(QStringLiteral("$ %1 predict -c %2 -o %3 … (%4 images)\n")
                               .arg(QFileInfo(m_program).fileName(), m_runDir, predictionsFolder())
                               .arg(m_indices.size()));
    m_status->setText(tr("Predicting %n image(s)…", nullptr, int(m_indices.size())));
    m_process->start(m_program, arguments);
    updateButtons();
    return true;
}

void PredictionsDock::processFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_jobGeneration != m_generation && status != QProcess::NormalExit) {
        finish(false, tr("Cancelled; the images predicted so far are kept for the editor."));
        return;
    }
    if (status != QProcess::NormalExit || exitCode != 0) {
        finish(false, tr("segstudio-train predict failed (exit code %1); see the log.").arg(exitCode));
        return;
    }
    if (m_jobGeneration != m_generation || !m_project) {
        finish(false, tr("The project or run changed; predictions not scored."));
        return;
    }
    m_status->setText(tr("Scoring…"));
    scoreInBackground();
}

void PredictionsDock::scoringFinished()
{
    if (m_jobGeneration != m_generation) {
        finish(false, tr("The project or run changed; scores dropped."));
        scoreExistingPredictions();  // the run in view now may have predictions of its own
        return;
    }
    const auto scores = m_scoring->result();
    applyScores(scores);
    int scored = 0;
    double sum = 0.0;
    for (const auto& score : scores) {
        if (score.iou) {
            ++scored;
            sum += *score.iou;
        }
        if (!score.problem.empty())
            m_log->appendPlainText(QString::fromStdString(score.problem));
    }
    finish(true, scored == 0 ? tr("No labelled validation image to score.")
                             : tr("Mean IoU over %n labelled validation image(s): %1", nullptr, scored)
                                   .arg(sum / scored, 0, 'f', 3));
}

void PredictionsDock::applyScores(const std::vector<data::PredictionScore>& scores)
{
    if (!m_model)
        return;
    for (const auto& score : scores)
        if (int(score.index) < m_model->rowCount())
            m_model->setIoU(int(score.index), score.iou);
}

void PredictionsDock::finish(bool ok, const QString& message)
{
    m_status->setText(message);
    updateButtons();
    emit finished(ok, message);
}

void PredictionsDock::updateButtons()
{
    const bool ready = m_project && !m_runDir.isEmpty() && !m_program.isEmpty() && !isBusy();
    m_predictButton->setEnabled(ready);
    m_cancelButton->setEnabled(m_process->state() != QProcess::NotRunning);
    if (m_program.isEmpty())
        m_status->setText(tr("segstudio-train was not found next to the application or on PATH"));
}

}  // namespace segstudio::ui
