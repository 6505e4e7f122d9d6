#include "MainWindow.h"

#include "DatasetBrowser.h"
#include "DemoProject.h"
#include "ImageFilterProxyModel.h"
#include "ImageListModel.h"
#include "ImportDatasetDialog.h"
#include "JobProgressBar.h"
#include "NewProjectDialog.h"
#include "PredictionService.h"
#include "LiveFineTuner.h"
#include "PredictionsDock.h"
#include "ReadOnlyBanner.h"
#include "RecentProjects.h"
#include "ShortcutsDialog.h"
#include "StartPage.h"
#include "TaskRunner.h"
#include "TrainingDock.h"
#include "UndoRouter.h"
#include "data/ExportFormat.h"
#include "data/PredictionCache.h"
#include "data/Project.h"
#include "document/AcceptPredictionsCommand.h"
#include "document/ProjectDocument.h"
#include "editor/ClassesPanel.h"
#include "editor/LabelEditor.h"
#include "editor/LabelingTips.h"
#include "editor/PredictionBar.h"
#include "editor/ToolSettings.h"

#include <QApplication>
#include <filesystem>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QCheckBox>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTime>
#include <QTimer>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QUndoView>
#include <algorithm>

namespace segstudio::ui {

namespace {

constexpr int kStatusTimeoutMs = 6000;

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_central(new QStackedWidget(this)),
      m_startPage(new StartPage(m_central)),
      m_editor(new LabelEditor(m_central)),
      m_browser(new DatasetBrowser(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    m_central->addWidget(m_startPage);
    m_central->addWidget(m_editor);
    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    m_readOnlyBanner = new ReadOnlyBanner(centre);
    centreLayout->addWidget(m_readOnlyBanner);
    centreLayout->addWidget(m_central, 1);
    setCentralWidget(centre);

    createActions();
    createDocks();
    createMenus();
    connectParts();
    m_projectLabel = new QLabel(this);
    m_savedLabel = new QLabel(this);
    m_savedLabel->setObjectName(QStringLiteral("savedLabel"));
    m_jobProgress = new JobProgressBar(this);
    statusBar()->addPermanentWidget(m_jobProgress);
    statusBar()->addPermanentWidget(m_savedLabel);
    statusBar()->addPermanentWidget(m_projectLabel);
    readSettings();
    updateRecentMenu();
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow()
{
    if (!m_document)
        return;
    // The parts hold the document: detach them before it goes (its destructor finishes a running
    // job and writes a pending project save).
    m_document->waitForIdle();
    m_editor->setDocument(nullptr);
    m_browser->setDocument(nullptr);
    m_predictions->setDocument(nullptr, nullptr);
}

const data::Project* MainWindow::project() const { return m_document ? &m_document->project() : nullptr; }

QUndoStack* MainWindow::projectUndoStack() const { return m_document ? m_document->undoStack() : nullptr; }

void MainWindow::createActions()
{
    auto make = [this](const QString& text, const QString& icon, const QKeySequence& shortcut, auto slot) {
        auto* action = new QAction(QIcon::fromTheme(icon), text, this);
        action->setShortcut(shortcut);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_newAction = make(tr("&New Project…"), QStringLiteral("document-new"), QKeySequence::New, &MainWindow::newProject);
    m_openAction = make(tr("&Open Project…"), QStringLiteral("document-open"), QKeySequence::Open,
                        &MainWindow::openProjectFromDialog);
    m_demoAction = make(tr("Open &Demo Project"), QString(), QKeySequence(), [this] {
        if (!openDemo())
            showError(tr("Demo project"), m_lastError);
    });
    m_saveAction = make(tr("&Save"), QStringLiteral("document-save"), QKeySequence::Save, &MainWindow::save);
    m_importAction = make(tr("&Import Dataset…"), QStringLiteral("document-import"), QKeySequence(Qt::CTRL | Qt::Key_I),
                          &MainWindow::importDataset);
    m_addImagesAction = make(tr("&Add Images…"), QStringLiteral("list-add"), QKeySequence(), &MainWindow::addImages);
    for (const data::ExportFormat format : data::allExportFormats())
        m_exportActions.push_back(make(exportTitle(format), QString(), QKeySequence(), [this, format] { exportLabels(format); }));
    m_closeAction = make(tr("&Close Project"), QStringLiteral("document-close"), QKeySequence::Close, &MainWindow::closeProject);
    m_quitAction = make(tr("&Quit"), QStringLiteral("application-exit"), QKeySequence::Quit, &QWidget::close);
    m_saveOnSwitchAction = new QAction(tr("Save Labels When &Switching Images"), this);
    m_saveOnSwitchAction->setCheckable(true);
    m_saveOnSwitchAction->setChecked(true);
    m_saveOnSwitchAction->setToolTip(tr("On: opening another image saves the current one's labels. "
                                        "Off: you are asked to save or discard."));
    connect(m_saveOnSwitchAction, &QAction::toggled, m_editor, &LabelEditor::setSaveOnSwitch);
    m_removeProblemsAction = make(tr("&Remove Images with Problems…"), QString(), QKeySequence(), &MainWindow::removeProblemImages);

    m_undoRouter = new UndoRouter(m_editor->undoGroup(), this);
    m_undoAction = m_undoRouter->undoAction();
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo")));
    m_redoAction = m_undoRouter->redoAction();
    // Both common redo keys, each once: QKeySequence::Redo already holds Ctrl+Shift+Z on X11, and
    // a key registered twice on one action is "ambiguous" to Qt and does nothing.
    m_redoAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo")));
}

void MainWindow::createDocks()
{
    m_browserDock = new QDockWidget(tr("Dataset"), this);
    m_browserDock->setObjectName(QStringLiteral("browserDock"));
    m_browserDock->setWidget(m_browser);
    addDockWidget(Qt::LeftDockWidgetArea, m_browserDock);

    m_classesDock = new QDockWidget(tr("Classes"), this);
    m_classesDock->setObjectName(QStringLiteral("classesDock"));
    m_classesDock->setWidget(m_editor->classesPanel());
    addDockWidget(Qt::RightDockWidgetArea, m_classesDock);
    resizeDocks({m_browserDock}, {380}, Qt::Horizontal);

    m_training = new TrainingDock(this);
    m_training->setBeforeTraining([this] { return save(); });
    m_training->setBeforeTrainDialog([this] { offerTrainingSplit(); });
    m_trainingDock = new QDockWidget(tr("Training"), this);
    m_trainingDock->setObjectName(QStringLiteral("trainingDock"));
    m_trainingDock->setWidget(m_training);
    addDockWidget(Qt::BottomDockWidgetArea, m_trainingDock);
    m_predictions = new PredictionsDock(this);
    m_predictionsDock = new QDockWidget(tr("Predictions"), this);
    m_predictionsDock->setObjectName(QStringLiteral("predictionsDock"));
    m_predictionsDock->setWidget(m_predictions);
    tabifyDockWidget(m_trainingDock, m_predictionsDock);
    m_trainingDock->raise();

    // The history of the undo group: the project's edits or the open image's, whichever is active.
    auto* history = new QUndoView(m_editor->undoGroup(), this);
    history->setEmptyLabel(tr("<opened>"));
    history->setObjectName(QStringLiteral("historyView"));
    m_historyDock = new QDockWidget(tr("History"), this);
    m_historyDock->setObjectName(QStringLiteral("historyDock"));
    m_historyDock->setWidget(history);
    addDockWidget(Qt::RightDockWidgetArea, m_historyDock);
    tabifyDockWidget(m_classesDock, m_historyDock);
    m_classesDock->raise();
    connect(m_training, &TrainingDock::currentRunChanged, m_predictions, &PredictionsDock::setRunDirectory);
    // The image on screen gets the chosen checkpoint's prediction, from the cache or computed.
    connect(m_editor, &LabelEditor::imageOpened, m_predictions->service(), &PredictionService::request);
    connect(m_predictions->service(), &PredictionService::predictionReady, this,
            [this](std::size_t index, const data::PredictionCache::Entry& prediction) {
                m_editor->setPrediction(index, prediction.classes, prediction.confidence, prediction.entropy, prediction.scores);
            });
    // A suspect label opens with the error map on, where the disagreement shows.
    connect(m_predictions, &PredictionsDock::openImageRequested, this, [this](std::size_t index) {
        m_editor->predictionBar()->setView(PredictionLayer::View::Errors);
        if (!m_browser->selectEntry(index))
            m_editor->requestImage(index);
    });
    connect(m_predictions->service(), &PredictionService::problem, this,
            [this](const QString& message) { statusBar()->showMessage(tr("Prediction: %1").arg(message), kStatusTimeoutMs); });
    connectLiveFineTuner();
}

// "Predict as I label": the fine-tune saves the labels first, gives way to the user's training,
// and once it learned, its run becomes the selected one, so the editor predicts with it.
void MainWindow::connectLiveFineTuner()
{
    LiveFineTuner* tuner = m_predictions->fineTuner();
    tuner->setBeforeLearning([this] { return save(); });
    TrainingLauncher* launcher = m_training->launcher();
    tuner->setUserTrainingBusy([launcher] { return launcher->isBusy(); });
    connect(launcher, &TrainingLauncher::started, tuner, &LiveFineTuner::userTrainingStarted);
    connect(launcher, &TrainingLauncher::finished, tuner, &LiveFineTuner::labelsChanged);
    connect(tuner, &LiveFineTuner::learned, this, [this](const QString& liveRun) {
        const QString name = QFileInfo(liveRun).fileName();
        const bool wasSelected = m_training->currentRunDirectory() == liveRun;
        m_training->refreshRuns();
        m_training->selectRun(name);
        if (wasSelected)
            m_predictions->reloadRun();  // same folder, new weights
        statusBar()->showMessage(tr("The model learned from your labels: predictions now come from %1").arg(name),
                                 2 * kStatusTimeoutMs);
    });
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addActions({m_newAction, m_openAction, m_demoAction});
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addSeparator();
    file->addAction(m_importAction);
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    for (QAction* action : m_exportActions)
        exportMenu->addAction(action);
    file->addSeparator();
    file->addActions({m_closeAction, m_quitAction});

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addActions({m_undoAction, m_redoAction});
    edit->addSeparator();
    edit->addAction(m_saveOnSwitchAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addActions(m_editor->viewActions());
    view->addSeparator();
    view->addActions({m_browser->showListAction(), m_browser->overlayAction()});
    view->addSeparator();
    view->addActions({m_browserDock->toggleViewAction(), m_classesDock->toggleViewAction(),
                      m_trainingDock->toggleViewAction(), m_predictionsDock->toggleViewAction(),
                      m_historyDock->toggleViewAction()});

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addActions({m_browser->previousAction(), m_browser->nextAction(), m_browser->nextUnlabelledAction(),
                    m_browser->nextInQueueAction()});

    QMenu* dataset = menuBar()->addMenu(tr("&Dataset"));
    dataset->addAction(m_addImagesAction);
    dataset->addAction(m_removeProblemsAction);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
        ShortcutsDialog dialog(ShortcutsDialog::collect(*this), this);
        dialog.exec();
    });
    shortcuts->setObjectName(QStringLiteral("help.shortcuts"));
    shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
    QAction* labelingTips = help->addAction(tr("How &Labeling Works"), this, [this] {
        if (!m_document) {  // no canvas to lay it over: the same text in a box
            QMessageBox::information(this, tr("How Labeling Works"), m_editor->labelingTips()->text());
            return;
        }
        m_central->setCurrentWidget(m_editor);
        m_editor->labelingTips()->showAgain();
    });
    labelingTips->setObjectName(QStringLiteral("help.labelingTips"));
    help->addAction(tr("&About SegStudio"), this, [this] {
        QMessageBox::about(this, tr("About SegStudio"),
                           tr("<b>SegStudio %1</b><p>Semantic segmentation: label, browse, train, inspect.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    // The editor shows its tool actions in its own tool bar above the canvas; a second copy here
    // would show every tool twice, so the window lists them in a menu (with their shortcuts).
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addActions(m_editor->toolActions());
    menuBar()->insertMenu(dataset->menuAction(), tools);

    QToolBar* main = addToolBar(tr("Project"));
    main->setObjectName(QStringLiteral("projectToolBar"));
    main->addActions({m_newAction, m_openAction, m_saveAction});
    main->addSeparator();
    // The tool bar gets fixed-text stand-ins: the real actions' text grows with the command
    // ("Undo Magic wand") and would shift every button after them; the tooltip says it whole.
    main->addActions({toolBarProxy(m_undoAction, tr("Undo")), toolBarProxy(m_redoAction, tr("Redo"))});
    if (!m_editor->viewActions().isEmpty()) {
        main->addSeparator();
        main->addActions(m_editor->viewActions());
    }
}

QAction* MainWindow::toolBarProxy(QAction* action, const QString& text)
{
    auto* proxy = new QAction(action->icon(), text, this);
    proxy->setObjectName(action->objectName().isEmpty() ? text : action->objectName() + QStringLiteral(".toolbar"));
    const auto mirror = [proxy, action] {
        proxy->setEnabled(action->isEnabled());
        proxy->setToolTip(QStringLiteral("%1 (%2)").arg(action->text().remove(u'&'),
                                                        action->shortcut().toString(QKeySequence::NativeText)));
    };
    connect(action, &QAction::changed, proxy, mirror);
    connect(proxy, &QAction::triggered, action, &QAction::trigger);
    mirror();
    return proxy;
}

void MainWindow::connectParts()
{
    connect(m_startPage, &StartPage::newProjectRequested, this, &MainWindow::newProject);
    connect(m_startPage, &StartPage::openProjectRequested, this, &MainWindow::openProjectFromDialog);
    connect(m_startPage, &StartPage::importRequested, this, &MainWindow::importDataset);
    connect(m_startPage, &StartPage::demoRequested, m_demoAction, &QAction::trigger);
    connect(m_startPage, &StartPage::recentProjectRequested, this, &MainWindow::openInteractively);

    connect(m_browser, &DatasetBrowser::currentEntryChanged, this, &MainWindow::followSelection);
    connect(m_browser, &DatasetBrowser::removeRequested, this, &MainWindow::removeEntries);
    connect(m_browser, &DatasetBrowser::acceptPredictionRequested, this, [this](const QList<std::size_t>& entries) {
        QMessageBox box(QMessageBox::Question, tr("Accept prediction"),
                        tr("Copy the predicted classes of %n image(s) into their labels? Locked classes keep their pixels; "
                           "Undo takes it back.", nullptr, int(entries.size())),
                        QMessageBox::Cancel, this);
        QPushButton* unlabelled = box.addButton(tr("Into unlabelled pixels"), QMessageBox::AcceptRole);
        QPushButton* everywhere = box.addButton(tr("Everywhere"), QMessageBox::AcceptRole);
        box.exec();
        if (box.clickedButton() == unlabelled || box.clickedButton() == everywhere)
            acceptPredictions(entries, box.clickedButton() == unlabelled);
    });
    connect(m_browser, &DatasetBrowser::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, kStatusTimeoutMs); });
    connect(m_editor, &LabelEditor::imageOpened, this, &MainWindow::updateImageCaption);
    connect(m_editor, &LabelEditor::imageOpened, m_undoRouter, &UndoRouter::update);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_browser->proxy(), signal, this, &MainWindow::updateImageCaption);
    connect(m_browser->proxy(), &QAbstractItemModel::layoutChanged, this, &MainWindow::updateImageCaption);
    connect(m_browser->proxy(), &QAbstractItemModel::modelReset, this, &MainWindow::updateImageCaption);

    connect(m_editor, &LabelEditor::imageLabelled, this, [this](std::size_t index, double fraction) {
        m_browser->model()->setLabelledFraction(int(index), fraction);
    });
    connect(m_editor, &LabelEditor::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, kStatusTimeoutMs); });
    connect(m_editor, &LabelEditor::errorOccurred, this,
            [this](const QString& message) { statusBar()->showMessage(message, 2 * kStatusTimeoutMs); });
    connect(m_editor, &LabelEditor::labelsSaved, this, [this](const QString& labelMap) {
        m_savedLabel->setText(tr("Labels saved to %1 at %2").arg(labelMap, QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    });
    connect(m_editor, &LabelEditor::modifiedChanged, this, [this](bool modified) {
        setWindowModified(modified);
        // A label map just reached disk: its counts and thumbnail follow.
        if (!modified && m_document) {
            if (auto index = m_editor->currentIndex())
                m_browser->model()->refreshRow(int(*index));
        }
    });
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_firstLayout)
        return;
    m_firstLayout = false;
    // Dock sizes apply to a laid-out window: after the show, once the layout has run.
    QTimer::singleShot(0, this, [this] { resizeDocks({m_trainingDock}, {std::max(280, height() / 3)}, Qt::Vertical); });
}

void MainWindow::readSettings()
{
    QSettings settings;
    // First start: the screen's available area, and the panels under the canvas a third of the
    // height, so the image being labeled gets the room (the training dock took half the window).
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1400, 860);
        resize(available.size());
        setWindowState(windowState() | Qt::WindowMaximized);
    }
    m_firstLayout = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_browser->showListAction()->setChecked(settings.value(QStringLiteral("browser/list"), false).toBool());
    m_browser->overlayAction()->setChecked(settings.value(QStringLiteral("browser/overlay"), false).toBool());
    m_saveOnSwitchAction->setChecked(settings.value(QStringLiteral("editor/saveOnSwitch"), true).toBool());
    m_predictions->learnIntervalBox()->setValue(settings.value(QStringLiteral("predictions/learnInterval"), 10).toInt());
    m_predictions->learnAsILabelBox()->setChecked(settings.value(QStringLiteral("predictions/learnAsILabel"), false).toBool());
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("browser/list"), m_browser->showListAction()->isChecked());
    settings.setValue(QStringLiteral("browser/overlay"), m_browser->overlayAction()->isChecked());
    settings.setValue(QStringLiteral("editor/saveOnSwitch"), m_saveOnSwitchAction->isChecked());
    settings.setValue(QStringLiteral("predictions/learnInterval"), m_predictions->learnIntervalBox()->value());
    settings.setValue(QStringLiteral("predictions/learnAsILabel"), m_predictions->learnAsILabelBox()->isChecked());
}

bool MainWindow::openProject(const QString& file)
{
    if (TaskRunner::isBusy()) {
        m_lastError = tr("Another long task is still running");
        return false;
    }
    // Already open here: it stays as it is (loading it again would find its own lock taken).
    std::error_code same;
    if (m_document && std::filesystem::equivalent(m_document->project().file(), file.toStdString(), same))
        return true;
    // Load before closing: a file that does not load leaves the open project as it was.
    std::unique_ptr<document::ProjectDocument> document;
    try {
        document = document::ProjectDocument::open(file.toStdString());
    } catch (const std::exception& error) {
        m_lastError = QString::fromStdString(error.what());
        statusBar()->showMessage(m_lastError, 2 * kStatusTimeoutMs);
        return false;
    }
    if (!closeProject()) {
        m_lastError = tr("The open project was not closed");
        return false;
    }
    showProject(std::move(document));
    QSettings settings;
    RecentProjects(settings).add(file);
    updateRecentMenu();
    emit projectOpened(file);
    return true;
}

bool MainWindow::openDemo(const QString& dir)
{
    const std::filesystem::path demoDir = (dir.isEmpty() ? DemoProject::defaultDir() : dir).toStdString();
    std::filesystem::path file;
    const auto result = TaskRunner::run(this, tr("Generating the demo project…"),
                                        [&](const data::ImportProgress&) { file = DemoProject::ensure(demoDir); });
    if (result.outcome != TaskRunner::Outcome::Done) {
        m_lastError = result.error.isEmpty() ? tr("Demo generation cancelled") : result.error;
        return false;
    }
    return openProject(QString::fromStdString(file.string()));
}

void MainWindow::showProject(std::unique_ptr<document::ProjectDocument> document)
{
    m_document = std::move(document);
    document::ProjectDocument* doc = m_document.get();
    m_editor->undoGroup()->addStack(doc->undoStack());
    // A project edit makes the project's stack the one Undo acts on (a pixel edit, the image's).
    connect(doc->undoStack(), &QUndoStack::indexChanged, m_editor->undoGroup(),
            [group = m_editor->undoGroup(), stack = doc->undoStack()] { group->setActiveStack(stack); });
    connect(doc, &document::ProjectDocument::busyChanged, this, &MainWindow::followBusy);
    connect(doc, &document::ProjectDocument::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 2 * kStatusTimeoutMs); });
    connect(doc, &document::ProjectDocument::errorOccurred, this, [this](const QString& message) {
        m_lastError = message;
        statusBar()->showMessage(message, 2 * kStatusTimeoutMs);
    });
    connect(doc, &document::ProjectDocument::alert, this, &MainWindow::showAlert);
    m_readOnlyBanner->showReason(doc->readOnlyReason());
    connect(doc, &document::ProjectDocument::entriesChanged, this, &MainWindow::updateTitle);
    connect(doc, &document::ProjectDocument::schemaChanged, this, &MainWindow::updateTitle);
    m_browser->setDocument(doc);
    m_editor->setDocument(doc);
    // Predictions first: the training dock's run selection feeds it, for this project.
    m_predictions->setDocument(doc, m_browser->model());
    m_training->setDocument(doc);
    m_jobProgress->setDocument(doc);
    m_central->setCurrentWidget(m_editor);
    m_browserDock->show();
    m_classesDock->show();
    updateTitle();
    updateActions();
    for (const QString& line : doc->recoveredSteps())
        statusBar()->showMessage(line, 4 * kStatusTimeoutMs);
    // Restored work first: the user just chose to get it back.
    if (const auto recovered = m_editor->recoveredImage())
        m_browser->selectEntry(*recovered);
    else if (doc->size() > 0)
        m_browser->selectNearestRow(0);  // the first image the browser shows, in its order
}

