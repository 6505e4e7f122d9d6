#include "LabelEditor.h"
#include "document/WorkerPool.h"

#include "FrameActions.h"
#include "ImageLoader.h"
#include "LabelingTips.h"
#include "RecoveryQuestion.h"
#include "PixelHistoryCache.h"

#include "ClassHotkeys.h"
#include "ClassesPanel.h"
#include "FrameNavigator.h"
#include "FramePropagation.h"
#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "PredictionBar.h"
#include "RecoveryKeeper.h"
#include "ReleaseOnWorker.h"
#include "ToolActions.h"
#include "ToolOptionsBar.h"
#include "ToolSettings.h"
#include "ViewActions.h"

#include "icons/ActionToolTips.h"

#include "run/AtomicFile.h"
#include "data/labels/LabelMapIO.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "data/labels/RecoveryStore.h"
#include "data/labels/LabelCounts.h"
#include "paint/PredictionAcceptance.h"
#include "paint/RegionMask.h"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMetaMethod>
#include <QShortcut>
#include <QTimer>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <utility>


namespace segstudio::ui {

namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

}  // namespace

// Everything the editor owns. Kept out of the header so the shell does not rebuild with it.
class LabelEditor::Private {
public:
    document::ProjectDocument* projectDocument = nullptr;
    std::shared_ptr<data::RecoveryStore> recovery;
    RecoveryKeeper* keeper = nullptr;
    RecoveryPrompt recoveryPrompt;
    bool saveOnSwitch = true;
    std::unique_ptr<LabelDocument> document;
    std::optional<std::size_t> index;
    // The image being opened on a worker (requestImage); results of older opens are dropped.
    QFuture<ImageLoader::Loaded> opening;
    quint64 openGeneration = 0;
    bool openPending = false;
    std::size_t openingIndex = 0;
    std::optional<std::size_t> reopenAfterJob;  // an open a dataset job interrupted
    QUndoGroup* undoGroup = nullptr;
    PixelHistoryCache history;  // the undo stacks of images left, to come back to
    ToolSettings* settings = nullptr;
    LabelCanvas* canvas = nullptr;
    ClassesPanel* classesPanel = nullptr;
    QToolBar* toolBar = nullptr;
    PredictionBar* predictionBar = nullptr;
    QToolBar* optionsBar = nullptr;  // a second row: a tool bar outside a QMainWindow cannot show its "»" overflow
    QLabel* caption = nullptr;       // "name · 12 / 468"
    QList<QAction*> toolActions;
    QList<QAction*> viewActions;
    QTimer* countTimer = nullptr;
    LabelingTips* tips = nullptr;
    FrameNavigator* frames = nullptr;
    FramePropagation* propagation = nullptr;
    QList<QAction*> frameActions;
    QList<QAction*> propagateActions;
    bool lastModified = false;
};

