#pragma once

#include "data/ExportFormat.h"

#include "data/DatasetImporter.h"

#include <QMainWindow>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class ReadOnlyBanner;
class QMenu;
class QStackedWidget;
class QTimer;
class QUndoStack;

namespace segstudio::data {
class Project;
}
namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui {

class DatasetBrowser;
class JobProgressBar;
class LabelEditor;
class StartPage;
class UndoRouter;
class PredictionsDock;
class TrainingDock;

// The window a user lives in: the dataset browser docked left, the label editor in the centre
// (or the start page while no project is open), the classes panel docked right; menus, tool
// bar, status bar; layout and recent projects kept in QSettings. It owns the open project's
// ProjectDocument and hands it to the parts; every edit and its undo lives in the document (its
// commands) and the parts, not here.
// Policy: the document saves the project file shortly after each change, atomically; label maps
//   are saved by the editor (Save, or on image switch).
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
    QString lastError() const { return m_lastError; }
    ReadOnlyBanner* readOnlyBanner() const { return m_readOnlyBanner; }

    const data::Project* project() const;
    document::ProjectDocument* document() const { return m_document.get(); }
    DatasetBrowser* browser() const { return m_browser; }
    LabelEditor* editor() const { return m_editor; }
    StartPage* startPage() const { return m_startPage; }
    TrainingDock* training() const { return m_training; }
    PredictionsDock* predictions() const { return m_predictions; }
    QAction* saveOnSwitchAction() const { return m_saveOnSwitchAction; }
    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }
    // The project's edits (splits, images, classes, Accept Prediction for a selection), beside each
    // image's pixel history in the editor's undo group: one QUndoGroup, so Edit > Undo acts on the
    // stack of the last edit, and the History panel shows it. nullptr while no project is open.
    QUndoStack* projectUndoStack() const;
    // Accepts the chosen checkpoint's cached predictions into these images' label maps as one
    // undoable edit (the editor's locks and confidence floor apply); false when nothing changed.
    bool acceptPredictions(const QList<std::size_t>& entries, bool unlabelledOnly);

signals:
    void projectOpened(const QString& file);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void connectLiveFineTuner();
    void offerTrainingSplit();
    void createActions();
    void createMenus();
    void createDocks();
    void connectParts();
    QAction* toolBarProxy(QAction* action, const QString& text);
    void readSettings();
    void writeSettings() const;

    void showProject(std::unique_ptr<document::ProjectDocument> document);
    void addImages();
    void followBusy(bool busy);
    void showAlert(const QString& title, const QString& text);
    void releaseProject();
    void newProject();
    void importDataset();
    // Runs make() behind a cancellable progress dialog and shows the project it returns.
    void createProject(const QString& title, const QString& progressLabel, const QString& projectFile,
                       const std::function<data::Project(const data::ImportProgress&)>& make);
    void openProjectFromDialog();
    void openInteractively(const QString& file);
    void exportLabels(data::ExportFormat format);
    static QString exportTitle(data::ExportFormat format);
    void removeEntries(const QList<std::size_t>& entries);
    void removeProblemImages();
    void followSelection(std::size_t entry);
    void updateRecentMenu();
    void updateTitle();
    void updateActions();
    void updateImageCaption();
    void showError(const QString& title, const QString& message);

    std::unique_ptr<document::ProjectDocument> m_document;
    QStackedWidget* m_central;
    StartPage* m_startPage;
    LabelEditor* m_editor;
    DatasetBrowser* m_browser;
    QDockWidget* m_browserDock = nullptr;
    QDockWidget* m_classesDock = nullptr;
    TrainingDock* m_training = nullptr;
    QDockWidget* m_trainingDock = nullptr;
    PredictionsDock* m_predictions = nullptr;
    QDockWidget* m_predictionsDock = nullptr;
    QDockWidget* m_historyDock = nullptr;
    bool m_firstLayout = false;  // no saved dock layout: the first show gives the canvas the room
    JobProgressBar* m_jobProgress = nullptr;
    ReadOnlyBanner* m_readOnlyBanner = nullptr;
    QLabel* m_projectLabel = nullptr;
    QLabel* m_savedLabel = nullptr;  // which label map reached disk last, and when
    QMenu* m_recentMenu = nullptr;
    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_demoAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_importAction = nullptr;
    QAction* m_addImagesAction = nullptr;
    std::vector<QAction*> m_exportActions;  // one per data::ExportFormat
    QAction* m_closeAction = nullptr;
    QAction* m_quitAction = nullptr;
    UndoRouter* m_undoRouter = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_removeProblemsAction = nullptr;
    QAction* m_saveOnSwitchAction = nullptr;
    QString m_lastError;
};

}  // namespace segstudio::ui
