#include "PredictionsDock.h"

#include "AdaptationSentence.h"

#include "document/WorkerPool.h"

#include "document/ProjectDocument.h"

#include "EvaluationReportView.h"
#include "LiveClassifier.h"
#include "ModelExporter.h"
#include "PredictionService.h"
#include "common/ProcessLog.h"
#include "common/TrainerArguments.h"
#include "data/project/PredictionCache.h"
#include "metrics/EvaluationReportFiles.h"
#include "run/FileError.h"
#include "data/project/Project.h"
#include "run/RunLayout.h"

#include <QAction>
#include <QUrl>
#include <QSignalBlocker>
#include <QSettings>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QMessageBox>
#include <QSpinBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace segstudio::ui::predictions {

namespace {

// Where "Adapt the model when this project's images are of another kind" is remembered: one key per project file.
QString adaptationKey(const data::Project& project)
{
    return QStringLiteral("predictions/adaptToProject/") +
           QString::fromLatin1(QUrl::toPercentEncoding(QFileInfo(QString::fromStdString(project.file().string())).absoluteFilePath()));
}

}  // namespace

PredictionsDock::PredictionsDock(QWidget* parent)
    : QWidget(parent), m_process(new common::TrainerProcess(this)),
      m_scoring(new QFutureWatcher<std::vector<data::PredictionScore>>(this)),
      m_predictButton(new QPushButton(tr("&Predict Validation Images"), this)),
      m_cancelButton(new QPushButton(tr("Cancel"), this)), m_evaluateButton(new QPushButton(tr("&Evaluate…"), this)),
      m_reportWindow(new QWidget(this, Qt::Window)), m_reportView(new EvaluationReportView(m_reportWindow)),
      m_checkpoint(new QComboBox(this)), m_split(new QComboBox(this)), m_suspectConfidence(new QSpinBox(this)),
      m_suspectArea(new QDoubleSpinBox(this)), m_suspects(new QListWidget(this)), m_suspectSummary(new QLabel(this)),
      m_service(new PredictionService(this)), m_modelExporter(new ModelExporter(this)),
      m_exportModelAction(new QAction(tr("Trained Model as &ONNX…"), this)),
      m_learnAsILabel(new QCheckBox(tr("Predict as I &label: the model learns from my labels every"), this)),
      m_learnInterval(new QSpinBox(this)), m_learnStatus(new QLabel(this)), m_live(new LiveClassifier(this)),
      m_learnFromStrokes(new QCheckBox(tr("Learn from my &strokes while no run's model is in use"), this)),
      m_adapt(new QCheckBox(tr("&Adapt the model when this project's images are of another kind"), this)),
      m_status(new QLabel(this)), m_log(new QPlainTextEdit(this))
{
    m_service->setTrainer(m_process->program());
    m_modelExporter->setTrainer(m_process->program());
    configureParts();
    layOut();
    connectParts();
    updateButtons();
}