LabelEditor::LabelEditor(QWidget* parent) : QWidget(parent), m_d(std::make_unique<Private>())
{
    setObjectName(QStringLiteral("LabelEditor"));
    m_d->undoGroup = new QUndoGroup(this);
    m_d->settings = new ToolSettings(this);
    m_d->canvas = new LabelCanvas(this);
    m_d->classesPanel = new ClassesPanel(m_d->settings, this);
    m_d->toolBar = new QToolBar(tr("Label tools"), this);
    // Icons, as in Krita, GIMP and CVAT: nine tools in words filled 1600 px. Each tooltip says
    // the tool's name and key (setIconToolTips below).
    m_d->toolBar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    m_d->toolBar->setIconSize(QSize(22, 22));  // Breeze's grid: sharp, not scaled
    m_d->optionsBar = new ToolOptionsBar(m_d->settings, m_d->canvas, this);
    m_d->predictionBar = new PredictionBar(this);
    m_d->caption = new QLabel(this);
    m_d->caption->setObjectName(QStringLiteral("imageCaption"));
    m_d->caption->setContentsMargins(6, 2, 6, 2);
    m_d->caption->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_d->toolBar);
    layout->addWidget(m_d->optionsBar);
    layout->addWidget(m_d->predictionBar);
    layout->addWidget(m_d->caption);
    layout->addWidget(m_d->canvas, 1);

    auto* tools = new ToolActions(this, m_d->toolBar, m_d->settings, m_d->canvas);
    connect(tools, &ToolActions::message, this, &LabelEditor::statusMessage);
    m_d->toolActions = tools->actions();
    // A tool bar outside a QMainWindow cannot wrap: narrower than its tools, it hides the last ones
    // (Smart Click, Picker) behind "»", where nobody looks for them. The editor is never narrower
    // than its tools, so a dock widened beside it stops there.
    m_d->toolBar->setMinimumWidth(m_d->toolBar->sizeHint().width());
    m_d->viewActions = (new ViewActions(this, m_d->canvas, m_d->settings))->actions();
    setIconToolTips(m_d->toolActions + m_d->viewActions);
    createClassShortcuts();
    createFrameActions();
    m_d->tips = new LabelingTips(m_d->toolActions, m_d->canvas);

    // Recounting 12 MP takes ~10 ms: do it once after a burst of changes, not per dab.
    m_d->countTimer = new QTimer(this);
    m_d->countTimer->setSingleShot(true);
    m_d->countTimer->setInterval(150);
    connect(m_d->countTimer, &QTimer::timeout, this, &LabelEditor::updateCounts);

    m_d->keeper = new RecoveryKeeper(this);
    connect(m_d->keeper, &RecoveryKeeper::writeFailed, this,
            [this](const QString& message) { reportError(tr("Could not write the recovery copy: %1").arg(message)); });

    connect(m_d->canvas, &LabelCanvas::editRefused, this, [this] { emit statusMessage(whyNotEditable()); });
    connect(m_d->canvas, &LabelCanvas::hoverChanged, this, &LabelEditor::updateStatus);
    connect(m_d->canvas, &LabelCanvas::scaleChanged, this, &LabelEditor::updateStatus);
    connect(m_d->classesPanel, &ClassesPanel::addRequested, this, &LabelEditor::addClass);
    connect(m_d->classesPanel, &ClassesPanel::renameRequested, this, &LabelEditor::renameClass);
    connect(m_d->classesPanel, &ClassesPanel::recolourRequested, this, &LabelEditor::recolourClass);
    connect(m_d->classesPanel, &ClassesPanel::mergeRequested, this, &LabelEditor::mergeClasses);
    connect(m_d->classesPanel, &ClassesPanel::deleteRequested, this, &LabelEditor::deleteClass);
    connect(m_d->classesPanel, &ClassesPanel::fillUnlabelledRequested, this, &LabelEditor::fillUnlabelled);
    connect(m_d->classesPanel, &ClassesPanel::visibilityChanged, m_d->canvas, &LabelCanvas::setClassVisible);
    connect(m_d->predictionBar, &PredictionBar::viewChanged, m_d->canvas, &LabelCanvas::setPredictionView);
    connect(m_d->predictionBar, &PredictionBar::opacityChanged, m_d->canvas, &LabelCanvas::setPredictionOpacity);
    connect(m_d->predictionBar, &PredictionBar::acceptRequested, this, [this](bool unlabelledOnly, int minConfidence) {
        paint::AcceptOptions options;
        options.unlabelledOnly = unlabelledOnly;
        options.minConfidence = minConfidence;
        const auto changed = acceptPrediction(options);
        if (changed >= 0)
            emit statusMessage(tr("Accepted the prediction for %n pixel(s) (Undo takes it back)", nullptr, int(changed)));
    });
    updateTitle();
}

LabelEditor::~LabelEditor()
{
    // The keeper writes what is pending while the document still exists.
    m_d->keeper->setDocument(nullptr);
    m_d->keeper->waitForWrites();
    // Tools hold the canvas; drop the document before the widgets go.
    m_d->canvas->setTool(nullptr);
    m_d->canvas->setDocument(nullptr);
}

void LabelEditor::createClassShortcuts()
{
    // 1…9, 0 and Shift+1…Shift+0 select the class ClassHotkeys gives each key (the classes
    // panel's Key column shows the same), so an 11th class is not left without one.
    for (int slot = 0; slot < ClassHotkeys::kSlots; ++slot) {
        auto* shortcut = new QShortcut(ClassHotkeys::key(slot), this, nullptr, nullptr, Qt::WindowShortcut);
        shortcut->setWhatsThis(tr("Select the class with hotkey %1 (else class number %2 in the list)")
                                   .arg(ClassHotkeys::keyText(slot))
                                   .arg(slot + 1));
        connect(shortcut, &QShortcut::activated, this, [this, slot] {
            if (!project())
                return;
            if (const auto classId = ClassHotkeys::classOf(project()->schema(), slot))
                m_d->settings->setCurrentClass(*classId);
        });
    }
}

void LabelEditor::createFrameActions()
{
    m_d->frames = new FrameNavigator(this);
    m_d->propagation = new FramePropagation(this);
    connect(m_d->propagation, &FramePropagation::statusMessage, this, &LabelEditor::statusMessage);
    connect(m_d->propagation, &FramePropagation::reviewChanged, m_d->canvas, &LabelCanvas::setReviewLayer);
    auto* actions = new FrameActions(this, m_d->optionsBar);
    connect(actions, &FrameActions::stepRequested, this, &LabelEditor::goToFrame);
    connect(actions, &FrameActions::propagateRequested, this, &LabelEditor::propagateFrom);
    m_d->frameActions = actions->stepActions();
    m_d->propagateActions = actions->propagateActions();
}

