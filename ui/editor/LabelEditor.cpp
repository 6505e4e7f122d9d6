#include "LabelEditor.h"

#include "ClassHotkeys.h"
#include "ClassesPanel.h"
#include "FrameActions.h"
#include "FrameNavigator.h"
#include "FramePropagation.h"
#include "ImageSession.h"
#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "LabelingTips.h"
#include "PredictionBar.h"
#include "ToolSettingsStore.h"
#include "ToolActions.h"
#include "ToolOptionsBar.h"
#include "ToolSettings.h"
#include "ViewActions.h"

#include "icons/ActionToolTips.h"

#include "data/labels/LabelCounts.h"
#include "data/project/PredictionCache.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "paint/PredictionAcceptance.h"
#include "paint/RegionMask.h"
#include "paint/WriteGuard.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QMetaMethod>
#include <QShortcut>
#include <QTimer>
#include <QToolBar>
#include <QUndoGroup>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace segstudio::ui::editor {

// Everything the editor owns. Kept out of the header so the shell does not rebuild with it.
class LabelEditor::Private {
public:
    document::ProjectDocument* projectDocument = nullptr;
    ImageSession* session = nullptr;  // the open image
    QUndoGroup* undoGroup = nullptr;
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
    std::filesystem::path predictionRun, predictionCheckpoint;  // of the model in use
    QList<QAction*> frameActions;
    QList<QAction*> propagateActions;
    bool lastModified = false;
};

LabelEditor::LabelEditor(QWidget* parent) : QWidget(parent), m_d(std::make_unique<Private>())
{
    setObjectName(QStringLiteral("LabelEditor"));
    m_d->undoGroup = new QUndoGroup(this);
    m_d->settings = new ToolSettings(this);
    ToolSettingsStore::restore(*m_d->settings);  // before the widgets that show them are made
    connect(m_d->settings, &ToolSettings::changed, this, [this] { ToolSettingsStore::keep(*m_d->settings); });
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
    icons::setIconToolTips(m_d->toolActions + m_d->viewActions);
    createClassShortcuts();
    createFrameActions();
    m_d->tips = new LabelingTips(m_d->toolActions, m_d->canvas);

    // Recounting 12 MP takes ~10 ms: do it once after a burst of changes, not per dab.
    m_d->countTimer = new QTimer(this);
    m_d->countTimer->setSingleShot(true);
    m_d->countTimer->setInterval(150);
    connect(m_d->countTimer, &QTimer::timeout, this, &LabelEditor::updateCounts);

    createImageSession();

    connect(m_d->canvas, &LabelCanvas::editRefused, this, [this] { emit statusMessage(whyNotEditable()); });
    connect(m_d->canvas, &LabelCanvas::hoverChanged, this, &LabelEditor::updateStatus);
    connect(m_d->canvas, &LabelCanvas::scaleChanged, this, &LabelEditor::updateStatus);
    connect(m_d->classesPanel, &ClassesPanel::fillUnlabelledRequested, this, &LabelEditor::fillUnlabelled);
    connect(m_d->classesPanel, &ClassesPanel::visibilityChanged, m_d->canvas, &LabelCanvas::setClassVisible);
    connect(m_d->predictionBar, &PredictionBar::viewChanged, m_d->canvas, &LabelCanvas::setPredictionView);
    connect(m_d->predictionBar, &PredictionBar::opacityChanged, m_d->canvas, &LabelCanvas::setPredictionOpacity);
    m_d->canvas->setPredictionView(m_d->predictionBar->view());  // as chosen last time
    m_d->canvas->setPredictionOpacity(m_d->predictionBar->opacity());
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
    // Tools hold the canvas; drop the document before the widgets go, and the open image (its
    // recovery copy written) with it.
    m_d->canvas->setTool(nullptr);
    m_d->canvas->setDocument(nullptr);
    delete m_d->session;
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
    // Clearing a mislabelled image took six eraser strokes at the largest size (issue 60.11).
    auto* clear = new QAction(tr("C&lear This Image's Labels"), this);
    clear->setObjectName(QStringLiteral("clearLabels"));
    clear->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Delete));
    clear->setToolTip(tr("Make every labelled pixel of the open image unlabelled, as one edit (Undo takes it back; "
                         "protected classes keep theirs) · %1")
                          .arg(clear->shortcut().toString()));
    connect(clear, &QAction::triggered, this, [this] {
        if (clearLabels())
            emit statusMessage(tr("Cleared the image's labels (Undo takes it back)"));
    });
    m_d->propagateActions << clear;
}

