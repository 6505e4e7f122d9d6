#include "ProjectDocument.h"

#include "AcceptPredictionsCommand.h"
#include "PropagateAlongSequenceCommand.h"

#include "WorkerPool.h"

#include "AddClassCommand.h"
#include "AddImagesCommand.h"
#include "RecolourClassCommand.h"
#include "RelabelClassesCommand.h"
#include "RemoveImagesCommand.h"
#include "RenameClassCommand.h"
#include "SetSplitCommand.h"
#include "SetStatusCommand.h"

#include "data/labels/DataError.h"
#include "data/project/ProjectLock.h"
#include "data/project/RelabelTransaction.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace segstudio::document {

namespace {

// Long enough to collect a burst of split/status changes into one write, short enough that a
// crash loses almost nothing.
constexpr int kAutosaveDelayMs = 800;

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

}  // namespace

ProjectDocument::ProjectDocument(data::Project project, QObject* parent)
    : ProjectDocument(std::move(project), nullptr, data::ProjectLock::Result::NotWritable, parent)
{
}

ProjectDocument::ProjectDocument(data::Project project, std::unique_ptr<data::ProjectLock> lock,
                                 data::ProjectLock::Result locked, QObject* parent)
    : QObject(parent), m_project(std::move(project)), m_undoStack(new QUndoStack(this)), m_autosave(new QTimer(this))
{
    m_autosave->setSingleShot(true);
    m_autosave->setInterval(kAutosaveDelayMs);
    connect(m_autosave, &QTimer::timeout, this, &ProjectDocument::save);
    if (m_project.file().empty())
        return;
    if (!lock) {
        lock = std::make_unique<data::ProjectLock>(m_project.file());
        locked = lock->acquire();
    }
    adoptLock(std::move(lock), locked);
}

void ProjectDocument::adoptLock(std::unique_ptr<data::ProjectLock> lock, data::ProjectLock::Result locked)
{
    using Result = data::ProjectLock::Result;
    m_lock = std::move(lock);
    m_lockHeldByOther = locked == Result::HeldByOther;
    const QString file = fromStd(m_project.file().string());
    if (locked == Result::HeldByOther)
        m_readOnlyReason = tr("Read-only: %1 is open in another SegStudio (%2). Close it there to edit it here.")
                               .arg(file, lockOwner().isEmpty() ? tr("a process starting up") : lockOwner());
    else if (locked == Result::NotWritable)
        m_readOnlyReason = tr("Read-only: the folder of %1 cannot be written (%2). Nothing can be saved here; "
                              "copy the project to a writable folder to edit it.")
                               .arg(file, fromStd(m_lock->failure()));
    else if (::access(m_project.file().c_str(), W_OK) != 0)
        m_readOnlyReason = tr("Read-only: %1 cannot be written (%2). Nothing can be saved here.")
                               .arg(file, fromStd(std::strerror(errno)));
}

ProjectDocument::~ProjectDocument()
{
    // No event loop here (issue 47.9): whatever runs during a destructor may reach a half-gone
    // window. A job still under way is cancelled if it can roll itself back, and waited for, so
    // its worker never outlives the flag and the project it uses; its finish does not run (a
    // relabel left unfinished is rolled back or finished by the next open, RelabelTransaction).
    if (m_busy) {
        if (m_cancellable)
            m_cancel = true;
        m_job.waitForFinished();
    }
    if (m_autosave->isActive())
        save();
    m_undoStack->clear();  // the commands' backups go with them
}

std::unique_ptr<ProjectDocument> ProjectDocument::open(const std::filesystem::path& file, QObject* parent)
{
    using Result = data::ProjectLock::Result;
    auto lock = std::make_unique<data::ProjectLock>(file);
    const Result locked = lock->acquire();
    QStringList recovered;
    // Rolling back another instance's merge in progress would destroy its work: only with the
    // lock in hand, and the document keeps that same lock (no gap for another window to slip in).
    if (locked == Result::Acquired || locked == Result::TookOverStale) {
        for (const std::string& line : data::RelabelTransaction::recoverInterrupted(file))
            recovered << fromStd(line);
    }
    std::unique_ptr<ProjectDocument> document(new ProjectDocument(data::Project::load(file), std::move(lock), locked, parent));
    document->m_recovered = recovered + document->m_recovered;
    return document;
}

