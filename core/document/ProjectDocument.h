#pragma once

#include "data/labels/ClassSchema.h"
#include "data/project/ImageEntry.h"
#include "data/project/DatasetSplitter.h"
#include "data/project/Project.h"
#include "data/project/ProjectLock.h"
#include "paint/PredictionAcceptance.h"
#include "paint/WriteGuard.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTimer;
class QUndoCommand;
class QUndoStack;

namespace segstudio::document {

// One open project as a document, as Tiled's MapDocument is for a map: it owns the data::Project,
// the project lock, the project's undo stack and its save state, and it is the only way to change
// the project. Every edit is a QUndoCommand (one small file each) pushed on undoStack(); views
// listen to the specific signals below instead of reading a raw pointer and patching themselves.
// Long edits (merging or deleting a class relabels every label map) run on a worker as a job: the
// document is busy meanwhile, reports progress, and refuses other edits.
// Policy: the project file is saved shortly after each change (autosave, atomic); label maps are
//   the editor's, except for the dataset-wide commands, which save the open image first
//   (setBeforeLabelMapsChange) and tell it what changed (labelMapsChanged, classesRemapped).
// Requirements: GUI thread (or the thread that owns it); Qt Core/Gui only, testable without a window.
class ProjectDocument : public QObject {
    Q_OBJECT

public:
    // A class-id table: value v of a label map becomes table[v] (a merge or a delete).
    using ClassTable = std::array<std::uint8_t, 256>;
    using BeforeLabelMapsChange = std::function<bool()>;

    explicit ProjectDocument(data::Project project, QObject* parent = nullptr);
    ~ProjectDocument() override;

    // Loads a project file, first finishing any merge or delete a crash interrupted (only while
    // holding the lock, taken once for the document's life). Throws DataError naming the file and
    // the problem.
    static std::unique_ptr<ProjectDocument> open(const std::filesystem::path& file, QObject* parent = nullptr);
    QStringList recoveredSteps() const { return m_recovered; }  // what open() put back, one line each
    bool lockHeldByOther() const;                                // another SegStudio has it open
    QString lockOwner() const;                                   // "process 123 on host", when held by another
    // Read-only: open in another SegStudio, or its folder or file cannot be written. Every edit is
    // refused and nothing is ever written (project file, label maps, recovery copies).
    bool isReadOnly() const { return !m_readOnlyReason.isEmpty(); }
    QString readOnlyReason() const { return m_readOnlyReason; }  // one sentence for the banner

    const data::Project& project() const { return m_project; }
    const data::ClassSchema& schema() const { return m_project.schema(); }
    std::size_t size() const { return m_project.size(); }
    QUndoStack* undoStack() const { return m_undoStack; }

    // Edits: each pushes one command; false when it would change nothing, is invalid, or a job runs.
    bool setSplit(const std::vector<std::size_t>& indices, data::Split split);
    bool setStatus(const std::vector<std::size_t>& indices, data::LabelStatus status);
    // The images without a split get one at random (DatasetSplitter, seeded): one undoable step.
    // False when every image has a split already.
    bool splitUnassigned(const data::SplitRatios& ratios, std::uint64_t seed = 0);
    std::size_t addImages(const std::vector<std::filesystem::path>& images, data::Split split);  // count added
    bool removeImages(std::vector<std::size_t> indices);
    std::optional<int> addClass(const QString& name, const data::Rgb& color);
    bool renameClass(int classId, const QString& name);
    bool recolourClass(int classId, const data::Rgb& color);
    // Start the relabel job; the command is pushed when it succeeds (undo then restores the bytes).
    bool mergeClasses(int fromId, int intoId);
    bool deleteClass(int classId);
    // Accept Prediction for a selection of images: the checkpoint's cached predictions into their
    // label maps, as a job (AcceptPredictionsCommand); the options and guard are the editor's
    // confidence floor and locks. False when it cannot start (read-only, busy, the open image
    // could not be saved); the outcome comes as message() or errorOccurred().
    bool acceptPredictions(const std::filesystem::path& runDir, const std::filesystem::path& checkpoint,
                           std::vector<std::size_t> indices, const paint::AcceptOptions& options,
                           const paint::WriteGuard& guard);
    // Propagate Along the Sequence: the labels of labelled frames carried by optical flow into the
    // unlabelled frames right after them, frame after frame, as a job (PropagateAlongSequenceCommand);
    // frames: those that may be written (paint::PropagationBatch::framesFor a selection); runDir and
    // checkpoint (empty: none) name the predictions that fill what the flow cannot carry where they
    // are at least minConfidence (0..255) sure. False when it cannot start (read-only, busy, the open
    // image or the project file could not be saved); the outcome comes as message() or errorOccurred().
    bool propagateAlongSequence(std::vector<std::size_t> frames, const std::filesystem::path& runDir,
                                const std::filesystem::path& checkpoint, int minConfidence);
    // Pushes an edit of label maps made elsewhere.
    void pushLabelMapsEdit(QUndoCommand* command);

    // Saving pixels marks an unlabelled image "in progress": a consequence of the pixel edit the
    // user undoes in the image, so not a project command of its own.
    void noteLabelled(std::size_t index);

    bool save();  // the project file, now; false + errorOccurred
    bool isModified() const { return m_modified; }
    void setAutosaveDelay(int milliseconds);
    QString lastError() const { return m_lastError; }