// Train… on a project where no image is in the training split (a folder opened without a split)
// would start a run that fails at once: offer the usual random split first, as one undoable step.
void MainWindow::offerTrainingSplit()
{
    if (!m_document || m_document->isReadOnly())
        return;
    int unassigned = 0;
    for (const auto& entry : m_document->project().entries()) {
        if (entry.split == data::Split::Train)
            return;
        unassigned += entry.split == data::Split::Unassigned ? 1 : 0;
    }
    if (unassigned == 0)
        return;
    const auto answer = QMessageBox::question(
        this, tr("Train"),
        tr("No image is in the training split, so a run would have nothing to learn from.\n\n"
           "Split the %1 unassigned images at random: 70 % train, 15 % validation, 15 % test? "
           "Edit > Undo takes it back.")
            .arg(unassigned),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes && m_document->splitUnassigned({0.7, 0.15, 0.15}))
        statusBar()->showMessage(tr("Split %1 images: 70 % train, 15 % validation, 15 % test").arg(unassigned), kStatusTimeoutMs);
}

// What must not scroll past in the status bar (labels at risk, what was kept where): a window-modal
// box that does not block the event loop, so work in progress goes on behind it.
void MainWindow::showAlert(const QString& title, const QString& text)
{
    m_lastError = text;
    auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("alertBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::followBusy(bool busy)
{
    // While a merge rewrites the label maps nothing else may read or write them: the window keeps
    // painting (progress, Cancel), but images, classes and undo wait.
    m_browserDock->widget()->setEnabled(!busy);
    m_classesDock->widget()->setEnabled(!busy);
    m_editor->undoGroup()->setActiveStack(busy ? nullptr : m_document->undoStack());
    for (QAction* action : {m_saveAction, m_closeAction, m_addImagesAction, m_removeProblemsAction})
        action->setEnabled(!busy);
    for (QAction* action : m_exportActions)
        action->setEnabled(!busy);
}

bool MainWindow::closeProject()
{
    // A running task (export, import) may be reading the project: its window is disabled, but a
    // programmatic call or a queued close must not pull the project out from under it either.
    if (TaskRunner::isBusy() || (m_document && m_document->isBusy())) {
        m_lastError = tr("A long task is still running on the project");
        return false;
    }
    if (!m_document) {
        m_central->setCurrentWidget(m_startPage);
        return true;
    }
    if (!m_editor->maybeSave(this))
        return false;
    if (m_document->isModified() && !m_document->save()
        && QMessageBox::warning(this, tr("Close project"), tr("%1\n\nClose anyway and lose these changes?").arg(m_lastError),
                                QMessageBox::Discard | QMessageBox::Cancel)
               == QMessageBox::Cancel)
        return false;
    releaseProject();
    return true;
}

// The project goes without a question: what closeProject() does once the user has answered.
void MainWindow::releaseProject()
{
    m_readOnlyBanner->showReason({});
    m_editor->setDocument(nullptr);
    m_browser->setDocument(nullptr);
    m_training->setDocument(nullptr);
    m_predictions->setDocument(nullptr, nullptr);
    m_jobProgress->setDocument(nullptr);
    m_editor->undoGroup()->removeStack(m_document->undoStack());
    m_document.reset();  // its commands' backups go with it
    m_undoRouter->update();
    QSettings settings;
    m_startPage->setRecentProjects(RecentProjects(settings).files());
    m_central->setCurrentWidget(m_startPage);
    setWindowModified(false);
    m_savedLabel->clear();
    m_editor->setCaption({});
    updateTitle();
    updateActions();
}

bool MainWindow::acceptPredictions(const QList<std::size_t>& entries, bool unlabelledOnly)
{
    const QString checkpoint = m_predictions->checkpointFile();
    if (m_document && m_document->isReadOnly()) {
        statusBar()->showMessage(m_document->readOnlyReason(), 2 * kStatusTimeoutMs);
        return false;
    }
    if (!m_document || m_document->isBusy() || checkpoint.isEmpty() || entries.isEmpty()) {
        statusBar()->showMessage(tr("Choose a run with predictions first (Training panel)"), kStatusTimeoutMs);
        return false;
    }
    if (!save())  // the open image's edits reach disk before the batch reads them
        return false;
    const data::PredictionCache cache(m_predictions->runDirectory().toStdString(), checkpoint.toStdString());
    const auto stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    auto batch = std::make_shared<paint::PredictionBatch>(m_document->newBackupFolder());
    paint::AcceptOptions options;
    options.unlabelledOnly = unlabelledOnly;
    options.minConfidence = m_editor->predictionBar()->minConfidence();
    const paint::WriteGuard guard = m_editor->toolSettings()->guard();
    const std::vector<std::size_t> indices(entries.begin(), entries.end());
    std::int64_t pixels = 0;
    const auto result = TaskRunner::run(this, tr("Accepting the prediction…"), [&](const data::ImportProgress& progress) {
        pixels = batch->apply(m_document->project(), cache, indices, options, guard, progress);
    });
    if (result.outcome == TaskRunner::Outcome::Failed) {
        batch->discard();  // the batch put back what it had replaced (kept if it could not)
        showError(tr("Accept prediction"), result.error);
        m_document->announceLabelMaps(batch->changed(), {});
        return false;
    }
    if (batch->changed().empty()) {
        batch->discard();
        statusBar()->showMessage(tr("Nothing to accept: no current prediction, or nothing the locks allow"), kStatusTimeoutMs);
        return false;
    }
    const QString text = tr("Accept prediction for %n image(s)", nullptr, int(batch->changed().size()));
    m_document->pushLabelMapsEdit(new document::AcceptPredictionsCommand(m_document.get(), batch, text));
    m_document->announceLabelMaps(batch->changed(), {});
    m_document->announceReplacedMaps(batch->changed());
    statusBar()->showMessage(tr("%1: %2 pixels (Undo takes it back)").arg(text).arg(pixels), kStatusTimeoutMs);
    return true;
}

bool MainWindow::save()
{
    if (!m_document)
        return false;
    const bool labelsSaved = m_editor->save();
    const bool projectSaved = m_document->save();
    if (projectSaved && labelsSaved)
        statusBar()->showMessage(tr("Saved"), kStatusTimeoutMs);
    return labelsSaved && projectSaved;
}

void MainWindow::followSelection(std::size_t entry)
{
    if (m_editor->currentIndex() == entry && !m_editor->isOpening())
        return;
    m_editor->requestImage(entry);  // decoded on workers: flipping through images never stalls the window
}

void MainWindow::newProject()
{
    NewProjectDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !closeProject())
        return;
    const auto request = dialog.request();
    createProject(tr("New project"), tr("Adding images…"), request.projectFile,
                  [&](const data::ImportProgress& progress) { return NewProjectDialog::create(request, progress); });
}

void MainWindow::importDataset()
{
    ImportDatasetDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !closeProject())
        return;
    const auto request = dialog.request();
    createProject(tr("Import dataset"), tr("Importing dataset…"), request.projectFile,
                  [&](const data::ImportProgress& progress) { return ImportDatasetDialog::import(request, progress); });
}