// Names, ranges, texts and tooltips.
void PredictionsDock::configureParts()
{
    m_exportModelAction->setObjectName(QStringLiteral("exportModel"));
    m_exportModelAction->setToolTip(tr("Write the selected run's chosen checkpoint as an ONNX file (for OpenCV, ONNX Runtime, "
                                       "TensorRT), as segstudio-train export-model does"));
    m_learnAsILabel->setToolTip(tr("After every few newly labelled training images, the selected run's model is fine-tuned "
                                   "on all labelled training images at low priority (never while you train), into "
                                   "runs/<run>-live; the editor's predictions and the smart click then use it"));
    m_learnInterval->setRange(1, 1000);
    m_learnInterval->setValue(10);
    m_learnInterval->setSuffix(tr(" labelled images"));
    m_learnStatus->setWordWrap(true);
    m_checkpoint->addItem(tr("Best checkpoint"), QStringLiteral("best"));
    m_checkpoint->addItem(tr("Last checkpoint"), QStringLiteral("last"));
    m_checkpoint->setToolTip(tr("The checkpoint whose predictions the editor shows and the browser scores"));
    m_predictButton->setText(tr("&Predict"));
    m_predictButton->setToolTip(tr("Predict the images with the chosen checkpoint (in the background; the editor shows them "
                                   "at once afterwards) and score each against its label map: the browser's IoU, BF, "
                                   "pixels wrong, uncertainty (labeling queue, Q) and suspect columns"));
    m_evaluateButton->setToolTip(tr("Score the chosen checkpoint on the validation images: accuracy, IoU and BF score "
                                    "per class, confusion matrix (as MATLAB's evaluateSemanticSegmentation)"));
    m_reportWindow->setWindowTitle(tr("Evaluation report"));
    (new QVBoxLayout(m_reportWindow))->addWidget(m_reportView);
    m_reportWindow->resize(1000, 560);
    m_split->addItem(tr("Validation images"), QStringLiteral("val"));
    m_split->addItem(tr("All images"), QStringLiteral("all"));
    m_suspectConfidence->setRange(50, 100);
    m_suspectConfidence->setValue(90);
    m_suspectConfidence->setPrefix(tr("sure ≥ "));
    m_suspectConfidence->setSuffix(tr(" %"));
    m_suspectArea->setRange(0.1, 100.0);
    m_suspectArea->setDecimals(1);
    m_suspectArea->setValue(5.0);
    m_suspectArea->setPrefix(tr("over ≥ "));
    m_suspectArea->setSuffix(tr(" % of the labels"));
    m_suspects->setToolTip(tr("Images where a confident prediction disagrees with the labels: likely labeling mistakes. "
                              "Click one to open it with the error map."));
    m_suspectSummary->setObjectName(QStringLiteral("suspectSummary"));
    m_suspects->setObjectName(QStringLiteral("suspectList"));
    m_log->setObjectName(QStringLiteral("predictionsLog"));
    m_learnStatus->setObjectName(QStringLiteral("learnStatus"));
    m_learnFromStrokes->setObjectName(QStringLiteral("learnFromStrokes"));
    m_live->setObjectName(QStringLiteral("liveClassifier"));
    m_learnFromStrokes->setChecked(true);
    m_learnFromStrokes->setToolTip(tr("Before any run is trained (or with none chosen): a pixel classifier learns from the "
                                      "labels of this project as you paint and predicts the open image, the prediction "
                                      "layer and the model under Smart Click and Accept Prediction"));
    m_adapt->setObjectName(QStringLiteral("adaptToProject"));
    m_adapt->setToolTip(tr("On by default. Before it predicts, the model looks at 16 of this project's images: where they "
                           "are of another kind than the run trained on (dusk, another camera), its batch norms are "
                           "estimated on them (no labels, no training); images like its training images are predicted "
                           "as trained. On CamVid at dusk it took the model from a third to four fifths of the pixels "
                           "right. The first prediction after a change of images takes a second or two more; the next ones "
                           "reuse what it found (kept in the prediction cache). The predictions so far are made again."));
    m_suspectSummary->setWordWrap(true);
    m_status->setWordWrap(true);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
}

void PredictionsDock::layOut()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(m_checkpoint);
    row->addWidget(m_split);
    row->addWidget(m_predictButton);
    row->addWidget(m_cancelButton);
    row->addWidget(m_evaluateButton);
    row->addWidget(m_status, 1);
    layout->addLayout(row);
    auto* learning = new QHBoxLayout;
    learning->addWidget(m_learnAsILabel);
    learning->addWidget(m_learnInterval);
    learning->addWidget(m_learnStatus, 1);
    layout->addLayout(learning);
    layout->addWidget(m_learnFromStrokes);
    layout->addWidget(m_adapt);
    auto* body = new QHBoxLayout;
    body->addWidget(m_log, 3);
    auto* suspects = new QVBoxLayout;
    auto* thresholds = new QHBoxLayout;
    thresholds->addWidget(new QLabel(tr("Suspect labels:"), this));
    thresholds->addWidget(m_suspectConfidence);
    thresholds->addWidget(m_suspectArea);
    suspects->addLayout(thresholds);
    suspects->addWidget(m_suspects, 1);
    suspects->addWidget(m_suspectSummary);
    body->addLayout(suspects, 2);
    layout->addLayout(body, 1);
}

