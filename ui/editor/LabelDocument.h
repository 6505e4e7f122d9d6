#pragma once

#include "paint/LabelPatch.h"
#include "paint/PatchRecorder.h"

#include <QObject>
#include <QRect>
#include <QString>

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>

class QUndoStack;

namespace segstudio::paint {
class WriteGuard;
struct RegionMask;
}  // namespace segstudio::paint

namespace segstudio::ui::editor {

// One image being labelled: the RGB image, its label map (CV_8UC1, 255 = unlabelled) and the
// QUndoStack of its edits. Tools edit in two ways: an interactive edit (beginEdit, touch before
// each write, endEdit pushes one PaintLabels command holding only the changed tiles) so a stroke
// shows live yet undoes as one entry; or paintRegion() for one-shot fills.
// Requirements: GUI thread; call touch(rect) before writing inside rect during an edit.
// Guarantees: every finished edit is exactly one undo entry; labelsChanged() names a rectangle
// covering every changed pixel; isModified() is true from the first edit until markSaved().
class LabelDocument : public QObject {
    Q_OBJECT

public:
    LabelDocument(std::string imageKey, cv::Mat rgb, cv::Mat labels, QObject* parent = nullptr);
    ~LabelDocument() override;

    const std::string& imageKey() const { return m_imageKey; }  // project-relative image path
    const cv::Mat& image() const { return m_image; }
    const cv::Mat& labels() const { return m_labels; }
    cv::Size size() const { return m_labels.size(); }
    QUndoStack* undoStack() const { return m_undoStack; }

    void beginEdit();
    bool editing() const { return m_recorder.active(); }
    cv::Mat& touch(const cv::Rect& rect);  // returns the map to write into
    void notifyChanged(const cv::Rect& rect);
    void endEdit(const QString& text);
    void cancelEdit();
    std::int64_t paintRegion(const paint::RegionMask& region, std::uint8_t value, const paint::WriteGuard& guard,
                             const QString& text);

    // Called only by PaintLabels: the one place where undo/redo changes pixels.
    void applyPatch(const paint::LabelPatch& patch, bool after);

    // Replaces the whole map as one undoable edit (restoring a crash-recovery copy: undo goes back
    // to what is on disk). labels has the document's size and type.
    void replaceLabels(const cv::Mat& labels, const QString& text);

    // A class merge/delete of the project (step): the labels and every edit in the history map
    // their ids through table, so the pixel history survives the class change. unremapClasses()
    // takes it back (the step was undone); false when this document never saw the step.
    void remapClasses(quint64 step, const std::array<std::uint8_t, 256>& table);
    bool unremapClasses(quint64 step);

    bool isModified() const;
    void markSaved();
    void revertToSaved();  // back to the last saved state (for "Discard")

signals:
    void labelsChanged(const QRect& rect);
    void modifiedChanged(bool modified);

private:
    void emitModifiedIfChanged();

    std::string m_imageKey;
    cv::Mat m_image;
    cv::Mat m_labels;
    QUndoStack* m_undoStack;
    paint::PatchRecorder m_recorder;
    bool m_lastModified = false;
    std::map<quint64, cv::Mat> m_labelsBeforeRemap;
};

}  // namespace segstudio::ui::editor