void LabelEditor::goToFrame(bool next)
{
    // While a frame opens, the next step goes on from it: Alt+Page Down held steps through them.
    const std::optional<std::size_t> from = m_d->openPending ? std::optional<std::size_t>(m_d->openingIndex) : m_d->index;
    if (!from || !project())
        return;
    const QString name = QFileInfo(fromStd(project()->entry(*from).image)).fileName();
    if (!m_d->frames->inSequence(*from)) {
        emit statusMessage(tr("%1 is a frame alone: no other image's name differs from it only by its number.").arg(name));
        return;
    }
    const auto to = m_d->frames->neighbour(*from, next ? FrameNavigator::Direction::Next : FrameNavigator::Direction::Previous);
    if (!to) {
        emit statusMessage(next ? tr("%1 is the last frame of its sequence.").arg(name)
                                : tr("%1 is the first frame of its sequence.").arg(name));
        return;
    }
    if (isSignalConnected(QMetaMethod::fromSignal(&LabelEditor::frameRequested)))
        emit frameRequested(*to);  // the browser selects it, and opens it through its selection
    else
        requestImage(*to);
}

void LabelEditor::propagateFrom(bool next)
{
    LabelDocument* doc = m_d->document.get();
    if (!doc || !m_d->index || !project())
        return;
    if (!m_d->canvas->isEditable()) {
        emit statusMessage(whyNotEditable());
        return;
    }
    const std::size_t index = *m_d->index;
    const QString name = QFileInfo(fromStd(doc->imageKey())).fileName();
    if (!m_d->frames->inSequence(index)) {
        emit statusMessage(tr("%1 is a frame alone: there is no frame to carry labels from.").arg(name));
        return;
    }
    FramePropagation::Request request;
    request.direction = next ? FrameNavigator::Direction::Next : FrameNavigator::Direction::Previous;
    for (const std::size_t frame : m_d->frames->labelledFrames(index, request.direction))
        request.sources.push_back({project()->imagePath(frame), project()->labelMapPath(frame), project()->entry(frame).image});
    if (request.sources.empty()) {
        emit statusMessage(next ? tr("No frame after %1 in its sequence is labelled.").arg(name)
                                : tr("No frame before %1 in its sequence is labelled.").arg(name));
        return;
    }
    request.schema = project()->schema();
    request.guard = m_d->settings->guard();
    // The model's view of this frame marks where it contradicts what the flow carries: "sure" is
    // at least even odds, or the Accept threshold where the user set it higher.
    const PredictionLayer& prediction = m_d->canvas->prediction();
    if (prediction.hasPrediction())
        request.prediction = {prediction.classes(), prediction.confidence()};
    request.minConfidence = std::max(request.minConfidence, m_d->predictionBar->minConfidence());
    m_d->propagation->start(doc, std::move(request));
}

bool LabelEditor::isPropagating() const { return m_d->propagation->isRunning(); }

void LabelEditor::cancelOpen()
{
    ++m_d->openGeneration;  // a result still on its way is dropped
    m_d->openPending = false;
    updateEditable();
    if (m_d->document && !m_d->undoGroup->activeStack())
        m_d->undoGroup->setActiveStack(m_d->document->undoStack());
}

void LabelEditor::setDocument(document::ProjectDocument* projectDocument)
{
    if (projectDocument == m_d->projectDocument)
        return;
    cancelOpen();
    if (m_d->document && m_d->document->isModified())
        save();  // autosave, as on image switch; a failure is reported and the recovery file kept
    closeDocument();
    m_d->history.clear();  // another project's images
    m_d->keeper->setStore(nullptr);
    m_d->keeper->waitForWrites();
    m_d->recovery.reset();
    if (m_d->projectDocument) {
        disconnect(m_d->projectDocument, nullptr, this, nullptr);
        m_d->projectDocument->setBeforeLabelMapsChange({});
    }
    m_d->projectDocument = projectDocument;
    m_d->frames->setDocument(projectDocument);
    if (!projectDocument) {
        m_d->canvas->setSchema({});
        m_d->classesPanel->setSchema({});
        return;
    }
    connectDocument();
    schemaChanged();
    updateEditable();
    if (projectDocument->isReadOnly()) {
        // Nothing is written, not even recovery copies: another SegStudio's copies are its live
        // work, not leftovers of a crash, and a read-only folder takes none.
        emit statusMessage(projectDocument->readOnlyReason());
        return;
    }
    m_d->recovery = std::make_shared<data::RecoveryStore>(project()->root());
    m_d->keeper->setStore(m_d->recovery);
    offerRecovery();
}

// Pixels take edits only when they can be saved: the project is writable, no merge rewrites the
// maps, and the image on screen is the one whose edits would be kept.
void LabelEditor::updateEditable()
{
    const document::ProjectDocument* doc = m_d->projectDocument;
    const bool writable = !doc || (!doc->isBusy() && !doc->isReadOnly());
    m_d->canvas->setEditable(writable && !m_d->openPending);
    // What cannot act is disabled (issue 47.12): a read-only window's tools and class buttons,
    // with the reason in their tooltips; the canvas says it on the first click.
    const bool readOnly = doc && doc->isReadOnly();
    for (QAction* tool : m_d->toolActions + m_d->propagateActions)
        tool->setEnabled(!readOnly);
    m_d->classesPanel->setEditable(writable, whyNotEditable());
}