void PredictionsDock::connectParts()
{
    connect(m_process, &common::TrainerProcess::output, this, [this](const QString& text) {
        common::appendProcessOutput(m_log, text);
        if (const QString said = AdaptationSentence::from(text); !said.isEmpty())
            m_adaptationSaid = said;
        showProgress();
    });
    connect(m_process, &common::TrainerProcess::finished, this, &PredictionsDock::processFinished);
    connect(m_scoring, &QFutureWatcherBase::finished, this, &PredictionsDock::scoringFinished);
    connect(m_predictButton, &QPushButton::clicked, this, &PredictionsDock::predictValidation);
    connect(m_cancelButton, &QPushButton::clicked, this, &PredictionsDock::cancel);
    connect(m_evaluateButton, &QPushButton::clicked, this, &PredictionsDock::evaluate);
    connect(m_checkpoint, &QComboBox::currentIndexChanged, this, &PredictionsDock::checkpointChanged);
    // A new confidence threshold needs the maps read again; a new area only filters the list.
    connect(m_suspectConfidence, &QSpinBox::valueChanged, this, &PredictionsDock::scoreExistingPredictions);
    connect(m_suspectArea, &QDoubleSpinBox::valueChanged, this, &PredictionsDock::listSuspects);
    connect(m_suspects, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { emit openImageRequested(std::size_t(item->data(Qt::UserRole).toULongLong())); });
    const auto learnChanged = [this] { emit learnAsILabelChanged(m_learnAsILabel->isChecked(), m_learnInterval->value()); };
    connect(m_learnAsILabel, &QCheckBox::toggled, this, learnChanged);
    connect(m_adapt, &QCheckBox::toggled, this, &PredictionsDock::adaptationChanged);
    connect(m_learnInterval, &QSpinBox::valueChanged, this, learnChanged);
    connect(m_service, &PredictionService::predictionReady, this, &PredictionsDock::predictionReady);
    connect(m_live, &LiveClassifier::predictionReady, this, &PredictionsDock::predictionReady);
    connect(m_live, &LiveClassifier::status, this, &PredictionsDock::liveClassifierStatus);
    connect(m_learnFromStrokes, &QCheckBox::toggled, m_live, &LiveClassifier::setEnabled);
    connect(m_service, &PredictionService::problem, this, &PredictionsDock::predictionProblem);
    connect(m_service, &PredictionService::adaptationSaid, this, &PredictionsDock::predictionSaid);
    connect(m_service, &PredictionService::checkpointChanged, this, &PredictionsDock::predictionCheckpointChanged);
    connect(m_exportModelAction, &QAction::triggered, this, &PredictionsDock::askAndExportModel);
    connect(m_modelExporter, &ModelExporter::finished, this, &PredictionsDock::modelExportFinished);
}

PredictionsDock::~PredictionsDock()
{
    m_process->disconnect(this);  // predictions are cheap to redo: killed with its object
    m_scoring->disconnect(this);
    m_scoring->waitForFinished();  // it works on its own copy of the project
}

void PredictionsDock::setDocument(const document::ProjectDocument* document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_project = document ? &document->project() : nullptr;
    m_service->setProject(m_project);
    m_live->setProject(m_project);
    {
        // The choice is the project's (its images are of one kind or another), kept across starts.
        const QSignalBlocker quiet(m_adapt);
        // On unless this project's person turned it off: it adapts only images of another kind.
        m_adapt->setChecked(m_project && QSettings().value(adaptationKey(*m_project), true).toBool());
        m_service->setAdaptation(m_adapt->isChecked());
    }
    if (document) {
        connect(document, &document::ProjectDocument::schemaChanged, m_live, &LiveClassifier::forget);
        connect(document, &document::ProjectDocument::entriesChanged, m_live, &LiveClassifier::forget);
    }
    if (document) {
        // Scores are kept per row: when rows come and go (or ids change meaning), score again.
        const auto rescore = [this] {
            ++m_generation;
            scoreExistingPredictions();
        };
        connect(document, &document::ProjectDocument::entriesChanged, this, rescore);
        connect(document, &document::ProjectDocument::schemaChanged, this, rescore);
    }
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
    m_live->setRunInUse(!runDir.isEmpty());
    checkpointChanged();
}

