#pragma once

class QMainWindow;

namespace segstudio::ui::browser {
class DatasetBrowser;
}

namespace segstudio::ui::editor {
class LabelEditor;
}

namespace segstudio::ui::predictions {
class PredictionAcceptor;
class PredictionsDock;
class SequencePropagator;
}  // namespace segstudio::ui::predictions

namespace segstudio::ui::training {
class TrainingDock;
}

namespace segstudio::ui::shell {

class ProjectSession;
class Workspaces;

// The panels of the window, for linkPanels().
struct PanelLinks {
    editor::LabelEditor* editor;
    browser::DatasetBrowser* browser;
    training::TrainingDock* training;
    predictions::PredictionsDock* predictions;
    predictions::PredictionAcceptor* acceptor;
    predictions::SequencePropagator* propagator;
    Workspaces* workspaces;
    ProjectSession* session;
};

// How the rooms talk, in one place, through their named signals: the browser's selection opens
// the image in the editor, and the editor's Previous / Next Frame select it in the browser; the editor's saves and labelled fractions update the browser's rows;
// the training panel's run is the one the predictions panel predicts with; the prediction of the
// image on screen goes to the editor's layers and the scores to the browser's columns; a suspect
// opens with the error map; the browser's Accept Prediction and Propagate Along the Sequence ask
// through the prediction room's prompts, with the editor's confidence floor; the live fine-tune
// gives way to the user's training and its model becomes the selected run; Go menu steps from
// Train open the Label workspace.
void linkPanels(const PanelLinks& panels, QMainWindow* window);

}  // namespace segstudio::ui::shell