void LabelEditor::goToFrame(bool next)
{
    // While a frame opens, the next step goes on from it: Alt+Page Down held steps through them.
    const std::optional<std::size_t> from = m_d->session->latestIndex();
    if (!from || !project())
        return;
    const QString name = QFileInfo(QString::fromStdString(project()->entry(*from).image)).fileName();
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
    LabelDocument* doc = document();
    if (!doc || !currentIndex() || !project())
        return;
    if (!m_d->canvas->isEditable()) {
        emit statusMessage(whyNotEditable());
        return;
    }
    const std::size_t index = *currentIndex();
    const QString name = QFileInfo(QString::fromStdString(doc->imageKey())).fileName();
    if (!m_d->frames->inSequence(index)) {
        emit statusMessage(tr("%1 is a frame alone: there is no frame to carry labels from.").arg(name));
        return;
    }
    FramePropagation::Request request;
    request.direction = next ? FrameNavigator::Direction::Next : FrameNavigator::Direction::Previous;
    for (const std::size_t frame : m_d->frames->labelledFrames(index, request.direction))
        request.sources.push_back({project()->imagePath(frame), project()->labelMapPath(frame), project()->entry(frame).image,
                                   data::PredictionCache::keyOf(*project(), frame)});
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
    if (prediction.hasPrediction()) {
        request.prediction = {prediction.classes(), prediction.confidence()};
        request.scores = prediction.scores();
        request.predictionRun = m_d->predictionRun;
        request.predictionCheckpoint = m_d->predictionCheckpoint;
    }
    request.minConfidence = std::max(request.minConfidence, m_d->predictionBar->minConfidence());
    // The Accept threshold the user set is the least a prediction must be sure to take a pixel.
    request.fillAbove = std::max(request.fillAbove, m_d->predictionBar->minConfidence());
    m_d->propagation->start(doc, std::move(request));
}

bool LabelEditor::isPropagating() const { return m_d->propagation->isRunning(); }

void LabelEditor::createImageSession()
{
    auto* session = new ImageSession(m_d->canvas, m_d->undoGroup, this);
    m_d->session = session;
    connect(session, &ImageSession::statusMessage, this, &LabelEditor::statusMessage);
    connect(session, &ImageSession::errorOccurred, this, &LabelEditor::errorOccurred);
    connect(session, &ImageSession::opening, this, [this] {
        m_d->propagation->cancel();  // its result is for the image on screen, which is going
        updateEditable();
    });
    connect(session, &ImageSession::openEnded, this, &LabelEditor::updateEditable);
    connect(session, &ImageSession::opened, this, &LabelEditor::onImageOpened);
    connect(session, &ImageSession::closing, this, [this] {
        m_d->propagation->cancel();
        disconnect(document(), nullptr, this, nullptr);
        disconnect(document(), nullptr, m_d->countTimer, nullptr);
    });
    connect(session, &ImageSession::closed, this, [this] { onModifiedChanged(false); });
    connect(session, &ImageSession::countsChanged, this, &LabelEditor::updateCounts);
    connect(session, &ImageSession::saved, this, [this](std::size_t index, const QString& labelMap, double fraction) {
        emit labelsSaved(labelMap);
        emit imageLabelled(index, fraction);
    });
}

void LabelEditor::onImageOpened(std::size_t index, const data::LabelCounts& counts)
{
    LabelDocument* doc = document();
    m_d->predictionBar->setPredictionAvailable(false);  // until this image's prediction comes
    connect(doc, &LabelDocument::labelsChanged, m_d->countTimer, qOverload<>(&QTimer::start));
    connect(doc, &LabelDocument::modifiedChanged, this, &LabelEditor::onModifiedChanged);
    showCounts(counts);
    onModifiedChanged(doc->isModified());
    m_d->tips->showOnce();  // the first image this account ever opens: how labeling works
    emit imageOpened(index);
}