bool ProjectDocument::lockHeldByOther() const { return m_lockHeldByOther; }

QString ProjectDocument::lockOwner() const
{
    const auto owner = m_lock && !m_lock->held() ? m_lock->owner() : std::nullopt;
    return owner ? tr("process %1 on %2").arg(owner->pid).arg(fromStd(owner->host)) : QString();
}

bool ProjectDocument::canEdit() const { return !m_busy && !isReadOnly(); }

bool ProjectDocument::setSplit(const std::vector<std::size_t>& indices, data::Split split)
{
    return pushUnlessEmpty(std::make_unique<SetSplitCommand>(this, indices, split));
}

bool ProjectDocument::setStatus(const std::vector<std::size_t>& indices, data::LabelStatus status)
{
    return pushUnlessEmpty(std::make_unique<SetStatusCommand>(this, indices, status));
}

bool ProjectDocument::splitUnassigned(const data::SplitRatios& ratios, std::uint64_t seed)
{
    std::vector<std::size_t> unassigned;
    for (std::size_t i = 0; i < m_project.size(); ++i)
        if (m_project.entry(i).split == data::Split::Unassigned)
            unassigned.push_back(i);
    if (unassigned.empty() || !canEdit())
        return false;
    const std::vector<data::Split> drawn = data::DatasetSplitter::split(unassigned.size(), ratios, seed);
    std::map<data::Split, std::vector<std::size_t>> bySplit;
    for (std::size_t n = 0; n < unassigned.size(); ++n)
        bySplit[drawn[n]].push_back(unassigned[n]);
    m_undoStack->beginMacro(tr("Split %n image(s) at random", nullptr, int(unassigned.size())));
    for (const auto& [split, indices] : bySplit)
        setSplit(indices, split);
    m_undoStack->endMacro();
    return true;
}

template <typename Command>
bool ProjectDocument::pushUnlessEmpty(std::unique_ptr<Command> command)
{
    if (!canEdit() || command->isEmpty())
        return false;
    m_undoStack->push(command.release());
    return true;
}

std::size_t ProjectDocument::addImages(const std::vector<std::filesystem::path>& images, data::Split split)
{
    if (!canEdit())
        return 0;
    std::vector<data::ImageEntry> entries;
    data::Project scratch = m_project;  // names each new label map as the project would, uniquely
    for (const auto& image : images) {
        try {
            entries.push_back(scratch.entry(scratch.addImage(image, split)));
        } catch (const std::exception& e) {
            reportError(tr("Cannot add %1: %2").arg(fromStd(image.string()), fromStd(e.what())));
        }
    }
    if (entries.empty())
        return 0;
    const std::size_t added = entries.size();
    m_undoStack->push(new AddImagesCommand(this, std::move(entries)));
    return added;
}

bool ProjectDocument::removeImages(std::vector<std::size_t> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    indices.erase(std::remove_if(indices.begin(), indices.end(), [this](std::size_t i) { return i >= m_project.size(); }),
                  indices.end());
    if (!canEdit() || indices.empty())
        return false;
    m_undoStack->push(new RemoveImagesCommand(this, indices));
    return true;
}

std::optional<int> ProjectDocument::addClass(const QString& name, const data::Rgb& color)
{
    if (!canEdit())
        return std::nullopt;
    data::ClassSchema after = schema();
    data::LabelClass added;
    added.id = after.nextFreeId();
    added.name = name.toStdString();
    added.color = color;
    try {
        after.add(added);
    } catch (const std::exception& e) {
        reportError(tr("Cannot add class %1: %2").arg(name, fromStd(e.what())));
        return std::nullopt;
    }
    m_undoStack->push(new AddClassCommand(this, after, added));
    return added.id;
}