    // The open image's edits must reach disk before a dataset-wide change reads the maps.
    void setBeforeLabelMapsChange(BeforeLabelMapsChange save) { m_beforeLabelMapsChange = std::move(save); }
    bool prepareLabelMapsChange();

    // Jobs.
    bool isBusy() const { return m_busy; }
    void cancelJob();                         // a running merge/delete stops and rolls back
    // Spins the event loop until the job's finish has run (tests, benchmarks, closing a project
    // while its views are attached). The destructor does not spin: it cancels what can be
    // cancelled and waits for the worker without running its finish.
    bool waitForIdle(int timeoutMs = 60000);
    using Work = std::function<void(const std::function<bool(std::size_t, std::size_t)>& progress)>;
    // Runs work on a worker while the document is busy; then finish(error) on this thread ("" on
    // success). For the commands. Only a job that can roll itself back is cancellable (the first
    // step of a merge); an undo or redo runs to its end.
    void runJob(const QString& label, Work work, std::function<void(const QString& error)> finish, bool cancellable = false);
    bool jobCancellable() const { return m_busy && m_cancellable; }
    bool jobCancelled() const { return m_cancel.load(); }
    std::filesystem::path newBackupFolder() const;  // <project>/.segstudio-undo/<stamp>

    // Called by the commands (redo/undo) only: change the project and tell the views.
    void applySplit(std::size_t index, data::Split split);
    void applyStatus(std::size_t index, data::LabelStatus status);
    void beginEntryChanges() { emit entriesAboutToChange(); }
    void endEntryChanges() { emit entriesChanged(); }
    void insertEntry(std::size_t index, const data::ImageEntry& entry);
    void removeEntry(std::size_t index);
    void applySchema(const data::ClassSchema& schema);
    void announceLabelMaps(const std::vector<std::size_t>& changed, const std::vector<std::size_t>& kept);
    void announceReplacedMaps(const std::vector<std::size_t>& changed) { emit labelMapsReplaced(changed); }
    void announceRemap(quint64 step, const ClassTable& table) { emit classesRemapped(step, table); }
    void announceRemapUndone(quint64 step, const std::vector<std::size_t>& kept) { emit classesRemapUndone(step, kept); }
    void reportError(const QString& message);
    void markModified();

signals:
    // Around a command's batch of insertions/removals (views that key work by row start over).
    void entriesAboutToChange();
    void entriesChanged();
    void imageAboutToBeInserted(std::size_t index);
    void imageInserted(std::size_t index);
    void imageAboutToBeRemoved(std::size_t index);
    void imageRemoved(std::size_t index);
    void splitChanged(std::size_t index);
    void statusChanged(std::size_t index);
    void schemaChanged();  // after each of the class signals below, and whenever the class list changes
    void classAdded(int classId);                  // added, or back by an undo
    void classRemoved(int classId);                // deleted, merged away, or an add undone
    void classChanged(int classId);                // renamed or recoloured
    void classesMerged(int fromId, int intoId);    // fromId is gone, its pixels are intoId's
    // Label maps rewritten on disk by a project command (the kept ones were left as they were).
    void labelMapsChanged(const std::vector<std::size_t>& changed, const std::vector<std::size_t>& kept);
    // New content the open image must reload (Accept Prediction); a merge/delete is followed in
    // memory instead (classesRemapped), keeping the pixel history.
    void labelMapsReplaced(const std::vector<std::size_t>& changed);
    // A merge/delete step mapped class ids (the open image follows in memory, keeping its history);
    // its undo restored the maps except the kept ones.
    void classesRemapped(quint64 step, const ClassTable& table);
    void classesRemapUndone(quint64 step, const std::vector<std::size_t>& kept);
    void modifiedChanged(bool modified);
    void saved();
    void busyChanged(bool busy);
    void jobProgress(const QString& label, std::size_t done, std::size_t total);
    void errorOccurred(const QString& message);
    // An error the user must read before going on (labels at risk; what was kept, and where):
    // the window shows it as a modal message, not a status-bar line.
    void alert(const QString& title, const QString& text);
    void message(const QString& text);

private:
    ProjectDocument(data::Project project, std::unique_ptr<data::ProjectLock> lock, data::ProjectLock::Result locked,
                    QObject* parent);
    void adoptLock(std::unique_ptr<data::ProjectLock> lock, data::ProjectLock::Result locked);
    bool canEdit() const;
    template <typename Command>
    bool pushUnlessEmpty(std::unique_ptr<Command> command);  // false when it would change nothing
    // Rename or recolour: the class as change() leaves it, pushed as command(schema after, class).
    bool changeClass(int classId, const std::function<void(data::LabelClass&)>& change,
                     const std::function<QUndoCommand*(data::ClassSchema, const data::LabelClass&)>& command);
    bool relabel(int fromId, int toId, const QString& text);
    void setBusy(bool busy);

    data::Project m_project;
    std::unique_ptr<data::ProjectLock> m_lock;
    bool m_lockHeldByOther = false;
    QString m_readOnlyReason;
    QStringList m_recovered;
    QUndoStack* m_undoStack;
    QTimer* m_autosave;
    bool m_modified = false;
    bool m_busy = false;
    bool m_cancellable = false;
    std::atomic<bool> m_cancel{false};
    QFuture<QString> m_job;  // the job under way: the destructor waits for it (the worker holds &m_cancel)
    QString m_lastError;
    BeforeLabelMapsChange m_beforeLabelMapsChange;
};

}  // namespace segstudio::document