void PredictionsDock::reloadRun()
{
    ++m_generation;
    m_service->reload();
    updateButtons();
    scoreExistingPredictions();
}

void PredictionsDock::checkpointChanged()
{
    ++m_generation;
    m_service->setCheckpoint(m_runDir, checkpointFile());
    updateButtons();
    scoreExistingPredictions();
    restoreSavedReport();
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

void PredictionsDock::showProgress()
{
    // segstudio-train predict prints "predicted i/n <image>" after each image.
    static const QRegularExpression line(QStringLiteral("(?:predicted|evaluated) (\\d+)/(\\d+)"));
    QRegularExpressionMatch last;
    for (auto it = line.globalMatch(m_process->tail().right(512)); it.hasNext();)
        last = it.next();
    if (last.hasMatch())
        m_status->setText((m_evaluating ? tr("Evaluating: %1 of %2 images…") : tr("Predicting: %1 of %2 images…"))
                              .arg(last.captured(1), last.captured(2)));
}

void PredictionsDock::cancel()
{
    if (!m_process->isRunning())
        return;
    ++m_generation;  // what it wrote stays in the cache; the scores of this job are not wanted
    m_process->kill();
}

void PredictionsDock::scoreExistingPredictions()
{
    // Another run's (or project's) scores must not stay in the browser; this run's predictions
    // from an earlier session come back, so the columns and sorts survive a restart.
    if (!m_lastScores.empty()) {
        m_lastScores.clear();
        emit scoresChanged(m_lastScores);
    }
    m_suspects->clear();
    m_suspectSummary->clear();
    if (!m_project || m_runDir.isEmpty() || isBusy() || !QDir(predictionsFolder()).exists())
        return;
    // Predictions of an earlier state of the checkpoint are not this model's.
    if (!data::PredictionCache(m_runDir.toStdString(), checkpointFile().toStdString()).isCurrent())
        return;
    m_indices.resize(m_project->size());
    std::iota(m_indices.begin(), m_indices.end(), std::size_t(0));
    if (m_indices.empty())
        return;
    m_jobGeneration = m_generation;
    m_status->setText(tr("Reading the predictions of %1…").arg(QFileInfo(m_runDir).fileName()));
    scoreInBackground();
}

void PredictionsDock::scoreInBackground()
{
    // A copy: the scoring thread must not read the live project while the user edits it.
    data::ScoringOptions options;
    options.suspectConfidence = (m_suspectConfidence->value() * 255 + 50) / 100;
    m_scoringUnderway = true;
    m_scoring->setFuture(QtConcurrent::run(
        document::workerPool(),
        [project = *m_project, cache = data::PredictionCache(m_runDir.toStdString(), checkpointFile().toStdString()),
         indices = m_indices, options] { return data::scorePredictions(project, cache, indices, options); }));
    updateButtons();
}

void PredictionsDock::setTrainer(const QString& program)
{
    m_process->setProgram(program);
    m_service->setTrainer(program);
    m_modelExporter->setTrainer(program);
    updateButtons();
}

bool PredictionsDock::exportModel(const QString& onnxFile)
{
    if (!m_project || m_runDir.isEmpty() || m_modelExporter->isRunning())
        return false;
    if (!m_modelExporter->start(checkpointFile(), onnxFile, QString::fromStdString(m_project->file().string()))) {
        m_status->setText(m_modelExporter->trainer().isEmpty() ? common::TrainerProcess::notFoundMessage()
                                                               : tr("The model export could not start."));
        return false;
    }
    m_log->appendPlainText(QStringLiteral("$ %1").arg(m_modelExporter->commandLine()));
    m_status->setText(tr("Exporting the model to %1…").arg(QDir::toNativeSeparators(onnxFile)));
    updateButtons();
    return true;
}

void PredictionsDock::askAndExportModel()
{
    const QString checkpoint = checkpointFile();
    if (!m_project || checkpoint.isEmpty() || !QFileInfo::exists(checkpoint)) {
        QMessageBox::information(window(), tr("Export model"),
                                 tr("The selected run has no checkpoint yet: select a trained run in the Training "
                                    "panel first."));
        return;
    }
    if (const QString warning = ModelExporter::stillTrainingWarning(m_runDir); !warning.isEmpty() &&
        QMessageBox::warning(window(), tr("Export model"), warning, QMessageBox::Ok | QMessageBox::Cancel, QMessageBox::Cancel) !=
            QMessageBox::Ok)
        return;
    const QString suggested = QDir(QString::fromStdString(m_project->root().string()))
                                  .filePath(QFileInfo(m_runDir).fileName() + QStringLiteral(".onnx"));
    QString file = QFileDialog::getSaveFileName(window(), tr("Export the trained model as ONNX"), suggested,
                                                tr("ONNX model (*.onnx)"));
    if (file.isEmpty())
        return;
    if (QFileInfo(file).suffix().isEmpty())
        file += QStringLiteral(".onnx");
    m_modelExportAsked = exportModel(file);
}

void PredictionsDock::modelExportFinished(bool ok, const QString& message, const QString& details)
{
    if (!details.isEmpty())
        m_log->appendPlainText(details);
    m_status->setText(message);
    updateButtons();
    emit modelExported(ok, message);
    if (!std::exchange(m_modelExportAsked, false))
        return;
    // Not modal: the window goes on while the outcome waits to be read; the trainer's own words
    // (its warnings, or the error) are one click away.
    auto* box = new QMessageBox(ok ? QMessageBox::Information : QMessageBox::Warning, tr("Export model"), message,
                                QMessageBox::Ok, window());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (!details.isEmpty())
        box->setDetailedText(details);
    box->open();
}

void PredictionsDock::setLearnAsILabel(bool enabled, int interval)
{
    m_learnInterval->setValue(interval);
    m_learnAsILabel->setChecked(enabled);
}

bool PredictionsDock::learnsAsILabel() const { return m_learnAsILabel->isChecked(); }
int PredictionsDock::learnInterval() const { return m_learnInterval->value(); }
void PredictionsDock::showLearnStatus(const QString& status) { m_learnStatus->setText(status); }
void PredictionsDock::requestPrediction(std::size_t index)
{
    if (m_runDir.isEmpty())
        m_live->request(index);  // no run's model: the pixel classifier, when it is on
    else
        m_service->request(index);
}

void PredictionsDock::labelsChanged(std::size_t index, const cv::Mat& labels)
{
    if (m_runDir.isEmpty())
        m_live->learnFrom(index, labels);
}

bool PredictionsDock::isBusy() const
{
    return m_preparing || m_process->isRunning() || m_scoringUnderway;
}

// From the checkpoint the panel would use now, not the one the editor's service last heard of: a
// run selected while it trained has only last.pt, and when best.pt appears Predict must write
// where its scoring (and the editor) then look.
QString PredictionsDock::predictionsFolder() const
{
    if (m_runDir.isEmpty())
        return {};
    return QString::fromStdString(data::PredictionCache(m_runDir.toStdString(), checkpointFile().toStdString()).folder().string());
}

QString PredictionsDock::statusText() const { return m_status->text(); }

bool PredictionsDock::predictValidation()
{
    if (isBusy() || !m_project || m_runDir.isEmpty() || m_process->program().isEmpty())
        return false;
    const bool all = m_split->currentData().toString() == QStringLiteral("all");
    const std::size_t toPredict = all ? m_project->size() : m_project->indicesOf(data::Split::Val).size();
    if (toPredict == 0) {
        m_status->setText(all ? tr("The project has no images.") : tr("The project has no validation images."));
        return false;
    }
    m_indices.resize(m_project->size());
    std::iota(m_indices.begin(), m_indices.end(), std::size_t(0));
    m_service->setCheckpoint(m_runDir, checkpointFile());  // the editor shows what is predicted now
    return startJob(common::TrainerArguments::predictSplit(checkpointFile(), predictionsFolder(),
                                                           QString::fromStdString(m_project->file().string()),
                                                           m_split->currentData().toString())
                        << adaptationArguments(),
                    tr("Predicting %n image(s)…", nullptr, int(toPredict)));
}

bool PredictionsDock::predictImages(const QList<std::size_t>& entries)
{
    if (isBusy() || !m_project || m_runDir.isEmpty() || m_process->program().isEmpty() || entries.isEmpty())
        return false;
    QStringList images;
    for (const std::size_t index : entries)
        images << QString::fromStdString(m_project->imagePath(index).string());
    m_indices.assign(entries.begin(), entries.end());
    m_service->setCheckpoint(m_runDir, checkpointFile());
    return startJob(common::TrainerArguments::predictImages(checkpointFile(), predictionsFolder(),
                                                            QString::fromStdString(m_project->file().string()), images)
                        << adaptationArguments(),
                    tr("Predicting %n image(s)…", nullptr, int(entries.size())));
}

QList<std::size_t> PredictionsDock::unpredicted(const QList<std::size_t>& entries) const
{
    QList<std::size_t> missing;
    if (!m_project || m_runDir.isEmpty())
        return entries;
    const data::PredictionCache cache(m_runDir.toStdString(), checkpointFile().toStdString());
    for (const std::size_t index : entries)
        if (!cache.contains(data::PredictionCache::keyOf(*m_project, index)))
            missing << index;
    return missing;
}

bool PredictionsDock::startJob(const QStringList& arguments, const QString& status)
{
    m_jobGeneration = m_generation;
    m_log->clear();
    m_adaptationSaid.clear();
    m_status->setText(status);
    m_preparing = true;
    updateButtons();
    // The cache is made current first: a checkpoint rewritten since empties it, which may delete
    // thousands of files, so on a worker; the process starts when it is done.
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, arguments, generation = m_generation] {
        watcher->deleteLater();
        m_preparing = false;
        const QString error = watcher->result();
        if (generation != m_generation) {  // another run or project was chosen meanwhile
            updateButtons();
            return;
        }
        if (!error.isEmpty()) {
            m_status->setText(error);
            updateButtons();
            return;
        }
        if (m_process->start(arguments))
            m_log->appendPlainText(QStringLiteral("$ %1\n").arg(m_process->commandLine()));
        else
            m_status->setText(common::TrainerProcess::notFoundMessage());
        updateButtons();
    });
    watcher->setFuture(QtConcurrent::run(document::workerPool(),
                                         [cache = data::PredictionCache(m_runDir.toStdString(), checkpointFile().toStdString(),
                                                                        PredictionService::adaptationStamp(m_adapt->isChecked()))] {
                                             try {
                                                 cache.prepare();
                                                 return QString();
                                             } catch (const std::exception& error) {
                                                 return QString::fromStdString(error.what());
                                             }
                                         }));
    return true;
}