void LabelEditor::setDocument(document::ProjectDocument* projectDocument)
{
    if (projectDocument == m_d->projectDocument)
        return;
    if (m_d->projectDocument)
        disconnect(m_d->projectDocument, nullptr, this, nullptr);
    m_d->projectDocument = projectDocument;
    m_d->frames->setDocument(projectDocument);
    m_d->classesPanel->setDocument(projectDocument);
    if (projectDocument)
        connectDocument();
    schemaChanged();
    updateEditable();
    // Saves and closes the image of the project before, then offers this one's recovery copies.
    m_d->session->setProjectDocument(projectDocument);
    if (projectDocument && projectDocument->isReadOnly())
        emit statusMessage(projectDocument->readOnlyReason());  // nothing is written, not even recovery copies
}

void LabelEditor::connectDocument()
{
    using document::ProjectDocument;
    ProjectDocument* doc = m_d->projectDocument;
    connect(doc, &ProjectDocument::schemaChanged, this, &LabelEditor::schemaChanged);
    // While a merge rewrites the maps, the open one must not be edited or saved.
    connect(doc, &ProjectDocument::busyChanged, this, [this](bool busy) {
        updateEditable();
        if (busy)
            m_d->propagation->cancel();  // the maps it read are being rewritten
    });
}

bool LabelEditor::openImage(std::size_t index) { return m_d->session->open(index); }
bool LabelEditor::requestImage(std::size_t index) { return m_d->session->request(index); }
bool LabelEditor::isOpening() const { return m_d->session->isOpening(); }
std::optional<std::size_t> LabelEditor::currentIndex() const { return m_d->session->index(); }
LabelDocument* LabelEditor::document() const { return m_d->session->document(); }
bool LabelEditor::save() { return m_d->session->save(); }
bool LabelEditor::isModified() const { return m_d->session->isModified(); }
bool LabelEditor::maybeSave(QWidget* dialogParent) { return m_d->session->maybeSave(dialogParent); }
void LabelEditor::keepEditsForRecovery() { m_d->session->keepEditsForRecovery(); }
bool LabelEditor::writeRecovery() { return m_d->session->writeRecovery(); }
void LabelEditor::setRecoveryDelay(int milliseconds) { m_d->session->setRecoveryDelay(milliseconds); }
void LabelEditor::setRecoveryPrompt(RecoveryPrompt prompt) { m_d->session->setRecoveryPrompt(std::move(prompt)); }
std::optional<std::size_t> LabelEditor::recoveredImage() const { return m_d->session->recoveredImage(); }
void LabelEditor::setSaveOnSwitch(bool save) { m_d->session->setSaveOnSwitch(save); }
bool LabelEditor::saveOnSwitch() const { return m_d->session->saveOnSwitch(); }

// Pixels take edits only when they can be saved: the project is writable, no merge rewrites the
// maps, and the image on screen is the one whose edits would be kept.
void LabelEditor::updateEditable()
{
    const document::ProjectDocument* doc = m_d->projectDocument;
    const bool writable = !doc || (!doc->isBusy() && !doc->isReadOnly());
    m_d->canvas->setEditable(writable && !isOpening());
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
    if (isOpening())
        return tr("The image is still opening.");
    return {};
}

document::ProjectDocument* LabelEditor::projectDocument() const { return m_d->projectDocument; }

const data::Project* LabelEditor::project() const
{
    return m_d->projectDocument ? &m_d->projectDocument->project() : nullptr;
}






QUndoGroup* LabelEditor::undoGroup() const { return m_d->undoGroup; }
QList<QAction*> LabelEditor::toolActions() const { return m_d->toolActions; }
QList<QAction*> LabelEditor::viewActions() const { return m_d->viewActions; }
QList<QAction*> LabelEditor::frameActions() const { return m_d->frameActions; }
QList<QAction*> LabelEditor::propagateActions() const { return m_d->propagateActions; }
ClassesPanel* LabelEditor::classesPanel() const { return m_d->classesPanel; }
QList<QToolBar*> LabelEditor::toolBars() const { return {m_d->toolBar, m_d->optionsBar, m_d->predictionBar}; }