void MainWindow::createProject(const QString& title, const QString& progressLabel, const QString& projectFile,
                               const std::function<data::Project(const data::ImportProgress&)>& make)
{
    data::Project project;
    const auto result = TaskRunner::run(this, progressLabel, [&](const data::ImportProgress& progress) {
        project = make(progress);
    });
    if (result.outcome == TaskRunner::Outcome::Failed)
        showError(title, result.error);
    if (result.outcome != TaskRunner::Outcome::Done)
        return;
    showProject(std::make_unique<document::ProjectDocument>(std::move(project)));
    QSettings settings;
    RecentProjects(settings).add(projectFile);
    updateRecentMenu();
}

void MainWindow::openProjectFromDialog()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open Project"), QString(),
                                                      tr("SegStudio projects (*.segstudio);;All files (*)"));
    if (!file.isEmpty())
        openInteractively(file);
}

void MainWindow::openInteractively(const QString& file)
{
    if (!openProject(file))
        showError(tr("Open project"), m_lastError);
}

QString MainWindow::exportTitle(data::ExportFormat format)
{
    switch (format) {
    case data::ExportFormat::IndexPngs:
        return tr("Label Maps as &Index PNGs…");
    case data::ExportFormat::ColourMasks:
        return tr("Label Maps as &Colour Masks…");
    case data::ExportFormat::Coco:
        return tr("Labels as CO&CO (RLE)…");
    case data::ExportFormat::Cityscapes:
        return tr("Labels as Ci&tyscapes…");
    case data::ExportFormat::Labelme:
        return tr("Labels as &labelme Polygons…");
    case data::ExportFormat::Cvat:
        return tr("Labels as C&VAT Masks…");
    }
    return {};
}