QString LabelEditor::whyNotEditable() const
{
    const document::ProjectDocument* doc = m_d->projectDocument;
    if (doc && doc->isReadOnly())
        return doc->readOnlyReason();
    if (doc && doc->isBusy())
        return tr("The label maps are being rewritten: edits wait until that job ends.");
    if (m_d->openPending)
        return tr("The image is still opening.");
    return {};
}

void LabelEditor::connectDocument()
{
    using document::ProjectDocument;
    ProjectDocument* doc = m_d->projectDocument;
    // The open image's edits reach disk before a dataset-wide change reads the maps.
    doc->setBeforeLabelMapsChange([this] { return !isModified() || save(); });
    connect(doc, &ProjectDocument::schemaChanged, this, &LabelEditor::schemaChanged);
    connect(doc, &ProjectDocument::imageAboutToBeRemoved, this, &LabelEditor::onImageAboutToBeRemoved);
    connect(doc, &ProjectDocument::imageRemoved, this, &LabelEditor::onImageRemoved);
    connect(doc, &ProjectDocument::imageInserted, this, &LabelEditor::onImageInserted);
    connect(doc, &ProjectDocument::classesRemapped, this, &LabelEditor::onClassesRemapped);
    connect(doc, &ProjectDocument::classesRemapUndone, this, &LabelEditor::onClassesRemapUndone);
    connect(doc, &ProjectDocument::labelMapsReplaced, this, &LabelEditor::onLabelMapsReplaced);
    // While a merge rewrites the maps, the open one must not be edited or saved.
    connect(doc, &ProjectDocument::busyChanged, this, [this](bool busy) {
        updateEditable();
        if (busy)
            m_d->propagation->cancel();  // the maps it read are being rewritten
        // An image decoding now was read before the maps are rewritten: open it again afterwards.
        if (busy && m_d->openPending) {
            m_d->reopenAfterJob = m_d->openingIndex;
            cancelOpen();
            m_d->canvas->setEditable(false);
        } else if (!busy && m_d->reopenAfterJob) {
            requestImage(*std::exchange(m_d->reopenAfterJob, std::nullopt));
        }
    });
}

document::ProjectDocument* LabelEditor::projectDocument() const { return m_d->projectDocument; }

const data::Project* LabelEditor::project() const
{
    return m_d->projectDocument ? &m_d->projectDocument->project() : nullptr;
}

void LabelEditor::onImageAboutToBeRemoved(std::size_t index)
{
    if (m_d->openPending)
        cancelOpen();  // its index may be the one going, or shift
    if (m_d->index == index) {
        if (isModified())
            save();  // the caller asked the user already; this is the autosave of an image switch
        closeDocument();
    }
}

void LabelEditor::onImageRemoved(std::size_t index)
{
    if (m_d->index && *m_d->index > index)
        --*m_d->index;
}

void LabelEditor::onImageInserted(std::size_t index)
{
    if (m_d->index && *m_d->index >= index)
        ++*m_d->index;
}

void LabelEditor::onClassesRemapped(quint64 step, const std::array<std::uint8_t, 256>& table)
{
    // The map on disk went through the same table (it was saved first), so the document stays
    // unmodified; the history's ids follow, so undoing a stroke never brings back a merged class.
    if (m_d->document) {
        m_d->document->remapClasses(step, table);
        updateCounts();
    }
    m_d->history.remapClasses(step, table);
}

void LabelEditor::onClassesRemapUndone(quint64 step, const std::vector<std::size_t>& kept)
{
    m_d->history.clear();  // which kept image was labelled since the step is not known here
    if (!m_d->document || !m_d->index)
        return;
    if (std::find(kept.begin(), kept.end(), *m_d->index) != kept.end())
        return;  // labelled since the step: its map stayed as it is, and so does the image
    if (m_d->document->unremapClasses(step))
        updateCounts();
    else if (!isModified())
        requestImage(*m_d->index);  // opened after the step: show the map as the undo left it
}

void LabelEditor::onLabelMapsReplaced(const std::vector<std::size_t>& changed)
{
    // The open image was saved before the change: show what is on disk now.
    if (m_d->index && !isModified() && std::find(changed.begin(), changed.end(), *m_d->index) != changed.end())
        requestImage(*m_d->index);
}

