#include "PredictionsDock.h"

#include "ImageListModel.h"
#include "ProcessLog.h"
#include "TrainingLauncher.h"
#include "data/Project.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace segstudio::ui {

PredictionsDock::PredictionsDock(QWidget* parent)
    : QWidget(parent), m_program(TrainingLauncher::findTrainer()), m_process(new QProcess(this)),
      m_scoring(new QFutureWatcher<std::vector<data::PredictionScore>>(this)),
      m_predictButton(new QPushButton(tr("&Predict Validation Images"), this)), m_status(new QLabel(this)),
      m_log(new QPlainTextEdit(this))
{
    m_predictButton->setToolTip(tr("Label the val images with the selected run's best checkpoint and score each "
                                   "against its label map (IoU column of the dataset list)"));
    m_status->setWordWrap(true);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(m_predictButton);
    row->addWidget(m_status, 1);
    layout->addLayout(row);
    layout->addWidget(m_log, 1);

    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::readyRead, this,
            [this] { appendProcessOutput(m_log, QString::fromLocal8Bit(m_process->readAll())); });
    connect(m_process, &QProcess::finished, this, &PredictionsDock::processFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(false, tr("Cannot start %1: %2").arg(m_program, m_process->errorString()));
    });
    connect(m_scoring, &QFutureWatcherBase::finished, this, &PredictionsDock::scoringFinished);
    connect(m_predictButton, &QPushButton::clicked, this, &PredictionsDock::predictValidation);
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
    ++m_generation;
    updateButtons();
    scoreExistingPredictions();
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

QString PredictionsDock::predictionsFolder() const
{
    return m_runDir.isEmpty() ? QString() : QDir(m_runDir).filePath(QStringLiteral("predictions"));
}

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
    QStringList arguments{QStringLiteral("predict"), QStringLiteral("-c"), m_runDir, QStringLiteral("-o"),
                          predictionsFolder(), QStringLiteral("-P"), QString::fromStdString(m_project->file().string())};
    for (const std::size_t index : m_indices)
        arguments << QString::fromStdString(m_project->imagePath(index).string());
    m_jobGeneration = m_generation;
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
    if (m_program.isEmpty())
        m_status->setText(tr("segstudio-train was not found next to the application or on PATH"));
}

}  // namespace segstudio::ui