void MainWindow::exportLabels(data::ExportFormat format)
{
    if (!m_document || !m_editor->maybeSave(this))
        return;
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export label maps into"));
    if (dir.isEmpty())
        return;
    std::size_t count = 0;
    const data::Project& project = m_document->project();
    const auto result = TaskRunner::run(this, tr("Exporting label maps…"), [&](const data::ImportProgress& progress) {
        count = data::exportLabels(format, project, dir.toStdString(), progress);
    });
    if (result.outcome == TaskRunner::Outcome::Failed)
        showError(tr("Export"), result.error);
    else if (result.outcome == TaskRunner::Outcome::Done)
        statusBar()->showMessage(tr("Exported %n label map(s) to %1", nullptr, int(count)).arg(dir), kStatusTimeoutMs);
}

void MainWindow::removeEntries(const QList<std::size_t>& entries)
{
    if (!m_document || entries.isEmpty() || TaskRunner::isBusy())
        return;
    if (QMessageBox::question(this, tr("Remove images"),
                              tr("Remove %n image(s) from the project? The files stay on disk; Undo puts them back.",
                                 nullptr, int(entries.size())))
        != QMessageBox::Yes)
        return;
    if (!m_editor->maybeSave(this))
        return;
    const std::optional<std::size_t> current = m_browser->currentEntry();
    const int currentRow = current ? m_browser->proxy()->rowOfEntry(*current) : -1;
    if (!m_document->removeImages({entries.begin(), entries.end()}))
        return;
    // Show an image again: the one that was current when it stayed (at its shifted index), else
    // the one that moved into its place in the view.
    if (current && !entries.contains(*current)) {
        const auto before = std::count_if(entries.begin(), entries.end(), [&](std::size_t e) { return e < *current; });
        if (m_browser->selectEntry(*current - std::size_t(before)))
            return;
    }
    m_browser->selectNearestRow(currentRow);
}