void LabelEditor::offerRecovery()
{
    const data::RecoveryStore::Scan scan = m_d->recovery->scan(projectImages());
    if (!scan.unreadable.empty()) {
        QStringList lines;
        for (const std::string& line : scan.unreadable)
            lines << fromStd(line);
        reportError(tr("Recovery copies that cannot be used were left in %1: %2")
                        .arg(fromStd(m_d->recovery->folder().string()), lines.join(QStringLiteral("; "))));
    }
    const auto& found = scan.entries;
    if (found.empty())
        return;
    QStringList descriptions;
    for (const auto& entry : found)
        descriptions << RecoveryQuestion::describe(entry);
    const bool restore = m_d->recoveryPrompt ? m_d->recoveryPrompt(descriptions) : RecoveryQuestion::ask(this, descriptions);
    if (restore) {
        emit statusMessage(tr("Unsaved labels of %n image(s) restored; they open as unsaved changes.", nullptr,
                              int(found.size())));
        return;
    }
    for (const auto& entry : found)
        m_d->recovery->discard(entry.image);
}

std::optional<std::size_t> LabelEditor::recoveredImage() const
{
    if (!project() || !m_d->recovery)
        return std::nullopt;
    std::optional<std::size_t> first;
    for (const auto& entry : m_d->recovery->scan(projectImages()).entries) {
        const auto index = project()->indexOf(entry.image);
        if (index && (!first || *index < *first))
            first = index;
    }
    return first;
}

std::vector<std::string> LabelEditor::projectImages() const
{
    std::vector<std::string> images;
    for (std::size_t i = 0; project() && i < project()->size(); ++i)
        images.push_back(project()->entry(i).image);
    return images;
}

void LabelEditor::setRecoveryPrompt(RecoveryPrompt prompt) { m_d->recoveryPrompt = std::move(prompt); }
void LabelEditor::setSaveOnSwitch(bool save) { m_d->saveOnSwitch = save; }
bool LabelEditor::saveOnSwitch() const { return m_d->saveOnSwitch; }

bool LabelEditor::leaveCurrentImage()
{
    if (!m_d->document || !m_d->document->isModified())
        return true;
    if (!m_d->saveOnSwitch)
        return maybeSave(this);
    return save();  // keep the current image and its edits when this fails, rather than lose them
}

bool LabelEditor::openImage(std::size_t index)
{
    if (!startOpen(index))
        return false;
    m_d->opening.waitForFinished();
    return finishOpen(m_d->openGeneration);
}

bool LabelEditor::requestImage(std::size_t index)
{
    if (!startOpen(index))
        return false;
    auto* watcher = new QFutureWatcher<ImageLoader::Loaded>(this);
    connect(watcher, &QFutureWatcher<ImageLoader::Loaded>::finished, this, [this, watcher, generation = m_d->openGeneration] {
        watcher->deleteLater();
        finishOpen(generation);
    });
    watcher->setFuture(m_d->opening);
    return true;
}

bool LabelEditor::isOpening() const { return m_d->openPending; }

bool LabelEditor::startOpen(std::size_t index)
{
    if (!project() || index >= project()->size()) {
        reportError(tr("There is no image %1 in the project.").arg(index));
        return false;
    }
    if (m_d->projectDocument->isBusy()) {
        reportError(tr("The label maps are being rewritten (a class merge or delete); open the image when it ends."));
        return false;
    }
    if (m_d->index != index && !leaveCurrentImage())
        return false;
    m_d->propagation->cancel();  // its result is for the image on screen, which is going
    // Until the new image is in, the one on screen stays visible but takes no edit: whatever it got
    // now would be thrown away with it.
    m_d->canvas->setEditable(false);
    if (m_d->document && m_d->undoGroup->activeStack() == m_d->document->undoStack())
        m_d->undoGroup->setActiveStack(nullptr);  // (a project edit's stack stays the one to undo)
    ++m_d->openGeneration;
    m_d->openPending = true;
    m_d->openingIndex = index;
    // Decoding both PNGs is the floor of opening (~110 ms for a 12 MP image): on workers, the label
    // map on a second core meanwhile, so the GUI thread only swaps the result in.
    const data::Project& project = *this->project();
    m_d->opening = QtConcurrent::run(
        document::workerPool(),
        [imagePath = project.imagePath(index), labelPath = project.labelMapPath(index), schema = project.schema(),
         key = project.entry(index).image, style = m_d->canvas->overlayStyle(), viewport = m_d->canvas->size()]() {
            return ImageLoader::load(imagePath, labelPath, schema, key, style, viewport);
        });
    return true;
}