QString PredictionsDock::evaluationFolder() const
{
    if (m_runDir.isEmpty())
        return {};
    return QDir(m_runDir).filePath(QStringLiteral("evaluation/") + QFileInfo(checkpointFile()).completeBaseName());
}

bool PredictionsDock::evaluate()
{
    if (isBusy() || !m_project || m_runDir.isEmpty() || m_process->program().isEmpty())
        return false;
    if (m_project->indicesOf(data::Split::Val).empty()) {
        m_status->setText(tr("The project has no validation images."));
        return false;
    }
    m_evaluating = true;
    const bool started = startJob(
        common::TrainerArguments::evaluate(checkpointFile(), QString::fromStdString(m_project->file().string()),
                                           QStringLiteral("val"), evaluationFolder(),
                                           // the model as trained: its predictions stay out of an adapted cache
                                           m_adapt->isChecked() ? QString() : predictionsFolder()),
        tr("Evaluating…"));
    m_evaluating = started;
    return started;
}

void PredictionsDock::showReport() { readReport(true); }

// The report an earlier Evaluate… wrote into the run folder comes back with the run (issue
// 47.14: it was gone after the project was reopened); it is shown in the view, not popped up.
void PredictionsDock::restoreSavedReport()
{
    const QString file = QDir(evaluationFolder()).filePath(QStringLiteral("report.json"));
    if (!evaluationFolder().isEmpty() && QFileInfo::exists(file))
        readReport(false);
}