void MainWindow::addImages()
{
    if (!m_document)
        return;
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Add Images"), QString::fromStdString(m_document->project().root().string()),
        tr("Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff);;All files (*)"));
    std::vector<std::filesystem::path> images;
    for (const QString& file : files)
        images.emplace_back(file.toStdString());
    if (const std::size_t added = m_document->addImages(images, data::Split::Unassigned))
        statusBar()->showMessage(tr("Added %n image(s) (Undo takes them out again)", nullptr, int(added)), kStatusTimeoutMs);
}

void MainWindow::removeProblemImages()
{
    if (!m_document)
        return;
    const QList<int> rows = m_browser->model()->problemRows();
    if (rows.isEmpty()) {
        QMessageBox::information(this, tr("Images with problems"),
                                 m_browser->model()->statsComplete()
                                     ? tr("No image with a problem was found.")
                                     : tr("No problem found so far; the images are still being checked."));
        return;
    }
    QStringList lines;
    for (int row : rows.mid(0, 20))
        lines << m_browser->model()->data(m_browser->model()->index(row, 0), ImageListModel::ProblemRole).toString();
    if (rows.size() > 20)
        lines << tr("… and %1 more").arg(rows.size() - 20);
    QList<std::size_t> entries;
    for (int row : rows)
        entries << std::size_t(row);
    QMessageBox box(QMessageBox::Warning, tr("Images with problems"),
                    tr("%n image(s) cannot be used:", nullptr, int(rows.size())), QMessageBox::Cancel, this);
    box.setDetailedText(lines.join(u'\n'));
    box.setInformativeText(lines.mid(0, 5).join(u'\n'));
    QPushButton* remove = box.addButton(tr("Remove from Project"), QMessageBox::DestructiveRole);
    box.exec();
    if (box.clickedButton() == remove)
        removeEntries(entries);
}