bool LabelEditor::finishOpen(quint64 generation)
{
    if (generation != m_d->openGeneration || !m_d->openPending)
        return false;  // another open started since: this result is stale
    m_d->openPending = false;
    updateEditable();
    ImageLoader::Loaded loaded = m_d->opening.result();
    m_d->opening = {};  // the document is the only owner of the decoded maps from here
    const std::size_t index = m_d->openingIndex;
    if (!loaded.error.empty()) {
        if (m_d->document && !m_d->undoGroup->activeStack())
            m_d->undoGroup->setActiveStack(m_d->document->undoStack());
        reportError(tr("Cannot open image %1: %2").arg(index).arg(fromStd(loaded.error)));
        return false;
    }
    const cv::Mat recovered = readRecovered(loaded.key, loaded.rgb.cols, loaded.rgb.rows);
    closeDocument();
    // Back to an image left earlier: its document, with its undo history, when the map on disk
    // is still what it holds (issue 27.12); else a new one.
    std::unique_ptr<LabelDocument> document = recovered.empty() ? m_d->history.take(loaded.key, loaded.labels) : nullptr;
    if (document)
        releaseOnWorker(loaded.rgb, loaded.labels);
    else  // nothing else holds the decoded map: the document edits it in place, no copy
        document = std::make_unique<LabelDocument>(loaded.key, std::move(loaded.rgb), std::move(loaded.labels));
    if (!recovered.empty()) {
        // One undoable edit on top of what is on disk: Undo takes the restored work back.
        document->replaceLabels(recovered, tr("Restore unsaved labels"));
        loaded.counts = data::countLabels(recovered);
    }
    if (!recovered.empty())
        loaded.prepared.overlay = QImage();  // composed for the saved labels, not the restored ones
    attachDocument(std::move(document), index, loaded.counts, loaded.prepared);
    m_d->tips->showOnce();  // the first image this account ever opens: how labeling works
    if (!recovered.empty())
        emit statusMessage(tr("Restored the unsaved labels of %1 (Undo takes them back).").arg(fromStd(loaded.key)));
    return true;
}

cv::Mat LabelEditor::readRecovered(const std::string& imageKey, int width, int height)
{
    if (!m_d->recovery)
        return {};
    const auto entry = m_d->recovery->find(imageKey);
    if (!entry)
        return {};
    try {
        return m_d->recovery->restore(*entry, project()->schema(), cv::Size(width, height));
    } catch (const std::exception& e) {
        // The copy stays where it is for the user to look at; the image opens as saved.
        reportError(tr("The recovery copy of %1 cannot be used: %2").arg(fromStd(imageKey), fromStd(e.what())));
        return {};
    }
}

void LabelEditor::attachDocument(std::unique_ptr<LabelDocument> document, std::size_t index,
                                 const data::LabelCounts& counts, const LabelCanvas::Prepared& prepared)
{
    m_d->document = std::move(document);
    m_d->index = index;
    LabelDocument* doc = m_d->document.get();
    m_d->undoGroup->addStack(doc->undoStack());
    // Undo acts on the stack of the last edit: a dataset-wide edit (another stack of the group,
    // the main window's) stays the one to undo after switching images, until a pixel edit here.
    if (!m_d->undoGroup->activeStack())
        m_d->undoGroup->setActiveStack(doc->undoStack());
    // (closeDocument disconnects this before the stack leaves the group.)
    connect(doc->undoStack(), &QUndoStack::indexChanged, m_d->undoGroup,
            [group = m_d->undoGroup, stack = doc->undoStack()] { group->setActiveStack(stack); });
    m_d->canvas->setDocument(doc, prepared);
    m_d->predictionBar->setPredictionAvailable(false);  // until this image's prediction comes
    m_d->keeper->setDocument(doc);
    connect(doc, &LabelDocument::labelsChanged, m_d->countTimer, qOverload<>(&QTimer::start));
    connect(doc, &LabelDocument::modifiedChanged, this, &LabelEditor::onModifiedChanged);
    showCounts(counts);
    onModifiedChanged(doc->isModified());
    if (doc->isModified())
        m_d->keeper->syncNow();
    emit imageOpened(index);
}

void LabelEditor::keepEditsForRecovery()
{
    cancelOpen();
    m_d->keeper->syncNow();
    m_d->keeper->waitForWrites();
    closeDocument();
}

void LabelEditor::closeDocument()
{
    if (!m_d->document)
        return;
    m_d->propagation->cancel();
    m_d->keeper->setDocument(nullptr);
    m_d->canvas->setDocument(nullptr);
    disconnect(m_d->document->undoStack(), nullptr, m_d->undoGroup, nullptr);
    m_d->undoGroup->removeStack(m_d->document->undoStack());
    disconnect(m_d->document.get(), nullptr, this, nullptr);
    disconnect(m_d->document.get(), nullptr, m_d->countTimer, nullptr);
    if (!m_d->document->isModified()) {
        m_d->history.keep(std::move(m_d->document));  // saved: its history waits for a return
    } else {
        // Edits the user chose not to keep: the pixels are freed on a worker (tens of ms for
        // 12 MP), not on the way to the next image.
        releaseOnWorker(m_d->document->image(), m_d->document->labels());
        m_d->document.reset();
    }
    m_d->index.reset();
    onModifiedChanged(false);
}

std::optional<std::size_t> LabelEditor::currentIndex() const { return m_d->index; }

