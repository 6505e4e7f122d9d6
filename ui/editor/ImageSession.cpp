#include "ImageSession.h"

#include "LabelCanvas.h"
#include "LabelDocument.h"
#include "RecoveryKeeper.h"
#include "RecoveryQuestion.h"
#include "ReleaseOnWorker.h"

#include "data/labels/LabelMapIO.h"
#include "data/labels/RecoveryStore.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "document/WorkerPool.h"

#include <QFutureWatcher>
#include <QMessageBox>
#include <QUndoGroup>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <utility>

namespace segstudio::ui::editor {

namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

}  // namespace

ImageSession::ImageSession(LabelCanvas* canvas, QUndoGroup* undoGroup, QWidget* dialogParent)
    : QObject(dialogParent), m_canvas(canvas), m_undoGroup(undoGroup), m_dialogParent(dialogParent),
      m_keeper(new RecoveryKeeper(this))
{
    connect(m_keeper, &RecoveryKeeper::writeFailed, this, [this](const QString& message) {
        emit errorOccurred(tr("Could not write the recovery copy: %1").arg(message));
    });
}

ImageSession::~ImageSession()
{
    // The keeper writes what is pending while the document still exists.
    m_keeper->setDocument(nullptr);
    m_keeper->waitForWrites();
}

void ImageSession::setProjectDocument(document::ProjectDocument* project)
{
    cancelOpen();
    if (isModified())
        save();  // autosave, as on image switch; a failure is reported and the recovery file kept
    close();
    m_history.clear();  // another project's images
    m_keeper->setStore(nullptr);
    m_keeper->waitForWrites();
    m_recovery.reset();
    m_reopenAfterJob.reset();
    if (m_project) {
        disconnect(m_project, nullptr, this, nullptr);
        m_project->setBeforeLabelMapsChange({});
    }
    m_project = project;
    if (!project)
        return;
    connectProject();
    m_keeper->setSchema(project->project().schema());
    // A read-only project takes no recovery copies: another SegStudio's copies are its live work,
    // not leftovers of a crash, and a read-only folder takes none.
    if (project->isReadOnly())
        return;
    m_recovery = std::make_shared<data::RecoveryStore>(project->project().root());
    m_keeper->setStore(m_recovery);
    offerRecovery();
}

void ImageSession::connectProject()
{
    using document::ProjectDocument;
    // The open image's edits reach disk before a dataset-wide change reads the maps.
    m_project->setBeforeLabelMapsChange([this] { return !isModified() || save(); });
    connect(m_project, &ProjectDocument::schemaChanged, this,
            [this] { m_keeper->setSchema(m_project->project().schema()); });
    connect(m_project, &ProjectDocument::imageAboutToBeRemoved, this, &ImageSession::onImageAboutToBeRemoved);
    connect(m_project, &ProjectDocument::imageRemoved, this, &ImageSession::onImageRemoved);
    connect(m_project, &ProjectDocument::imageInserted, this, &ImageSession::onImageInserted);
    connect(m_project, &ProjectDocument::classesRemapped, this, &ImageSession::onClassesRemapped);
    connect(m_project, &ProjectDocument::classesRemapUndone, this, &ImageSession::onClassesRemapUndone);
    connect(m_project, &ProjectDocument::labelMapsReplaced, this, &ImageSession::onLabelMapsReplaced);
    connect(m_project, &ProjectDocument::busyChanged, this, &ImageSession::onBusyChanged);
}

void ImageSession::onBusyChanged(bool busy)
{
    // An image decoding now was read before the maps are rewritten: open it again afterwards.
    if (busy && m_openPending) {
        m_reopenAfterJob = m_openingIndex;
        cancelOpen();
    } else if (!busy && m_reopenAfterJob) {
        request(*std::exchange(m_reopenAfterJob, std::nullopt));
    }
}

void ImageSession::onImageAboutToBeRemoved(std::size_t index)
{
    if (m_openPending)
        cancelOpen();  // its index may be the one going, or shift
    if (m_index == index) {
        if (isModified())
            save();  // the caller asked the user already; this is the autosave of an image switch
        close();
    }
}

void ImageSession::onImageRemoved(std::size_t index)
{
    if (m_index && *m_index > index)
        --*m_index;
}

void ImageSession::onImageInserted(std::size_t index)
{
    if (m_index && *m_index >= index)
        ++*m_index;
}