void MainWindow::updateRecentMenu()
{
    QSettings settings;
    const QStringList files = RecentProjects(settings).files();
    m_recentMenu->clear();
    for (const QString& file : files)
        m_recentMenu->addAction(QFileInfo(file).fileName(), this, [this, file] { openInteractively(file); })->setToolTip(file);
    m_recentMenu->setEnabled(!files.isEmpty());
    m_startPage->setRecentProjects(files);
}

void MainWindow::updateTitle()
{
    const data::Project* open = project();
    if (!open) {
        setWindowTitle(QStringLiteral("SegStudio"));
        m_projectLabel->clear();
        return;
    }
    const QString name = QString::fromStdString(open->file().filename().string());
    setWindowTitle(tr("%1[*] — SegStudio").arg(name));
    m_projectLabel->setText(tr("%1 · %n image(s) · %2 classes", nullptr, int(open->size()))
                                .arg(name)
                                .arg(open->schema().size()));
}

void MainWindow::updateImageCaption()
{
    const auto entry = m_editor->currentIndex();
    if (!m_document || !entry || *entry >= m_document->size()) {
        m_editor->setCaption({});
        return;
    }
    const QString name = QFileInfo(QString::fromStdString(m_document->project().entry(*entry).image)).fileName();
    const int row = m_browser->proxy()->rowOfEntry(*entry);
    const int shown = m_browser->proxy()->rowCount();
    m_editor->setCaption(row >= 0 ? tr("%1 · %2 / %3").arg(name).arg(row + 1).arg(shown)
                                  : tr("%1 · not in the filtered list (%2 shown)").arg(name).arg(shown));
}