bool LabelEditor::save()
{
    LabelDocument* doc = m_d->document.get();
    if (!doc || !project() || !m_d->index)
        return true;
    if (m_d->projectDocument->isBusy()) {
        reportError(tr("The label maps are being rewritten (a class merge or delete); save when it ends."));
        return false;
    }
    if (m_d->projectDocument->isReadOnly())
        return true;  // nothing can have been edited (the canvas takes no edit), and nothing is written
    const std::size_t index = *m_d->index;
    try {
        const std::filesystem::path path = project()->labelMapPath(index);
        std::error_code error;
        std::filesystem::create_directories(path.parent_path(), error);  // a failure shows in the write
        data::writeLabelMap(path, doc->labels(), project()->schema());
    } catch (const std::exception& e) {
        reportError(tr("Could not save the labels of %1: %2. Your edits are kept; try again or fix the folder.")
                        .arg(fromStd(doc->imageKey()), fromStd(e.what())));
        return false;
    }
    doc->markSaved();
    m_d->keeper->syncNow();  // removes the recovery copy, after any write still queued
    // The label map written, as the project folder sees it: naming the image instead read as if
    // the source image (of an imported dataset, elsewhere) had been overwritten.
    const std::filesystem::path written = project()->labelMapPath(index);
    emit labelsSaved(fromStd(written.lexically_relative(project()->file().parent_path()).generic_string()));
    const double fraction = data::labelledFraction(data::countLabels(doc->labels()));
    if (fraction > 0.0)
        m_d->projectDocument->noteLabelled(index);
    emit imageLabelled(index, fraction);
    return true;
}

bool LabelEditor::isModified() const { return m_d->document && m_d->document->isModified(); }