bool ProjectDocument::renameClass(int classId, const QString& name)
{
    return changeClass(classId, [&](data::LabelClass& c) { c.name = name.toStdString(); },
                       [this](data::ClassSchema after, const data::LabelClass& changed) {
                           return new RenameClassCommand(this, std::move(after), changed);
                       });
}

bool ProjectDocument::recolourClass(int classId, const data::Rgb& color)
{
    return changeClass(classId, [&](data::LabelClass& c) { c.color = color; },
                       [this](data::ClassSchema after, const data::LabelClass& changed) {
                           return new RecolourClassCommand(this, std::move(after), changed);
                       });
}

bool ProjectDocument::changeClass(int classId, const std::function<void(data::LabelClass&)>& change,
                                  const std::function<QUndoCommand*(data::ClassSchema, const data::LabelClass&)>& command)
{
    const data::LabelClass* current = schema().find(classId);
    if (!canEdit() || !current)
        return false;
    data::LabelClass changed = *current;
    change(changed);
    if (changed == *current)
        return false;
    data::ClassSchema after = schema();
    try {
        after.update(changed);
    } catch (const std::exception& e) {
        reportError(tr("Cannot change class %1: %2").arg(QString::fromStdString(current->name), fromStd(e.what())));
        return false;
    }
    m_undoStack->push(command(std::move(after), changed));
    return true;
}

bool ProjectDocument::mergeClasses(int fromId, int intoId)
{
    if (fromId == intoId || !schema().contains(fromId) || !schema().contains(intoId))
        return false;
    return relabel(fromId, intoId,
                   tr("Merge class %1 into %2").arg(fromStd(schema().find(fromId)->name), fromStd(schema().find(intoId)->name)));
}

bool ProjectDocument::deleteClass(int classId)
{
    if (!schema().contains(classId))
        return false;
    return relabel(classId, data::kUnlabelled, tr("Delete class %1").arg(fromStd(schema().find(classId)->name)));
}

bool ProjectDocument::relabel(int fromId, int toId, const QString& text)
{
    if (!canEdit() || !prepareLabelMapsChange() || !save())
        return false;
    RelabelClassesCommand::start(this, fromId, toId, text);
    return true;
}

bool ProjectDocument::acceptPredictions(const std::filesystem::path& runDir, const std::filesystem::path& checkpoint,
                                        std::vector<std::size_t> indices, const paint::AcceptOptions& options,
                                        const paint::WriteGuard& guard)
{
    if (indices.empty() || !canEdit() || !prepareLabelMapsChange() || !save())
        return false;
    AcceptPredictionsCommand::start(this, data::PredictionCache(runDir, checkpoint), std::move(indices), options, guard);
    return true;
}

bool ProjectDocument::propagateAlongSequence(std::vector<std::size_t> frames, const std::filesystem::path& runDir,
                                             const std::filesystem::path& checkpoint, int minConfidence)
{
    if (frames.empty() || !canEdit() || !prepareLabelMapsChange() || !save())
        return false;
    std::optional<data::PredictionCache> cache;
    if (!checkpoint.empty())
        cache.emplace(runDir, checkpoint);
    PropagateAlongSequenceCommand::start(this, std::move(frames), std::move(cache), minConfidence);
    return true;
}

void ProjectDocument::pushLabelMapsEdit(QUndoCommand* command)
{
    if (isReadOnly()) {
        delete command;
        return;
    }
    m_undoStack->push(command);
}

void ProjectDocument::noteLabelled(std::size_t index)
{
    if (!isReadOnly() && index < m_project.size() && m_project.entry(index).status == data::LabelStatus::Unlabelled)
        applyStatus(index, data::LabelStatus::InProgress);
}

bool ProjectDocument::prepareLabelMapsChange() { return !m_beforeLabelMapsChange || m_beforeLabelMapsChange(); }