void ImageSession::onClassesRemapped(quint64 step, const std::array<std::uint8_t, 256>& table)
{
    // The map on disk went through the same table (it was saved first), so the document stays
    // unmodified; the history's ids follow, so undoing a stroke never brings back a merged class.
    if (m_document) {
        m_document->remapClasses(step, table);
        emit countsChanged();
    }
    m_history.remapClasses(step, table);
}

void ImageSession::onClassesRemapUndone(quint64 step, const std::vector<std::size_t>& kept)
{
    m_history.clear();  // which kept image was labelled since the step is not known here
    if (!m_document || !m_index)
        return;
    if (std::find(kept.begin(), kept.end(), *m_index) != kept.end())
        return;  // labelled since the step: its map stayed as it is, and so does the image
    if (m_document->unremapClasses(step))
        emit countsChanged();
    else if (!isModified())
        request(*m_index);  // opened after the step: show the map as the undo left it
}

void ImageSession::onLabelMapsReplaced(const std::vector<std::size_t>& changed)
{
    // The open image was saved before the change: show what is on disk now.
    if (m_index && !isModified() && std::find(changed.begin(), changed.end(), *m_index) != changed.end())
        request(*m_index);
}

void ImageSession::offerRecovery()
{
    const data::RecoveryStore::Scan scan = m_recovery->scan(projectImages());
    if (!scan.unreadable.empty()) {
        QStringList lines;
        for (const std::string& line : scan.unreadable)
            lines << fromStd(line);
        emit errorOccurred(tr("Recovery copies that cannot be used were left in %1: %2")
                               .arg(fromStd(m_recovery->folder().string()), lines.join(QStringLiteral("; "))));
    }
    const auto& found = scan.entries;
    if (found.empty())
        return;
    QStringList descriptions;
    for (const auto& entry : found)
        descriptions << RecoveryQuestion::describe(entry);
    const bool restore =
        m_recoveryPrompt ? m_recoveryPrompt(descriptions) : RecoveryQuestion::ask(m_dialogParent, descriptions);
    if (restore) {
        emit statusMessage(tr("Unsaved labels of %n image(s) restored; they open as unsaved changes.", nullptr,
                              int(found.size())));
        return;
    }
    for (const auto& entry : found)
        m_recovery->discard(entry.image);
}

std::optional<std::size_t> ImageSession::recoveredImage() const
{
    if (!m_project || !m_recovery)
        return std::nullopt;
    std::optional<std::size_t> first;
    for (const auto& entry : m_recovery->scan(projectImages()).entries) {
        const auto index = m_project->project().indexOf(entry.image);
        if (index && (!first || *index < *first))
            first = index;
    }
    return first;
}

std::vector<std::string> ImageSession::projectImages() const
{
    std::vector<std::string> images;
    for (std::size_t i = 0; m_project && i < m_project->project().size(); ++i)
        images.push_back(m_project->project().entry(i).image);
    return images;
}

void ImageSession::setRecoveryPrompt(RecoveryPrompt prompt) { m_recoveryPrompt = std::move(prompt); }
void ImageSession::setSaveOnSwitch(bool save) { m_saveOnSwitch = save; }
bool ImageSession::saveOnSwitch() const { return m_saveOnSwitch; }
void ImageSession::setRecoveryDelay(int milliseconds) { m_keeper->setDelay(milliseconds); }
bool ImageSession::isOpening() const { return m_openPending; }
std::optional<std::size_t> ImageSession::index() const { return m_index; }
LabelDocument* ImageSession::document() const { return m_document.get(); }
bool ImageSession::isModified() const { return m_document && m_document->isModified(); }

std::optional<std::size_t> ImageSession::latestIndex() const
{
    return m_openPending ? std::optional<std::size_t>(m_openingIndex) : m_index;
}

bool ImageSession::leaveCurrentImage()
{
    if (!isModified())
        return true;
    if (!m_saveOnSwitch)
        return maybeSave(m_dialogParent);
    return save();  // keep the current image and its edits when this fails, rather than lose them
}

bool ImageSession::open(std::size_t index)
{
    if (!startOpen(index))
        return false;
    m_opening.waitForFinished();
    return finishOpen(m_openGeneration);
}