void PredictionsDock::readReport(bool reveal)
{
    // Read on a worker (thousands of images make a report of megabytes); shown when read.
    auto* watcher = new QFutureWatcher<std::pair<std::optional<metrics::EvaluationReport>, QString>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, reveal, generation = m_generation] {
        watcher->deleteLater();
        const auto [report, problem] = watcher->result();
        if (generation != m_generation)
            return;
        if (!report) {
            if (reveal)
                finish(false, problem);
            return;
        }
        m_reportView->setReport(*report);
        if (!reveal) {
            emit reportRestored();
            return;
        }
        // Its own window, unless the report view was placed elsewhere (the window's Review
        // workspace docks it).
        if (m_reportView->window() == m_reportWindow) {
            m_reportWindow->show();
            m_reportWindow->raise();
        }
        emit reportShown();
        finish(true, tr("Evaluated: mean IoU %1, mean BF score %2")
                         .arg(report->metrics().meanIoU, 0, 'f', 3)
                         .arg(report->meanBoundaryF1(), 0, 'f', 3));
        scoreExistingPredictions();  // the evaluation filled the cache: the browser's columns follow
    });
    const std::filesystem::path file = QDir(evaluationFolder()).filePath(QStringLiteral("report.json")).toStdString();
    watcher->setFuture(QtConcurrent::run(document::workerPool(), [file]() -> std::pair<std::optional<metrics::EvaluationReport>, QString> {
        try {
            return {metrics::readEvaluationReport(file), {}};
        } catch (const run::FileError& error) {
            return {std::nullopt, QString::fromStdString(error.what())};
        }
    }));
}