void LabelEditor::setPredictionCheckpoint(const QString& runDir, const QString& checkpoint)
{
    m_d->predictionRun = runDir.toStdString();
    m_d->predictionCheckpoint = checkpoint.toStdString();
}

void LabelEditor::showPredictionErrors() { m_d->predictionBar->setView(PredictionLayer::View::Errors); }

int LabelEditor::predictionMinConfidence() const { return m_d->predictionBar->minConfidence(); }

bool LabelEditor::setPrediction(std::size_t index, const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy)
{
    return setPrediction(index, classes, confidence, entropy, cv::Mat());
}

bool LabelEditor::setPrediction(std::size_t index, const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy,
                                const cv::Mat& scores)
{
    LabelDocument* doc = document();
    if (!doc || currentIndex() != index)
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
    LabelDocument* doc = document();
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
ToolSettings* LabelEditor::toolSettings() const { return m_d->settings; }

void LabelEditor::schemaChanged()
{
    const data::ClassSchema& schema = project() ? project()->schema() : data::ClassSchema();
    m_d->canvas->setSchema(schema);
}

// Every labelled pixel back to unlabelled, as one edit; a protected class keeps its pixels (the
// "only unlabelled" guard does not apply: it would keep them all).
bool LabelEditor::clearLabels()
{
    LabelDocument* doc = document();
    if (!doc || !m_d->canvas->isEditable())
        return false;
    paint::WriteGuard guard = m_d->settings->guard();
    guard.setOnlyUnlabelled(false);
    const cv::Mat labelled = doc->labels() != data::kUnlabelled;
    if (cv::countNonZero(labelled) == 0)
        return false;
    doc->paintRegion(paint::RegionMask::fromFullMask(labelled), data::kUnlabelled, guard, tr("Clear labels"));
    return true;
}

bool LabelEditor::fillUnlabelled(int classId)
{
    LabelDocument* doc = document();
    if (!doc || !project() || !project()->schema().contains(classId) || !m_d->canvas->isEditable())
        return false;
    doc->paintRegion(paint::RegionMask::ofValue(doc->labels(), data::kUnlabelled), static_cast<std::uint8_t>(classId),
                     m_d->settings->guard(), tr("Fill unlabelled"));
    return true;
}

void LabelEditor::updateCounts()
{
    LabelDocument* doc = document();
    if (!doc)
        return;
    showCounts(data::countLabels(doc->labels()));
}

void LabelEditor::showCounts(const data::LabelCounts& counts)
{
    m_d->classesPanel->setCounts(counts);
    if (const auto index = currentIndex())
        emit imageLabelled(*index, data::labelledFraction(counts));
}

void LabelEditor::updateStatus()
{
    const auto pixel = m_d->canvas->hoveredPixel();
    QString text = tr("Zoom %1%").arg(qRound(m_d->canvas->scale() * 100));
    LabelDocument* doc = document();
    if (pixel && doc) {
        const std::uint8_t value = doc->labels().at<std::uint8_t>(pixel->y(), pixel->x());
        const data::LabelClass* c = project() ? project()->schema().find(value) : nullptr;
        QString name = c ? QString::fromStdString(c->name) : tr("class %1").arg(value);
        if (value == data::kUnlabelled)
            name = tr("unlabelled");
        text = tr("x %1, y %2  |  %3  |  %4").arg(pixel->x()).arg(pixel->y()).arg(name, text);
        if (const auto predicted = m_d->canvas->predictionAt(*pixel)) {
            const data::LabelClass* p = project() ? project()->schema().find(predicted->classId) : nullptr;
            text += tr("  |  predicted %1 (%2%)")
                        .arg(p ? QString::fromStdString(p->name) : tr("class %1").arg(predicted->classId))
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
    const QString name = document() ? QString::fromStdString(document()->imageKey()) : tr("No image");
    setWindowTitle(name + QStringLiteral("[*]"));
    setWindowModified(m_d->lastModified);
}

}  // namespace segstudio::ui::editor