void MainWindow::updateActions()
{
    const bool open = m_document != nullptr;
    for (QAction* action : {m_saveAction, m_closeAction, m_removeProblemsAction, m_addImagesAction})
        action->setEnabled(open);
    for (QAction* action : m_exportActions)
        action->setEnabled(open);
    for (QAction* action : {m_browser->nextAction(), m_browser->previousAction(), m_browser->nextUnlabelledAction(),
                            m_browser->nextInQueueAction()})
        action->setEnabled(open);
    m_browserDock->setVisible(open);
    m_classesDock->setVisible(open);
    m_historyDock->setVisible(open);
}

void MainWindow::showError(const QString& title, const QString& message)
{
    QMessageBox::warning(this, title, message);
}

// A logout, a shutdown or `kill`: nobody answers questions now. Unsaved pixels become the
// recovery copy (offered at the next start; the label map on disk stays as last saved), the
// project file is saved and its lock removed, and a running training goes on in the background.
void MainWindow::shutDown()
{
    writeSettings();
    m_training->launcher()->keepRunningInBackground();
    m_editor->keepEditsForRecovery();
    if (m_document) {
        m_document->waitForIdle();
        if (m_document->isModified())
            m_document->save();
        releaseProject();
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    writeSettings();
    if (!m_training->confirmClose(this) || !closeProject()) {
        event->ignore();
        return;
    }
    event->accept();
}

}  // namespace segstudio::ui