void PredictionsDock::processFinished(const common::TrainerProcess::Exit& exit)
{
    if (std::exchange(m_evaluating, false)) {
        if (m_jobGeneration != m_generation)
            finish(false, tr("Cancelled."));
        else if (!exit.ok)
            finish(false, exit.message);
        else
            showReport();
        return;
    }
    if (m_jobGeneration != m_generation && exit.crashed) {
        finish(false, tr("Cancelled; the images predicted so far are kept for the editor."));
        return;
    }
    if (!exit.ok) {
        finish(false, exit.message);
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
    m_scoringUnderway = false;
    if (m_jobGeneration != m_generation) {
        finish(false, tr("The project or run changed; scores dropped."));
        scoreExistingPredictions();  // the run in view now may have predictions of its own
        return;
    }
    const auto scores = m_scoring->result();
    m_lastScores = scores;
    emit scoresChanged(m_lastScores);
    listSuspects();
    int scored = 0, missing = 0;
    for (const auto& score : scores) {
        const bool val = m_project->entry(score.index).split == data::Split::Val;
        scored += score.iou && val ? 1 : 0;
        if (score.problem.empty())
            continue;
        if (val)
            m_log->appendPlainText(QString::fromStdString(score.problem));
        else
            ++missing;
    }
    if (missing > 0)
        m_log->appendPlainText(tr("%n labelled image(s) outside the validation split have no prediction yet (predict All images)",
                                  nullptr, missing));
    // The data set's mean IoU, as the run and the evaluation report say it (issue 47.13).
    const auto metrics = data::datasetMetrics(
        scores, [this](std::size_t index) { return m_project->entry(index).split == data::Split::Val; });
    const QString adaptation = std::exchange(m_adaptationSaid, QString());
    if (metrics) {
        finish(true, (tr("Mean IoU over %n labelled validation image(s): %1", nullptr, scored).arg(metrics->meanIoU, 0, 'f', 3) +
                      QLatin1Char(' ') + adaptation)
                         .trimmed());
        return;
    }
    // Nothing scored: before Predict (the cache holds only the images the editor showed) this
    // said "No labelled validation image" of a project with a hundred of them.
    const int labelledVal = int(std::count_if(scores.begin(), scores.end(), [this](const data::PredictionScore& score) {
        return m_project->entry(score.index).split == data::Split::Val && !score.problem.empty();
    }));
    finish(true, ((labelledVal == 0 ? tr("No labelled validation image to score.")
                                    : tr("Predict first: none of the %n labelled validation image(s) has a prediction of "
                                         "this checkpoint yet.", nullptr, labelledVal)) +
                  QLatin1Char(' ') + adaptation)
                     .trimmed());
}

void PredictionsDock::listSuspects()
{
    m_suspects->clear();
    m_suspectSummary->clear();
    if (!m_project)
        return;
    std::vector<std::pair<double, std::size_t>> suspects;
    for (const auto& score : m_lastScores)
        if (score.suspectFraction && *score.suspectFraction * 100.0 >= m_suspectArea->value())
            suspects.emplace_back(*score.suspectFraction, score.index);
    std::sort(suspects.begin(), suspects.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [fraction, index] : suspects) {
        auto* item = new QListWidgetItem(tr("%1 — %2 % disputed")
                                             .arg(QString::fromStdString(m_project->entry(index).image))
                                             .arg(fraction * 100.0, 0, 'f', 1),
                                         m_suspects);
        item->setData(Qt::UserRole, qulonglong(index));
    }
    if (suspects.empty())
        m_suspectSummary->setText(noSuspectText());
}

// An empty list said nothing: neither whether the thresholds are too strict nor how close the
// nearest image came. Empty before any image was scored.
QString PredictionsDock::noSuspectText() const
{
    const data::PredictionScore* closest = nullptr;
    for (const auto& score : m_lastScores)
        if (score.suspectFraction && (!closest || *score.suspectFraction > *closest->suspectFraction))
            closest = &score;
    if (!closest)
        return m_lastScores.empty() ? QString()
                                    : tr("No labelled image has a prediction yet: Predict, then the suspects show here.");
    if (*closest->suspectFraction == 0.0)
        return tr("No labelled pixel is disputed at ≥ %1 % sure: lower \"sure ≥\" to see less certain disagreements.")
            .arg(m_suspectConfidence->value());
    return tr("No image has ≥ %1 % of its labels disputed at ≥ %2 % sure; the closest is %3 with %4 %.")
        .arg(m_suspectArea->value(), 0, 'f', 1)
        .arg(m_suspectConfidence->value())
        .arg(QString::fromStdString(m_project->entry(closest->index).image))
        .arg(*closest->suspectFraction * 100.0, 0, 'f', 1);
}

void PredictionsDock::setSuspectThresholds(int confidencePercent, double areaPercent)
{
    m_suspectArea->setValue(areaPercent);
    m_suspectConfidence->setValue(confidencePercent);
}

void PredictionsDock::setPredictAll(bool all) { m_split->setCurrentIndex(all ? 1 : 0); }

void PredictionsDock::finish(bool ok, const QString& message)
{
    m_status->setText(message);
    updateButtons();
    emit finished(ok, message);
}

QStringList PredictionsDock::adaptationArguments() const
{
    return m_adapt->isChecked() ? common::TrainerArguments::keptAdaptation() : QStringList();
}

// The editor's predictions are made again the other way (the service empties the cache as it
// does), and the browser's scores, of the other way, are cleared with them.
void PredictionsDock::adaptationChanged(bool adapt)
{
    if (m_project)
        QSettings().setValue(adaptationKey(*m_project), adapt);
    m_service->setAdaptation(adapt);
    emit scoresChanged({});
    updateButtons();
}

void PredictionsDock::updateButtons()
{
    const bool ready = m_project && !m_runDir.isEmpty() && !m_process->program().isEmpty() && !isBusy();
    m_predictButton->setEnabled(ready);
    m_adapt->setEnabled(!isBusy());  // a job's predictions are of the way it began
    m_cancelButton->setEnabled(m_process->isRunning());
    m_evaluateButton->setEnabled(ready);
    // An export is its own process: it may run beside a prediction, one at a time.
    m_exportModelAction->setEnabled(m_project && !m_runDir.isEmpty() && !m_process->program().isEmpty() &&
                                    !m_modelExporter->isRunning());
    if (m_process->program().isEmpty())
        m_status->setText(common::TrainerProcess::notFoundMessage());
}

}  // namespace segstudio::ui::predictions
