#pragma once

#include "ImageLoader.h"
#include "PixelHistoryCache.h"

#include "data/labels/LabelCounts.h"

#include <QFuture>
#include <QObject>
#include <QStringList>

#include <cstddef>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QUndoGroup;
class QWidget;

namespace cv {
class Mat;
}

namespace segstudio::data {
inline namespace labels { class RecoveryStore; }
}

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::editor {

class LabelCanvas;
class LabelDocument;
class RecoveryKeeper;

// The open image's life, from the editor's point of view: opening it (decoded on workers and
// swapped in), coming back to an image left earlier with its undo history, saving it, its
// recovery copy (written shortly after each edit, offered back after a crash), and following the
// project while it is open (images removed or inserted, classes merged, maps rewritten).
// The canvas shows the open image's document and the undo group holds its stack; everything else
// the editor does with an image (counts, prediction row, propagation) follows the signals.
// Requirements: GUI thread only; canvas, undo group and dialog parent outlive the session.
// Guarantees: the label map reaches disk only through save() (atomic) or the save on image switch
// (or, when saveOnSwitch() is off, the user's answer); failures never drop edits, they emit
// errorOccurred.
class ImageSession : public QObject {
    Q_OBJECT

public:
    // Shown a line per recovered image ("image — time"); true restores, false discards.
    using RecoveryPrompt = std::function<bool(const QStringList& found)>;

    ImageSession(LabelCanvas* canvas, QUndoGroup* undoGroup, QWidget* dialogParent);
    ~ImageSession() override;

    // Saves and closes the open image, then follows `document` (nullptr: none) and, when it can be
    // written, offers back the recovery copies a crash left.
    void setProjectDocument(document::ProjectDocument* document);

    bool open(std::size_t index);     // waits for the decode
    bool request(std::size_t index);  // returns at once; opened() when the image is in
    void cancelOpen();
    bool isOpening() const;
    // The image on screen, or the one on its way when an open is pending (stepping on from it).
    std::optional<std::size_t> latestIndex() const;
    std::optional<std::size_t> index() const;
    LabelDocument* document() const;  // nullptr when no image is open

    bool save();
    bool isModified() const;
    bool maybeSave(QWidget* dialogParent);
    void keepEditsForRecovery();
    bool writeRecovery();
    void setRecoveryDelay(int milliseconds);
    void setRecoveryPrompt(RecoveryPrompt prompt);
    std::optional<std::size_t> recoveredImage() const;
    void setSaveOnSwitch(bool save);
    bool saveOnSwitch() const;

signals:
    void opening();                                                   // the image on screen takes no edit now
    void openEnded();                                                 // opened, failed or cancelled
    void opened(std::size_t index, const data::LabelCounts& counts);  // on the canvas already
    void closing();                                                   // the open document is about to go
    void closed();                                                    // no image is open now
    void countsChanged();                                             // the open image's ids were remapped
    void saved(std::size_t index, const QString& labelMap, double labelledFraction);
    void statusMessage(const QString& text);
    void errorOccurred(const QString& message);

private:
    bool startOpen(std::size_t index);
    bool finishOpen(quint64 generation);
    bool leaveCurrentImage();
    void attach(std::unique_ptr<LabelDocument> document, std::size_t index, const LabelCanvas::Prepared& prepared,
                const data::LabelCounts& counts);
    void close();
    cv::Mat readRecovered(const std::string& imageKey, int width, int height);
    void offerRecovery();
    std::vector<std::string> projectImages() const;
    void connectProject();
    void onBusyChanged(bool busy);
    void onImageAboutToBeRemoved(std::size_t index);
    void onImageRemoved(std::size_t index);
    void onImageInserted(std::size_t index);
    void onClassesRemapped(quint64 step, const std::array<std::uint8_t, 256>& table);
    void onClassesRemapUndone(quint64 step, const std::vector<std::size_t>& kept);
    void onLabelMapsReplaced(const std::vector<std::size_t>& changed);

    LabelCanvas* m_canvas;
    QUndoGroup* m_undoGroup;
    QWidget* m_dialogParent;
    document::ProjectDocument* m_project = nullptr;
    std::shared_ptr<data::RecoveryStore> m_recovery;
    RecoveryKeeper* m_keeper;
    RecoveryPrompt m_recoveryPrompt;
    bool m_saveOnSwitch = true;
    std::unique_ptr<LabelDocument> m_document;
    std::optional<std::size_t> m_index;
    // The image being opened on a worker; results of older opens are dropped.
    QFuture<ImageLoader::Loaded> m_opening;
    quint64 m_openGeneration = 0;
    bool m_openPending = false;
    std::size_t m_openingIndex = 0;
    std::optional<std::size_t> m_reopenAfterJob;  // an open a dataset job interrupted
    PixelHistoryCache m_history;  // the undo stacks of images left, to come back to
};

}  // namespace segstudio::ui::editor