bool ProjectDocument::save()
{
    m_autosave->stop();
    if (isReadOnly()) {
        m_lastError = m_readOnlyReason;
        return false;  // never written, by design: not an error to announce again
    }
    try {
        m_project.save();
    } catch (const std::exception& e) {
        m_lastError = fromStd(e.what());
        emit errorOccurred(m_lastError);
        return false;
    }
    if (m_modified) {
        m_modified = false;
        emit modifiedChanged(false);
    }
    emit saved();
    return true;
}

void ProjectDocument::setAutosaveDelay(int milliseconds) { m_autosave->setInterval(milliseconds); }

void ProjectDocument::markModified()
{
    m_autosave->start();
    if (!m_modified) {
        m_modified = true;
        emit modifiedChanged(true);
    }
}

void ProjectDocument::reportError(const QString& message)
{
    m_lastError = message;
    emit errorOccurred(message);
}

void ProjectDocument::applySplit(std::size_t index, data::Split split)
{
    m_project.setSplit(index, split);
    markModified();
    emit splitChanged(index);
}

void ProjectDocument::applyStatus(std::size_t index, data::LabelStatus status)
{
    m_project.setStatus(index, status);
    markModified();
    emit statusChanged(index);
}

void ProjectDocument::insertEntry(std::size_t index, const data::ImageEntry& entry)
{
    emit imageAboutToBeInserted(index);
    m_project.insertEntry(index, entry);
    markModified();
    emit imageInserted(index);
}

void ProjectDocument::removeEntry(std::size_t index)
{
    emit imageAboutToBeRemoved(index);
    m_project.removeImage(index);
    markModified();
    emit imageRemoved(index);
}

void ProjectDocument::applySchema(const data::ClassSchema& schema)
{
    m_project.setSchema(schema);
    markModified();
    emit schemaChanged();
}

void ProjectDocument::announceLabelMaps(const std::vector<std::size_t>& changed, const std::vector<std::size_t>& kept)
{
    emit labelMapsChanged(changed, kept);
    if (!kept.empty())
        emit message(tr("%n image(s) labelled since were left as they are", nullptr, int(kept.size())));
}

std::filesystem::path ProjectDocument::newBackupFolder() const
{
    const auto stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    std::filesystem::path folder = data::RelabelTransaction::undoRoot(m_project.file()) / stamp.toStdString();
    for (int n = 1; std::filesystem::exists(folder); ++n)
        folder = data::RelabelTransaction::undoRoot(m_project.file()) / (stamp.toStdString() + "-" + std::to_string(n));
    return folder;
}

void ProjectDocument::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

void ProjectDocument::runJob(const QString& label, Work work, std::function<void(const QString&)> finish, bool cancellable)
{
    m_cancellable = cancellable;
    setBusy(true);
    m_cancel = false;
    emit jobProgress(label, 0, 1);
    QPointer<ProjectDocument> self(this);
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, finish = std::move(finish)] {
        const QString error = watcher->result();
        watcher->deleteLater();
        setBusy(false);
        finish(error);
    });
    m_job = QtConcurrent::run(workerPool(), [self, label, work = std::move(work), cancel = &m_cancel]() -> QString {
        auto progress = [self, label, cancel](std::size_t done, std::size_t total) {
            // Queued: the worker never touches the document's signals directly.
            QMetaObject::invokeMethod(self.data(), [self, label, done, total] {
                if (self)
                    emit self->jobProgress(label, done, total);
            }, Qt::QueuedConnection);
            return !cancel->load();
        };
        try {
            work(progress);
            return {};
        } catch (const std::exception& e) {
            return fromStd(e.what());
        }
    });
    watcher->setFuture(m_job);
}

void ProjectDocument::cancelJob() { m_cancel = true; }

bool ProjectDocument::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (m_busy && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(1);
    }
    return !m_busy;
}

}  // namespace segstudio::document
