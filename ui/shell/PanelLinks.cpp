#include "PanelLinks.h"

#include "ProjectSession.h"
#include "Workspaces.h"
#include "browser/DatasetBrowser.h"
#include "browser/ImageListModel.h"
#include "data/project/PredictionCache.h"
#include "document/ProjectDocument.h"
#include "editor/LabelDocument.h"
#include "editor/LabelEditor.h"
#include "editor/ToolSettings.h"
#include "predictions/PredictionAcceptor.h"
#include "predictions/SequencePropagator.h"
#include "predictions/PredictionsDock.h"
#include "training/TrainingDock.h"

#include <QAction>
#include <QFileInfo>
#include <QMainWindow>
#include <QStatusBar>

namespace segstudio::ui::shell {

namespace {

void linkBrowserAndEditor(const PanelLinks& p)
{
    QObject::connect(
        p.browser, &browser::DatasetBrowser::currentEntryChanged, p.editor, [editor = p.editor](std::size_t entry) {
            if (editor->currentIndex() != entry || editor->isOpening())
                editor->requestImage(entry);  // decoded on workers: flipping through images never stalls the window
        });
    // Previous / Next Frame go through the browser's selection, as a click there would, so the
    // browser shows the frame on screen; a frame the filters hide opens all the same.
    QObject::connect(p.editor, &editor::LabelEditor::frameRequested, p.browser, [p](std::size_t index) {
        if (!p.browser->selectEntry(index))
            p.editor->requestImage(index);
    });
    QObject::connect(p.editor, &editor::LabelEditor::imageLabelled, p.browser,
                     [model = p.browser->model()](std::size_t index, double fraction) {
                         model->setLabelledFraction(int(index), fraction);
                     });
    // A label map just reached disk: its counts and thumbnail follow.
    QObject::connect(p.editor, &editor::LabelEditor::modifiedChanged, p.browser, [p](bool modified) {
        if (const auto index = p.editor->currentIndex(); !modified && p.session->document() && index)
            p.browser->model()->refreshRow(int(*index));
    });
    // Stepping through images from Train means labeling them.
    for (QAction* step : {p.browser->previousAction(), p.browser->nextAction(), p.browser->nextUnlabelledAction(),
                          p.browser->nextInQueueAction()})
        QObject::connect(step, &QAction::triggered, p.workspaces, [workspaces = p.workspaces] {
            if (workspaces->current() == Workspaces::Workspace::Train)
                workspaces->switchTo(Workspaces::Workspace::Label);
        });
}

void linkPredictions(const PanelLinks& p, QMainWindow* window)
{
    // The model in use (the user's choice, or a run that validated better), not just the run in view.
    QObject::connect(p.training, &training::TrainingDock::modelRunChanged, p.predictions,
                     &predictions::PredictionsDock::setRunDirectory);
    // Propagate corrects the model by the labelled frame with the model's own predictions of it.
    QObject::connect(p.predictions, &predictions::PredictionsDock::predictionCheckpointChanged, p.editor,
                     &editor::LabelEditor::setPredictionCheckpoint);
    p.predictions->setRunDirectory(p.training->modelRunDirectory());
    p.editor->setPredictionCheckpoint(p.predictions->runDirectory(), p.predictions->checkpointFile());
    QObject::connect(p.training, &training::TrainingDock::modelMessage, window,
                     [window](const QString& text) { window->statusBar()->showMessage(text, 60000); });
    // The image on screen gets the chosen checkpoint's prediction, from the cache or computed.
    QObject::connect(p.editor, &editor::LabelEditor::imageOpened, p.predictions,
                     &predictions::PredictionsDock::requestPrediction);
    QObject::connect(p.predictions, &predictions::PredictionsDock::predictionReady, p.editor,
                     [editor = p.editor](std::size_t index, const data::PredictionCache::Entry& prediction) {
                         editor->setPrediction(index, prediction.classes, prediction.confidence, prediction.entropy, prediction.scores);
                     });
    // A stroke on the open image: while no run's model is in use, the pixel classifier learns from it.
    QObject::connect(p.editor, &editor::LabelEditor::imageLabelled, p.predictions, [p](std::size_t index) {
        if (const auto* document = p.editor->document(); document && p.editor->currentIndex() == index)
            p.predictions->labelsChanged(index, document->labels());
    });
    const auto showInStatusBar = [window](const QString& text) { window->statusBar()->showMessage(text, 8000); };
    QObject::connect(p.predictions, &predictions::PredictionsDock::liveClassifierStatus, window, showInStatusBar);
    QObject::connect(p.predictions, &predictions::PredictionsDock::predictionSaid, window, showInStatusBar);
    QObject::connect(p.predictions, &predictions::PredictionsDock::scoresChanged, p.browser->model(),
                     &browser::ImageListModel::setPredictionScores);
    // A suspect label opens with the error map on, where the disagreement shows.
    QObject::connect(p.predictions, &predictions::PredictionsDock::openImageRequested, p.editor,
                     [p](std::size_t index) {
                         p.editor->showPredictionErrors();
                         if (!p.browser->selectEntry(index))
                             p.editor->requestImage(index);
                     });
    QObject::connect(p.predictions, &predictions::PredictionsDock::reportShown, p.workspaces,
                     [workspaces = p.workspaces] { workspaces->switchTo(Workspaces::Workspace::Review); });
    QObject::connect(
        p.browser, &browser::DatasetBrowser::acceptPredictionRequested, p.acceptor,
        [acceptor = p.acceptor, window](const QList<std::size_t>& entries) { acceptor->ask(entries, window); });
    p.acceptor->setLimits([editor = p.editor] {
        return predictions::PredictionAcceptor::Limits {editor->predictionMinConfidence(),
                                                        editor->toolSettings()->guard()};
    });
    // Labels along a sequence (issue 51): the frames the browser names, with the chosen run's
    // predictions filling holes where they are as sure as the editor's Accept threshold asks.
    QObject::connect(
        p.browser, &browser::DatasetBrowser::propagateAlongSequenceRequested, p.propagator,
        [propagator = p.propagator, window](const QList<std::size_t>& entries) { propagator->ask(entries, window); });
    p.propagator->setMinConfidence([editor = p.editor] { return editor->predictionMinConfidence(); });
}

// "Predict as I label": the Predictions panel's row switches the Training panel's fine-tune,
// which saves the labels first; its run becomes the model in use when it validated better (the
// Training panel decides, modelRunChanged), and the Predictions panel loads new weights when
// that run was in use already.
void linkLiveFineTuner(const PanelLinks& p)
{
    p.training->setBeforeLearning([session = p.session] { return session->save(); });
    QObject::connect(p.predictions, &predictions::PredictionsDock::learnAsILabelChanged, p.training,
                     &training::TrainingDock::setLearnAsILabel);
    QObject::connect(p.training, &training::TrainingDock::liveFineTuneStatusChanged, p.predictions,
                     &predictions::PredictionsDock::showLearnStatus);
    p.predictions->showLearnStatus(p.training->liveFineTuneStatus());
    QObject::connect(p.training, &training::TrainingDock::modelReloaded, p.predictions,
                     &predictions::PredictionsDock::reloadRun);  // same folder, new weights
}

}  // namespace

void linkPanels(const PanelLinks& panels, QMainWindow* window)
{
    linkBrowserAndEditor(panels);
    linkPredictions(panels, window);
    linkLiveFineTuner(panels);
}

}  // namespace segstudio::ui::shell