bool ImageSession::request(std::size_t index)
{
    if (!startOpen(index))
        return false;
    auto* watcher = new QFutureWatcher<ImageLoader::Loaded>(this);
    connect(watcher, &QFutureWatcher<ImageLoader::Loaded>::finished, this,
            [this, watcher, generation = m_openGeneration] {
                watcher->deleteLater();
                finishOpen(generation);
            });
    watcher->setFuture(m_opening);
    return true;
}

void ImageSession::cancelOpen()
{
    ++m_openGeneration;  // a result still on its way is dropped
    m_openPending = false;
    emit openEnded();
    if (m_document && !m_undoGroup->activeStack())
        m_undoGroup->setActiveStack(m_document->undoStack());
}

bool ImageSession::startOpen(std::size_t index)
{
    if (!m_project || index >= m_project->project().size()) {
        emit errorOccurred(tr("There is no image %1 in the project.").arg(index));
        return false;
    }
    if (m_project->isBusy()) {
        emit errorOccurred(
            tr("The label maps are being rewritten (a class merge or delete); open the image when it ends."));
        return false;
    }
    if (m_index != index && !leaveCurrentImage())
        return false;
    if (m_document && m_undoGroup->activeStack() == m_document->undoStack())
        m_undoGroup->setActiveStack(nullptr);  // (a project edit's stack stays the one to undo)
    ++m_openGeneration;
    m_openPending = true;
    m_openingIndex = index;
    // Until the new image is in, the one on screen stays visible but takes no edit: whatever it got
    // now would be thrown away with it.
    emit opening();
    // Decoding both PNGs is the floor of opening (~110 ms for a 12 MP image): on workers, the label
    // map on a second core meanwhile, so the GUI thread only swaps the result in.
    const data::Project& project = m_project->project();
    m_opening = QtConcurrent::run(
        document::workerPool(),
        [imagePath = project.imagePath(index), labelPath = project.labelMapPath(index), schema = project.schema(),
         key = project.entry(index).image, style = m_canvas->overlayStyle(), viewport = m_canvas->size()]() {
            return ImageLoader::load(imagePath, labelPath, schema, key, style, viewport);
        });
    return true;
}

bool ImageSession::finishOpen(quint64 generation)
{
    if (generation != m_openGeneration || !m_openPending)
        return false;  // another open started since: this result is stale
    m_openPending = false;
    emit openEnded();
    ImageLoader::Loaded loaded = m_opening.result();
    m_opening = {};  // the document is the only owner of the decoded maps from here
    const std::size_t index = m_openingIndex;
    if (!loaded.error.empty()) {
        if (m_document && !m_undoGroup->activeStack())
            m_undoGroup->setActiveStack(m_document->undoStack());
        emit errorOccurred(tr("Cannot open image %1: %2").arg(index).arg(fromStd(loaded.error)));
        return false;
    }
    const cv::Mat recovered = readRecovered(loaded.key, loaded.rgb.cols, loaded.rgb.rows);
    close();
    // Back to an image left earlier: its document, with its undo history, when the map on disk
    // is still what it holds (issue 27.12); else a new one.
    std::unique_ptr<LabelDocument> document = recovered.empty() ? m_history.take(loaded.key, loaded.labels) : nullptr;
    if (document)
        releaseOnWorker(loaded.rgb, loaded.labels);
    else  // nothing else holds the decoded map: the document edits it in place, no copy
        document = std::make_unique<LabelDocument>(loaded.key, std::move(loaded.rgb), std::move(loaded.labels));
    if (!recovered.empty()) {
        // One undoable edit on top of what is on disk: Undo takes the restored work back.
        document->replaceLabels(recovered, tr("Restore unsaved labels"));
        loaded.counts = data::countLabels(recovered);
        loaded.prepared.overlay = QImage();  // composed for the saved labels, not the restored ones
    }
    attach(std::move(document), index, loaded.prepared, loaded.counts);
    if (!recovered.empty())
        emit statusMessage(tr("Restored the unsaved labels of %1 (Undo takes them back).").arg(fromStd(loaded.key)));
    return true;
}

cv::Mat ImageSession::readRecovered(const std::string& imageKey, int width, int height)
{
    if (!m_recovery)
        return {};
    const auto entry = m_recovery->find(imageKey);
    if (!entry)
        return {};
    try {
        return m_recovery->restore(*entry, m_project->project().schema(), cv::Size(width, height));
    } catch (const std::exception& e) {
        // The copy stays where it is for the user to look at; the image opens as saved.
        emit errorOccurred(
            tr("The recovery copy of %1 cannot be used: %2").arg(fromStd(imageKey), fromStd(e.what())));
        return {};
    }
}

