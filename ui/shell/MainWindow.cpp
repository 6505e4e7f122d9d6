#include "MainWindow.h"

#include "DatasetActions.h"
#include "HelpMenu.h"
#include "JobProgressBar.h"
#include "ProjectSession.h"
#include "ProjectToolBar.h"
#include "RecentProjectsMenu.h"
#include "ReadOnlyBanner.h"
#include "StartPage.h"
#include "PanelLinks.h"
#include "UndoRouter.h"
#include "WindowDocks.h"
#include "WindowSettings.h"
#include "WorkspaceLayouts.h"
#include "Workspaces.h"
#include "browser/DatasetBrowser.h"
#include "browser/ImageFilterProxyModel.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "editor/ClassesPanel.h"
#include "editor/LabelEditor.h"
#include "icons/ActionToolTips.h"
#include "icons/Icons.h"
#include "predictions/EvaluationReportView.h"
#include "predictions/PredictionAcceptor.h"
#include "predictions/PredictionsDock.h"
#include "predictions/SequencePropagator.h"
#include "training/RunStatusLine.h"
#include "training/TrainingDock.h"

#include <QCloseEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTime>
#include <QToolBar>
#include <QToolButton>
#include <QUndoGroup>
#include <QVBoxLayout>

namespace segstudio::ui::shell {

namespace {

constexpr int kStatusTimeoutMs = 6000;

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_central(new QStackedWidget(this)), m_centre(new QWidget(this)),
      m_startPage(new StartPage(m_central)), m_editor(new editor::LabelEditor(m_central)),
      m_browser(new browser::DatasetBrowser(this)), m_training(new training::TrainingDock(this)),
      m_predictions(new predictions::PredictionsDock(this)), m_session(new ProjectSession(m_editor, this)),
      m_datasetActions(new DatasetActions(m_session, m_editor, m_browser, this)),
      m_acceptor(new predictions::PredictionAcceptor(m_predictions, this)),
      m_propagator(new predictions::SequencePropagator(m_predictions, this))
{
    setObjectName(QStringLiteral("mainWindow"));
    m_central->addWidget(m_startPage);
    m_central->addWidget(m_editor);
    auto* centreLayout = new QVBoxLayout(m_centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(m_central, 1);
    m_readOnlyBanner = new ReadOnlyBanner(this);
    addToolBar(Qt::TopToolBarArea, m_readOnlyBanner);
    addToolBarBreak(Qt::TopToolBarArea);  // a row of its own, across the window
    setCentralWidget(m_centre);

    createActions();
    createDocks();
    defineWorkspaces();
    createMenus();
    connectParts();
    m_projectLabel = new QLabel(this);
    m_savedLabel = new QLabel(this);
    m_savedLabel->setObjectName(QStringLiteral("savedLabel"));
    m_jobProgress = new JobProgressBar(this);
    m_runStatus = new training::RunStatusLine(m_training, this);
    statusBar()->addPermanentWidget(m_runStatus);
    statusBar()->addPermanentWidget(m_jobProgress);
    statusBar()->addPermanentWidget(m_savedLabel);
    statusBar()->addPermanentWidget(m_projectLabel);
    // A message longer than the room beside the permanent fields is cut off: whole in the tooltip.
    connect(statusBar(), &QStatusBar::messageChanged, statusBar(), &QWidget::setToolTip);
    connect(m_runStatus, &training::RunStatusLine::clicked, this,
            [this] { m_workspaces->switchTo(Workspaces::Workspace::Train); });
    WindowSettings::read(*this);
    m_workspaces->setProjectOpen(false);  // the start page, no dock
    m_recentMenu->setProjects(m_session->recentProjects());
    m_startPage->setRecentProjects(m_session->recentProjects());
    updateTitle();
    updateActions();
}

// The parts let go of the document before it goes with the session.
MainWindow::~MainWindow() { m_session->detach(); }

bool MainWindow::openProject(const QString& file) { return m_session->open(file); }
bool MainWindow::openDemo(const QString& dir) { return m_session->openDemo(dir); }
bool MainWindow::closeProject() { return m_session->close(); }
bool MainWindow::save() { return m_session->save(); }
QString MainWindow::lastError() const { return m_session->lastError(); }
const data::Project* MainWindow::project() const { return m_session->project(); }
document::ProjectDocument* MainWindow::document() const { return m_session->document(); }
QUndoStack* MainWindow::projectUndoStack() const { return document() ? document()->undoStack() : nullptr; }

bool MainWindow::acceptPredictions(const QList<std::size_t>& entries, bool unlabelledOnly)
{
    return m_acceptor->accept(entries, unlabelledOnly);
}

void MainWindow::createActions()
{
    auto make = [this](const QString& text, const QString& icon, const QKeySequence& shortcut, auto slot) {
        // SegStudio's own icons (ui/icons), not the desktop theme's: the same look everywhere.
        auto* action = new QAction(segstudio::ui::icons::icon(icon), text, this);
        action->setShortcut(shortcut);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_newAction = make(tr("&New Project…"), QStringLiteral("document-new"), QKeySequence::New, [this] { m_session->newProject(); });
    m_openAction = make(tr("&Open Project…"), QStringLiteral("document-open"), QKeySequence::Open,
                        [this] { m_session->openFromDialog(); });
    m_demoAction = make(tr("Open &Demo Project"), QString(), QKeySequence(), [this] {
        if (!openDemo())
            QMessageBox::warning(this, tr("Demo project"), lastError());
    });
    m_saveAction = make(tr("&Save"), QStringLiteral("document-save"), QKeySequence::Save, &MainWindow::save);
    m_importAction = make(tr("&Import Dataset…"), QStringLiteral("document-import"), QKeySequence(Qt::CTRL | Qt::Key_I),
                          [this] { m_session->importDataset(); });
    m_closeAction = make(tr("&Close Project"), QStringLiteral("document-close"), QKeySequence::Close, &MainWindow::closeProject);
    m_quitAction = make(tr("&Quit"), QStringLiteral("application-exit"), QKeySequence::Quit, &QWidget::close);
    m_saveOnSwitchAction = new QAction(tr("Save Labels When &Switching Images"), this);
    m_saveOnSwitchAction->setCheckable(true);
    m_saveOnSwitchAction->setChecked(true);
    m_saveOnSwitchAction->setToolTip(tr("On: opening another image saves the current one's labels. "
                                        "Off: you are asked to save or discard."));
    connect(m_saveOnSwitchAction, &QAction::toggled, m_editor, &editor::LabelEditor::setSaveOnSwitch);

    m_undoRouter = new UndoRouter(m_editor->undoGroup(), this);
    m_undoAction = m_undoRouter->undoAction();
    m_redoAction = m_undoRouter->redoAction();
    icons::setIconToolTips({m_newAction, m_openAction, m_saveAction});
}

void MainWindow::createDocks()
{
    m_training->setBeforeTraining([this] { return save(); });
    m_training->setBeforeTrainDialog([this] { m_datasetActions->offerTrainingSplit(); });
    m_docks = std::make_unique<WindowDocks>(*this, WindowDocks::Contents{m_browser, m_editor->classesPanel(),
                                                                         m_editor->undoGroup(), m_training, m_predictions,
                                                                         m_predictions->reportView()});
}

void MainWindow::defineWorkspaces()
{
    m_workspaces = new Workspaces(this, m_centre);
    defineDefaultWorkspaces(*m_workspaces, *this, m_docks->all());
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addActions({m_newAction, m_openAction, m_demoAction});
    m_recentMenu = new RecentProjectsMenu(this);
    file->addMenu(m_recentMenu);
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addSeparator();
    file->addAction(m_importAction);
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    for (QAction* action : m_datasetActions->exportActions())
        exportMenu->addAction(action);
    exportMenu->addSeparator();
    exportMenu->addAction(m_predictions->exportModelAction());  // segstudio-train export-model, from the menu
    file->addSeparator();
    file->addActions({m_closeAction, m_quitAction});

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addActions({m_undoAction, m_redoAction});
    edit->addSeparator();
    edit->addActions(m_editor->propagateActions());
    edit->addSeparator();
    edit->addAction(m_saveOnSwitchAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addActions(m_workspaces->actions());
    view->addSeparator();
    view->addActions(m_editor->viewActions());
    view->addSeparator();
    view->addActions({m_browser->showListAction(), m_browser->overlayAction()});
    view->addSeparator();
    view->addActions(m_docks->toggleActions());

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addActions({m_browser->previousAction(), m_browser->nextAction(), m_browser->nextUnlabelledAction(),
                    m_browser->nextInQueueAction()});
    go->addSeparator();
    go->addActions(m_editor->frameActions());
    // The editor shows its tool actions in its own tool bar above the canvas; the window lists
    // them in a menu (with their shortcuts) instead of a second copy.
    menuBar()->addMenu(tr("&Tools"))->addActions(m_editor->toolActions());
    QMenu* dataset = menuBar()->addMenu(tr("&Dataset"));
    dataset->addActions({m_datasetActions->addImagesAction(), m_datasetActions->removeProblemsAction()});

    menuBar()->addMenu(new HelpMenu(this, m_workspaces));

    addToolBar(new ProjectToolBar({{m_newAction, m_openAction, m_saveAction}, m_undoAction, m_redoAction,
                                   m_editor->viewActions(), m_workspaces->actions()},
                                  this));
}

void MainWindow::connectParts()
{
    connect(m_startPage, &StartPage::newProjectRequested, m_newAction, &QAction::trigger);
    connect(m_startPage, &StartPage::openProjectRequested, m_openAction, &QAction::trigger);
    connect(m_startPage, &StartPage::importRequested, m_importAction, &QAction::trigger);
    connect(m_startPage, &StartPage::demoRequested, m_demoAction, &QAction::trigger);
    connect(m_startPage, &StartPage::recentProjectRequested, m_session, &ProjectSession::openInteractively);
    connect(m_session, &ProjectSession::documentChanged, this, &MainWindow::attachDocument);
    connect(m_session, &ProjectSession::opened, this, &MainWindow::projectOpened);
    connect(m_session, &ProjectSession::recentProjectsChanged, m_recentMenu, &RecentProjectsMenu::setProjects);
    connect(m_session, &ProjectSession::recentProjectsChanged, m_startPage, &StartPage::setRecentProjects);
    connect(m_recentMenu, &RecentProjectsMenu::projectChosen, m_session, &ProjectSession::openInteractively);
    connect(m_session, &ProjectSession::statusMessage, this, &MainWindow::showStatus);
    connect(m_session, &ProjectSession::recovered, this, &MainWindow::showRecovered);
    connect(m_datasetActions, &DatasetActions::statusMessage, this, &MainWindow::showStatus);
    connect(m_acceptor, &predictions::PredictionAcceptor::statusMessage, this,
            [this](const QString& text) { showStatus(text, kStatusTimeoutMs); });
    connect(m_propagator, &predictions::SequencePropagator::statusMessage, this,
            [this](const QString& text) { showStatus(text, kStatusTimeoutMs); });
    connect(m_browser, &browser::DatasetBrowser::statusMessage, this,
            [this](const QString& text) { showStatus(text, kStatusTimeoutMs); });
    connect(m_editor, &editor::LabelEditor::statusMessage, this,
            [this](const QString& text) { showStatus(text, kStatusTimeoutMs); });
    connect(m_editor, &editor::LabelEditor::errorOccurred, this,
            [this](const QString& text) { showStatus(text, 2 * kStatusTimeoutMs); });
    connect(m_predictions, &predictions::PredictionsDock::predictionProblem, this,
            [this](const QString& message) { showStatus(tr("Prediction: %1").arg(message), kStatusTimeoutMs); });
    connect(m_editor, &editor::LabelEditor::imageOpened, this, &MainWindow::updateImageCaption);
    connect(m_editor, &editor::LabelEditor::imageOpened, m_undoRouter, &UndoRouter::update);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_browser->proxy(), signal, this, &MainWindow::updateImageCaption);
    connect(m_browser->proxy(), &QAbstractItemModel::layoutChanged, this, &MainWindow::updateImageCaption);
    connect(m_browser->proxy(), &QAbstractItemModel::modelReset, this, &MainWindow::updateImageCaption);
    connect(m_editor, &editor::LabelEditor::labelsSaved, this, [this](const QString& labelMap) {
        m_savedLabel->setText(tr("Labels saved to %1 at %2").arg(labelMap, QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    });
    connect(m_editor, &editor::LabelEditor::modifiedChanged, this, &QWidget::setWindowModified);
    linkPanels({m_editor, m_browser, m_training, m_predictions, m_acceptor, m_propagator, m_workspaces, m_session}, this);
}

void MainWindow::attachDocument(document::ProjectDocument* doc)
{
    if (doc) {
        connect(doc, &document::ProjectDocument::busyChanged, this, &MainWindow::followBusy);
        connect(doc, &document::ProjectDocument::alert, this, &MainWindow::showAlert);
        connect(doc, &document::ProjectDocument::entriesChanged, this, &MainWindow::updateTitle);
        connect(doc, &document::ProjectDocument::schemaChanged, this, &MainWindow::updateTitle);
    }
    m_readOnlyBanner->showReason(doc ? doc->readOnlyReason() : QString());
    m_browser->setDocument(doc);
    m_editor->setDocument(doc);
    m_predictions->setDocument(doc);  // before the training panel: its run selection feeds it
    m_acceptor->setDocument(doc);
    m_propagator->setDocument(doc);
    m_training->setDocument(doc);
    m_jobProgress->setDocument(doc);
    m_central->setCurrentWidget(doc ? static_cast<QWidget*>(m_editor) : m_startPage);
    m_workspaces->setProjectOpen(doc != nullptr);
    if (!doc) {
        setWindowModified(false);
        m_savedLabel->clear();
        m_editor->setCaption({});
    }
    m_undoRouter->update();
    updateTitle();
    updateActions();
    // Restored work first: the user just chose to get it back.
    if (!doc)
        return;
    if (const auto recovered = m_editor->recoveredImage()) {
        m_workspaces->switchTo(Workspaces::Workspace::Label);  // the restored pixels, on the canvas
        m_browser->selectEntry(*recovered);
    }
    else if (doc->size() > 0)
        m_browser->selectNearestRow(0);  // the first image the browser shows, in its order
}

// While a job rewrites the label maps nothing else may read or write them: the window keeps
// painting (progress, Cancel), but images, classes and project commands wait.
void MainWindow::followBusy(bool busy)
{
    m_docks->setLabelsBusy(busy);
    for (QAction* action : {m_saveAction, m_closeAction})
        action->setEnabled(!busy);
    m_datasetActions->setEnabled(!busy);
}

// What must not scroll past in the status bar (labels at risk, what was kept where): a window-modal
// box that does not block the event loop, so work in progress goes on behind it.
void MainWindow::showAlert(const QString& title, const QString& text)
{
    m_session->setLastError(text);
    auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("alertBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

// Not modal: the window is usable at once, and the note stays until it is read (issue 46.12:
// a rolled-back batch accept was said only in a status line that the next message replaced).
void MainWindow::showRecovered(const QStringList& steps)
{
    auto* box = new QMessageBox(QMessageBox::Information, tr("Interrupted change put back"),
                                tr("The project's last session ended in the middle of a change. It was put back to the "
                                   "labels before it:\n\n%1").arg(steps.join(QLatin1Char('\n'))),
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("recoveredBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::showStatus(const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); }

void MainWindow::updateTitle()
{
    const data::Project* open = project();
    const QString name = open ? QString::fromStdString(open->file().filename().string()) : QString();
    setWindowTitle(open ? tr("%1[*] — SegStudio").arg(name) : QStringLiteral("SegStudio"));
    m_projectLabel->setText(open ? tr("%1 · %n image(s) · %2 classes", nullptr, int(open->size())).arg(name).arg(open->schema().size())
                                 : QString());
}

void MainWindow::updateImageCaption()
{
    const auto entry = m_editor->currentIndex();
    if (!document() || !entry || *entry >= document()->size()) {
        m_editor->setCaption({});
        return;
    }
    const QString name = QFileInfo(QString::fromStdString(project()->entry(*entry).image)).fileName();
    const int row = m_browser->proxy()->rowOfEntry(*entry);
    const int shown = m_browser->proxy()->rowCount();
    m_editor->setCaption(row >= 0 ? tr("%1 · %2 / %3").arg(name).arg(row + 1).arg(shown)
                                  : tr("%1 · not in the filtered list (%2 shown)").arg(name).arg(shown));
}

void MainWindow::updateActions()
{
    const bool open = document() != nullptr;
    for (QAction* action : {m_saveAction, m_closeAction, m_browser->nextAction(), m_browser->previousAction(),
                            m_browser->nextUnlabelledAction(), m_browser->nextInQueueAction()})
        action->setEnabled(open);
    // A read-only window saves nothing: Save is off, and says why where it is shown.
    const bool readOnly = open && document()->isReadOnly();
    m_saveAction->setEnabled(open && !readOnly);
    const QString saveTip = icons::nameAndKeys(*m_saveAction);
    m_saveAction->setToolTip(readOnly ? saveTip + u'\n' + document()->readOnlyReason() : saveTip);
    m_datasetActions->setEditable(!readOnly);
    m_datasetActions->setEnabled(open);
}

// A logout, a shutdown or `kill`: nobody answers questions now. Unsaved pixels become the
// recovery copy (offered at the next start; the label map on disk stays as last saved), the
// project file is saved and its lock removed, and a running training goes on in the background.
void MainWindow::shutDown()
{
    WindowSettings::write(*this);
    m_training->keepTrainingInBackground();
    m_session->shutDown();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    WindowSettings::write(*this);
    if (!m_training->confirmClose(this) || !closeProject()) {
        event->ignore();
        return;
    }
    event->accept();
}

}  // namespace segstudio::ui::shell
