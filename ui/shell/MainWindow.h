#pragma once

#include <QMainWindow>

#include <cstddef>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QStackedWidget;
class QUndoStack;
class ReadOnlyBanner;

namespace segstudio::data {
inline namespace project { class Project; }
}
namespace segstudio::document {
class ProjectDocument;
}

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
class RunStatusLine;
class TrainingDock;
}  // namespace segstudio::ui::training

namespace segstudio::ui::shell {

class DatasetActions;
class JobProgressBar;
class ProjectSession;
class RecentProjectsMenu;
class StartPage;
class UndoRouter;
class WindowDocks;
class Workspaces;

// The window a user lives in: it lays out the rooms' panels (the label editor in the centre, or
// the start page while no project is open; the browser, classes, history, training, predictions
// and evaluation docks), owns the menus, tool bar and status bar, and switches between the three
// workspaces (Label, Train, Review: Workspaces). Nothing else lives here: the open project is the
// ProjectSession's, the dataset commands are DatasetActions', every edit is the document's
// (its commands), and the panels talk through a few named signals connected in connectParts().
// Requirements: GUI thread; one project at a time.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opening reports failure through the return value and lastError(), never a modal box, so
    // scripts and tests can call it; the menu and start page show the box.
    bool openProject(const QString& file);
    bool openDemo(const QString& dir = {});
    bool closeProject();  // false when the user cancelled saving
    // Ends as a close does without asking (SIGTERM, SIGHUP): recovery copy, project saved, lock
    // removed, training left running. The caller then ends the application.
    void shutDown();
    bool save();
    QString lastError() const;

    const data::Project* project() const;
    document::ProjectDocument* document() const;
    ProjectSession* session() const { return m_session; }
    browser::DatasetBrowser* browser() const { return m_browser; }
    editor::LabelEditor* editor() const { return m_editor; }
    StartPage* startPage() const { return m_startPage; }
    training::TrainingDock* training() const { return m_training; }
    predictions::PredictionsDock* predictions() const { return m_predictions; }
    Workspaces* workspaces() const { return m_workspaces; }
    ReadOnlyBanner* readOnlyBanner() const { return m_readOnlyBanner; }
    QAction* saveOnSwitchAction() const { return m_saveOnSwitchAction; }
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }
    // The project's edits beside each image's pixel history in the editor's undo group: one
    // QUndoGroup, so Edit > Undo acts on the stack of the last edit. nullptr without a project.
    QUndoStack* projectUndoStack() const;
    // Accepts the chosen checkpoint's cached predictions into these images' label maps as one
    // undoable document job (the editor's locks and confidence floor apply); false when it
    // cannot start.
    bool acceptPredictions(const QList<std::size_t>& entries, bool unlabelledOnly);

signals:
    void projectOpened(const QString& file);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createDocks();
    void defineWorkspaces();
    void createMenus();
    void connectParts();
    void attachDocument(document::ProjectDocument* document);
    void followBusy(bool busy);
    void showAlert(const QString& title, const QString& text);
    void showRecovered(const QStringList& steps);
    void showStatus(const QString& text, int timeoutMs);
    void updateTitle();
    void updateActions();
    void updateImageCaption();

    QStackedWidget* m_central;
    QWidget* m_centre;
    StartPage* m_startPage;
    editor::LabelEditor* m_editor;
    browser::DatasetBrowser* m_browser;
    training::TrainingDock* m_training;
    predictions::PredictionsDock* m_predictions;
    ProjectSession* m_session;
    DatasetActions* m_datasetActions;
    predictions::PredictionAcceptor* m_acceptor;
    predictions::SequencePropagator* m_propagator;
    Workspaces* m_workspaces = nullptr;
    std::unique_ptr<WindowDocks> m_docks;
    JobProgressBar* m_jobProgress = nullptr;
    ReadOnlyBanner* m_readOnlyBanner = nullptr;
    training::RunStatusLine* m_runStatus = nullptr;
    QLabel* m_projectLabel = nullptr;
    QLabel* m_savedLabel = nullptr;  // which label map reached disk last, and when
    RecentProjectsMenu* m_recentMenu = nullptr;
    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_demoAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_importAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_quitAction = nullptr;
    UndoRouter* m_undoRouter = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_saveOnSwitchAction = nullptr;
};

}  // namespace segstudio::ui::shell
