#pragma once

#include "common/TrainerProcess.h"
#include "data/project/PredictionCache.h"
#include "data/project/PredictionIoU.h"

#include <QFutureWatcher>
#include <QWidget>

#include <functional>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QPlainTextEdit;
class QPushButton;

namespace segstudio::data {
inline namespace project { class Project; }
}

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::predictions {

class LiveClassifier;

class EvaluationReportView;
class ModelExporter;
class PredictionService;

// The "Predictions" panel: for the run selected in the Training panel, "Predict validation
// images" runs `segstudio-train predict` on the project's val images into <run>/predictions/,
// then scores each prediction against its label map (data::scorePredictions, on a worker
// thread) and announces the per-image scores (scoresChanged: the browser's IoU, BF, uncertainty
// and suspect columns follow them).
// Requirements: GUI thread; the project outlives the panel or is reset first (setDocument(nullptr)). Never blocks: the process and the scoring are asynchronous;
//   results of a project or run that is no longer current are dropped.
class PredictionsDock : public QWidget {
    Q_OBJECT

public:
    explicit PredictionsDock(QWidget* parent = nullptr);
    ~PredictionsDock() override;

    void setDocument(const document::ProjectDocument* document);
    void setRunDirectory(const QString& runDir);
    void setTrainer(const QString& program);

    // Predicts the split chosen in the panel (validation images by default, or all images) with
    // the chosen checkpoint into its cache, then scores every image; false when it cannot start.
    bool predictValidation();
    bool predictImages(const QList<std::size_t>& entries);  // these images, into the cache
    // Of these entries, those without a prediction of the chosen checkpoint in the cache.
    QList<std::size_t> unpredicted(const QList<std::size_t>& entries) const;
    void setPredictAll(bool all);  // the split choice: all images (for the labeling queue) or val

    // MATLAB's evaluateSemanticSegmentation for the val split and the chosen checkpoint, in the
    // background (segstudio-train evaluate --report, which also fills the prediction cache); the
    // report opens in its own window. false when it cannot start.
    bool evaluate();
    QString evaluationFolder() const;  // <run>/evaluation/<best|last>
    EvaluationReportView* reportView() const { return m_reportView; }
    bool isBusy() const;
    // The checkpoint whose predictions are shown and scored: the run's best.pt (last.pt when it
    // never validated) or, when chosen, last.pt; its cache is <run>/predictions/<best|last>.
    QString checkpointFile() const;
    QString runDirectory() const { return m_runDir; }
    QString predictionsFolder() const;
    PredictionService* service() const { return m_service; }  // for tests; other rooms use the signals below
    // "Predict as I label": the row of the opt-in fine-tune of the selected run (the switch, every
    // how many labelled images, and what it does), which the Training panel runs
    // (learnAsILabelChanged out, showLearnStatus in).
    void setLearnAsILabel(bool enabled, int interval);
    bool learnsAsILabel() const;
    int learnInterval() const;
    // The run's checkpoint was replaced under the same name (a live run learned): the editor's
    // prediction is computed again and the browser's scores are dropped.
    void reloadRun();
    void cancel();

    // File > Export > Trained Model as ONNX…: the chosen checkpoint of the selected run as an ONNX
    // file (segstudio-train export-model), asked where to save, the outcome said in a message box.
    QAction* exportModelAction() const { return m_exportModelAction; }
    // The same without asking: false when it cannot start; modelExported() tells how it ended.
    bool exportModel(const QString& onnxFile);

    QString statusText() const;

    // Likely labeling mistakes of the last scoring (the list named suspectList): images where the
    // model disagrees with the label, at least the confidence chosen, over at least the area
    // chosen; worst first. The process output is the text view named predictionsLog.
    void setSuspectThresholds(int confidencePercent, double areaPercent);

public slots:
    void showLearnStatus(const QString& status);
    // The chosen checkpoint's prediction of this image (the one the editor opened): from the
    // cache, or computed in the background; predictionReady or predictionProblem answers.
    void requestPrediction(std::size_t index);
    // The open image's labels changed (a stroke): while no run is in use, the live pixel
    // classifier learns from them and predicts the image again (LiveClassifier).
    void labelsChanged(std::size_t index, const cv::Mat& labels);

signals:
    void finished(bool ok, const QString& message);
    // Every image's score against its labels for the chosen checkpoint; images missing from the
    // list have none (an empty list: no scores, e.g. another run was chosen).
    void scoresChanged(const std::vector<data::PredictionScore>& scores);
    void openImageRequested(std::size_t index);  // a suspect clicked: open it with the error map
    void reportShown();
    void reportRestored();  // a report saved with the run is in the view again (not popped up)
    void modelExported(bool ok, const QString& message);
    void learnAsILabelChanged(bool enabled, int interval);
    void predictionReady(std::size_t index, const data::PredictionCache::Entry& prediction);
    void predictionProblem(const QString& message);  // the image could not be predicted, and why
    // How the editor's latest prediction was made (the gate's decision: adapted or as trained),
    // for the status bar; said when a prediction process ends, not for one read from the cache.
    void predictionSaid(const QString& text);
    // The checkpoint whose predictions the editor shows (its data::PredictionCache); empty: none.
    void predictionCheckpointChanged(const QString& runDir, const QString& checkpoint);
    void liveClassifierStatus(const QString& text);  // "Learning from your strokes: …", for the status bar

private:
    void configureParts();
    void layOut();
    void connectParts();
    void scoreExistingPredictions();
    void scoreInBackground();
    void processFinished(const common::TrainerProcess::Exit& exit);
    void scoringFinished();
    void finish(bool ok, const QString& message);
    void updateButtons();
    QStringList adaptationArguments() const;
    void adaptationChanged(bool adapt);
    void checkpointChanged();
    void listSuspects();
    QString noSuspectText() const;
    bool startJob(const QStringList& arguments, const QString& status);  // predict or evaluate into the cache
    void showReport();
    void restoreSavedReport();
    void readReport(bool reveal);
    void showProgress();
    void askAndExportModel();
    void modelExportFinished(bool ok, const QString& message, const QString& details);

    const document::ProjectDocument* m_document = nullptr;
    const data::Project* m_project = nullptr;
    QString m_runDir;
    common::TrainerProcess* m_process;
    QFutureWatcher<std::vector<data::PredictionScore>>* m_scoring;
    bool m_preparing = false;  // the cache is being made current before the process starts
    // From the scoring's start until scoringFinished has run: the watcher's future reports not
    // running as soon as the worker is done, before its finished signal reaches this thread.
    bool m_scoringUnderway = false;
    quint64 m_generation = 0;  // bumped by setDocument/setRunDirectory: late results are dropped
    quint64 m_jobGeneration = 0;
    std::vector<std::size_t> m_indices;
    QPushButton* m_predictButton;
    QPushButton* m_cancelButton;
    QPushButton* m_evaluateButton;
    bool m_evaluating = false;
    QString m_adaptationSaid;  // what the running predict job's gate decided, for the final status
    QWidget* m_reportWindow;
    EvaluationReportView* m_reportView;
    QComboBox* m_checkpoint;
    QComboBox* m_split;
    QSpinBox* m_suspectConfidence;
    QDoubleSpinBox* m_suspectArea;
    QListWidget* m_suspects;
    QLabel* m_suspectSummary;  // why the list is empty: the closest image and its share
    std::vector<data::PredictionScore> m_lastScores;
    PredictionService* m_service;
    ModelExporter* m_modelExporter;
    QAction* m_exportModelAction;
    bool m_modelExportAsked = false;  // started from the menu: the outcome gets a message box
    QCheckBox* m_learnAsILabel;
    QSpinBox* m_learnInterval;
    QLabel* m_learnStatus;
    LiveClassifier* m_live;
    QCheckBox* m_learnFromStrokes;
    QCheckBox* m_adapt;
    QLabel* m_status;
    QPlainTextEdit* m_log;
};

}  // namespace segstudio::ui::predictions