void ImageSession::attach(std::unique_ptr<LabelDocument> document, std::size_t index,
                          const LabelCanvas::Prepared& prepared, const data::LabelCounts& counts)
{
    m_document = std::move(document);
    m_index = index;
    LabelDocument* doc = m_document.get();
    m_undoGroup->addStack(doc->undoStack());
    // Undo acts on the stack of the last edit: a dataset-wide edit (another stack of the group,
    // the main window's) stays the one to undo after switching images, until a pixel edit here.
    if (!m_undoGroup->activeStack())
        m_undoGroup->setActiveStack(doc->undoStack());
    // (close() disconnects this before the stack leaves the group.)
    connect(doc->undoStack(), &QUndoStack::indexChanged, m_undoGroup,
            [group = m_undoGroup, stack = doc->undoStack()] { group->setActiveStack(stack); });
    m_canvas->setDocument(doc, prepared);
    m_keeper->setDocument(doc);
    if (doc->isModified())
        m_keeper->syncNow();
    emit opened(index, counts);
}

void ImageSession::keepEditsForRecovery()
{
    cancelOpen();
    m_keeper->syncNow();
    m_keeper->waitForWrites();
    close();
}

void ImageSession::close()
{
    if (!m_document)
        return;
    emit closing();
    m_keeper->setDocument(nullptr);
    m_canvas->setDocument(nullptr);
    disconnect(m_document->undoStack(), nullptr, m_undoGroup, nullptr);
    m_undoGroup->removeStack(m_document->undoStack());
    if (!m_document->isModified()) {
        m_history.keep(std::move(m_document));  // saved: its history waits for a return
    } else {
        // Edits the user chose not to keep: the pixels are freed on a worker (tens of ms for
        // 12 MP), not on the way to the next image.
        releaseOnWorker(m_document->image(), m_document->labels());
        m_document.reset();
    }
    m_index.reset();
    emit closed();
}

bool ImageSession::save()
{
    LabelDocument* doc = m_document.get();
    if (!doc || !m_project || !m_index)
        return true;
    if (m_project->isBusy()) {
        emit errorOccurred(tr("The label maps are being rewritten (a class merge or delete); save when it ends."));
        return false;
    }
    if (m_project->isReadOnly())
        return true;  // nothing can have been edited (the canvas takes no edit), and nothing is written
    const data::Project& project = m_project->project();
    const std::size_t index = *m_index;
    const std::filesystem::path path = project.labelMapPath(index);
    try {
        std::error_code error;
        std::filesystem::create_directories(path.parent_path(), error);  // a failure shows in the write
        data::writeLabelMap(path, doc->labels(), project.schema());
    } catch (const std::exception& e) {
        emit errorOccurred(tr("Could not save the labels of %1: %2. Your edits are kept; try again or fix the folder.")
                               .arg(fromStd(doc->imageKey()), fromStd(e.what())));
        return false;
    }
    doc->markSaved();
    m_keeper->syncNow();  // removes the recovery copy, after any write still queued
    const double fraction = data::labelledFraction(data::countLabels(doc->labels()));
    if (fraction > 0.0)
        m_project->noteLabelled(index);
    // The label map written, as the project folder sees it: naming the image instead read as if
    // the source image (of an imported dataset, elsewhere) had been overwritten.
    emit saved(index, fromStd(path.lexically_relative(project.file().parent_path()).generic_string()), fraction);
    return true;
}

bool ImageSession::maybeSave(QWidget* dialogParent)
{
    if (!isModified() || (m_project && m_project->isReadOnly()))
        return true;  // (read-only: nothing can be saved, and the banner said so)
    const auto answer = QMessageBox::warning(
        dialogParent ? dialogParent : m_dialogParent, tr("Unsaved labels"),
        tr("The labels of %1 have unsaved changes.").arg(fromStd(m_document->imageKey())),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return save();
    m_document->revertToSaved();
    m_keeper->syncNow();
    return true;
}

bool ImageSession::writeRecovery()
{
    m_keeper->syncNow();
    m_keeper->waitForWrites();
    return !m_keeper->lastWriteFailed();
}

}  // namespace segstudio::ui::editor