bool LabelEditor::maybeSave(QWidget* dialogParent)
{
    if (!isModified() || (m_d->projectDocument && m_d->projectDocument->isReadOnly()))
        return true;  // (read-only: nothing can be saved, and the banner said so)
    const auto answer = QMessageBox::warning(
        dialogParent ? dialogParent : this, tr("Unsaved labels"),
        tr("The labels of %1 have unsaved changes.").arg(fromStd(m_d->document->imageKey())),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return save();
    m_d->document->revertToSaved();
    m_d->keeper->syncNow();
    return true;
}

bool LabelEditor::writeRecovery()
{
    m_d->keeper->syncNow();
    m_d->keeper->waitForWrites();
    return !m_d->keeper->lastWriteFailed();
}

void LabelEditor::setRecoveryDelay(int milliseconds) { m_d->keeper->setDelay(milliseconds); }

QUndoGroup* LabelEditor::undoGroup() const { return m_d->undoGroup; }
QList<QAction*> LabelEditor::toolActions() const { return m_d->toolActions; }
QList<QAction*> LabelEditor::viewActions() const { return m_d->viewActions; }
QList<QAction*> LabelEditor::frameActions() const { return m_d->frameActions; }
QList<QAction*> LabelEditor::propagateActions() const { return m_d->propagateActions; }
ClassesPanel* LabelEditor::classesPanel() const { return m_d->classesPanel; }
QList<QToolBar*> LabelEditor::toolBars() const { return {m_d->toolBar, m_d->optionsBar, m_d->predictionBar}; }

void LabelEditor::showPredictionErrors() { m_d->predictionBar->setView(PredictionLayer::View::Errors); }

int LabelEditor::predictionMinConfidence() const { return m_d->predictionBar->minConfidence(); }

bool LabelEditor::setPrediction(std::size_t index, const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy)
{
    return setPrediction(index, classes, confidence, entropy, cv::Mat());
}

bool LabelEditor::setPrediction(std::size_t index, const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy,
                                const cv::Mat& scores)
{
    LabelDocument* doc = m_d->document.get();
    if (!doc || m_d->index != index)
        return false;  // a late answer for an image no longer open
    if (classes.size() != doc->size()) {
        m_d->predictionBar->setPredictionAvailable(false, tr("The prediction is %1x%2, the image %3x%4")
                                                              .arg(classes.cols).arg(classes.rows)
                                                              .arg(doc->size().width).arg(doc->size().height));
        return false;
    }
    m_d->canvas->setPrediction(classes, confidence, entropy, scores);
    m_d->predictionBar->setPredictionAvailable(m_d->canvas->hasPrediction());
    return m_d->canvas->hasPrediction();
}

std::int64_t LabelEditor::acceptPrediction(const paint::AcceptOptions& options)
{
    LabelDocument* doc = m_d->document.get();
    const PredictionLayer& prediction = m_d->canvas->prediction();
    if (!doc || !prediction.hasPrediction() || doc->editing() || !m_d->canvas->isEditable())
        return -1;  // (not editable: read-only, or the maps are being rewritten)
    const cv::Rect whole(0, 0, doc->size().width, doc->size().height);
    doc->beginEdit();
    cv::Rect changed;
    const std::int64_t count = paint::acceptPrediction(doc->touch(whole), prediction.classes(), prediction.confidence(), options,
                                                       m_d->settings->guard(), &changed);
    if (count == 0) {
        doc->cancelEdit();
        return 0;
    }
    doc->notifyChanged(changed);
    doc->endEdit(tr("Accept prediction"));
    return count;
}
void LabelEditor::setCaption(const QString& text) { m_d->caption->setText(text); }
QString LabelEditor::caption() const { return m_d->caption->text(); }
LabelingTips* LabelEditor::labelingTips() const
{
    return m_d->tips;
}

LabelCanvas* LabelEditor::canvas() const { return m_d->canvas; }
LabelDocument* LabelEditor::document() const { return m_d->document.get(); }
ToolSettings* LabelEditor::toolSettings() const { return m_d->settings; }

namespace {

data::Rgb rgbOf(const QColor& color)
{
    return {static_cast<std::uint8_t>(color.red()), static_cast<std::uint8_t>(color.green()),
            static_cast<std::uint8_t>(color.blue())};
}

}  // namespace

std::optional<int> LabelEditor::addClass(const QString& name, const QColor& color)
{
    const auto id = m_d->projectDocument ? m_d->projectDocument->addClass(name, rgbOf(color)) : std::nullopt;
    if (id)
        m_d->classesPanel->showClass(*id);  // the new class is the one to paint with
    return id;
}

bool LabelEditor::renameClass(int classId, const QString& name)
{
    return m_d->projectDocument && m_d->projectDocument->renameClass(classId, name);
}

bool LabelEditor::recolourClass(int classId, const QColor& color)
{
    return m_d->projectDocument && m_d->projectDocument->recolourClass(classId, rgbOf(color));
}

bool LabelEditor::mergeClasses(int fromId, int intoId)
{
    return m_d->projectDocument && m_d->projectDocument->mergeClasses(fromId, intoId);
}

bool LabelEditor::deleteClass(int classId)
{
    return m_d->projectDocument && m_d->projectDocument->deleteClass(classId);
}

void LabelEditor::schemaChanged()
{
    const data::ClassSchema& schema = project() ? project()->schema() : data::ClassSchema();
    m_d->keeper->setSchema(schema);
    m_d->canvas->setSchema(schema);
    m_d->classesPanel->setSchema(schema);
}

bool LabelEditor::fillUnlabelled(int classId)
{
    LabelDocument* doc = m_d->document.get();
    if (!doc || !project() || !project()->schema().contains(classId) || !m_d->canvas->isEditable())
        return false;
    doc->paintRegion(paint::RegionMask::ofValue(doc->labels(), data::kUnlabelled), static_cast<std::uint8_t>(classId),
                     m_d->settings->guard(), tr("Fill unlabelled"));
    return true;
}

void LabelEditor::updateCounts()
{
    LabelDocument* doc = m_d->document.get();
    if (!doc)
        return;
    showCounts(data::countLabels(doc->labels()));
}

void LabelEditor::showCounts(const data::LabelCounts& counts)
{
    m_d->classesPanel->setCounts(counts);
    if (m_d->index)
        emit imageLabelled(*m_d->index, data::labelledFraction(counts));
}

void LabelEditor::updateStatus()
{
    const auto pixel = m_d->canvas->hoveredPixel();
    QString text = tr("Zoom %1%").arg(qRound(m_d->canvas->scale() * 100));
    LabelDocument* doc = m_d->document.get();
    if (pixel && doc) {
        const std::uint8_t value = doc->labels().at<std::uint8_t>(pixel->y(), pixel->x());
        const data::LabelClass* c = project() ? project()->schema().find(value) : nullptr;
        const QString name = value == data::kUnlabelled ? tr("unlabelled") : c ? fromStd(c->name) : tr("class %1").arg(value);
        text = tr("x %1, y %2  |  %3  |  %4").arg(pixel->x()).arg(pixel->y()).arg(name, text);
        if (const auto predicted = m_d->canvas->predictionAt(*pixel)) {
            const data::LabelClass* p = project() ? project()->schema().find(predicted->classId) : nullptr;
            text += tr("  |  predicted %1 (%2%)")
                        .arg(p ? fromStd(p->name) : tr("class %1").arg(predicted->classId))
                        .arg(qRound(predicted->confidence * 100));
        }
    }
    emit statusMessage(text);
}

void LabelEditor::onModifiedChanged(bool modified)
{
    if (modified == m_d->lastModified)
        return;
    m_d->lastModified = modified;
    updateTitle();
    emit modifiedChanged(modified);
}

void LabelEditor::updateTitle()
{
    // Shown when the editor runs as its own window; the main window mirrors modifiedChanged().
    const QString name = m_d->document ? fromStd(m_d->document->imageKey()) : tr("No image");
    setWindowTitle(name + QStringLiteral("[*]"));
    setWindowModified(m_d->lastModified);
}

void LabelEditor::reportError(const QString& message) { emit errorOccurred(message); }

}  // namespace segstudio::ui
