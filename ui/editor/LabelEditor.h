#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QColor;
class QToolBar;
class QUndoGroup;

namespace cv {
class Mat;
}

namespace segstudio::paint {
struct AcceptOptions;
}

namespace segstudio::data {
inline namespace labels { class ClassSchema; }
inline namespace project { class Project; }
inline namespace labels { struct LabelClass; }
}  // namespace segstudio::data

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::editor {

struct CanvasImages;
class ClassesPanel;
class LabelCanvas;
class LabelDocument;
class LabelingTips;
class PredictionBar;
class ToolSettings;

// The pixel-labelling editor as one widget: the canvas with its tools, a tool bar, and a classes
// panel that the main window docks. The shell talks to it through its signals and slots below.
// Its parts: ImageSession (the open image's life: opening on workers, recovery, pixel history,
// saving), ToolActions (the tools and their keys), ViewActions, ToolOptionsBar, FrameActions
// (sequence steps and Propagate) and ClassesPanel (which edits the classes itself); the editor
// keeps the canvas, the tools and the layers.
// Requirements: GUI thread only; the document passed to setDocument() outlives its use here (call
// setDocument(nullptr) before destroying it).
// Guarantees: the current label map reaches disk only through save() (atomic) or the save on image
// switch (or, when saveOnSwitch() is off, the user's answer); the project's recovery folder holds
// exactly the unsaved edits, rewritten shortly after each edit, undo or redo (RecoveryKeeper);
// after a crash setDocument() offers them back (Restore / Discard) and openImage() restores them
// as one undoable edit; failures never drop edits, they emit errorOccurred.
class LabelEditor : public QWidget {
    Q_OBJECT

public:
    // Shown a line per recovered image ("image — time"); true restores, false discards.
    using RecoveryPrompt = std::function<bool(const QStringList& found)>;

    explicit LabelEditor(QWidget* parent = nullptr);
    ~LabelEditor() override;

    // The project to label (non-owning; nullptr closes). The editor follows its signals: images
    // removed or inserted, the class list, merges and deletes (in memory, keeping the history).
    void setDocument(document::ProjectDocument* document);
    document::ProjectDocument* projectDocument() const;
    bool openImage(std::size_t index);        // autosaves the current image first; false + errorOccurred on failure
    // The same without waiting: the image is decoded on workers and swapped in on this thread
    // (imageOpened); the one on screen takes no edit meanwhile. A later request drops an earlier
    // one's result. false when refused at once (the current image could not be saved).
    bool requestImage(std::size_t index);
    bool isOpening() const;
    std::optional<std::size_t> currentIndex() const;
    bool save();                              // writes the current label map (atomic); false + errorOccurred on failure
    // The open image closes without saving: its unsaved edits are written as the recovery copy
    // (offered at the next start) and the label map on disk stays as last saved. For a shutdown
    // nobody can be asked about (SIGTERM, SIGHUP).
    void keepEditsForRecovery();
    bool isModified() const;
    bool maybeSave(QWidget* dialogParent);    // ask Save/Discard/Cancel when modified; false = cancelled
    QUndoGroup* undoGroup() const;            // for Edit>Undo/Redo actions
    QList<QAction*> toolActions() const;      // checkable, exclusive, with shortcuts
    QList<QAction*> viewActions() const;      // zoom in/out, fit, 1:1, toggle labels, outline mode
    // Frames of a video sequence (the open image's, told from the file names): Previous / Next
    // Frame, and Propagate from Previous / Next Frame, which carries the labels of the nearest
    // labelled frame onto the open image by optical flow, in the background, as one undoable edit.
    QList<QAction*> frameActions() const;
    QList<QAction*> propagateActions() const;  // and Clear This Image's Labels: the Edit menu's image edits
    bool isPropagating() const;
    ClassesPanel* classesPanel() const;       // a QWidget the main window docks on the right
    QList<QToolBar*> toolBars() const;        // tools, and their options
    void setCaption(const QString& text);     // the line above the canvas: which image, where in the list
    QString caption() const;
    LabelingTips* labelingTips() const;        // "how labeling works", shown on the first image ever opened

    // Beyond the facade: for tests, benchmarks and power users.
    LabelCanvas* canvas() const;
    LabelDocument* document() const;  // nullptr when no image is open
    ToolSettings* toolSettings() const;
    void setRecoveryDelay(int milliseconds);  // after an edit, before the recovery copy is written
    bool writeRecovery();  // brings the recovery folder up to date now and waits for the write
    void setRecoveryPrompt(RecoveryPrompt prompt);  // before setDocument(); default: a message box
    std::optional<std::size_t> recoveredImage() const;  // the first image with restored edits
    // On (the default) switching images saves the current one; off, the user is asked.
    void setSaveOnSwitch(bool save);
    bool saveOnSwitch() const;

    // The classes panel's buttons push the project's class commands themselves (ClassesPanel);
    // what touches the open image's pixels stays here.
    bool fillUnlabelled(int classId);  // one undoable edit on the open image
    bool clearLabels();                // every pixel unlabelled, one undoable edit; false: nothing to clear

    // The model's prediction of image `index` (class ids, confidence, entropy of its size), for the
    // prediction layers and Accept; false when that image is no longer open or the size differs.
    // scores: every class's score at the model's size (the smart click works from them), or empty.
    bool setPrediction(std::size_t index, const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy,
                       const cv::Mat& scores);
    bool setPrediction(std::size_t index, const cv::Mat& classes, const cv::Mat& confidence, const cv::Mat& entropy);
    // The checkpoint whose predictions are shown (empty: none): Propagate corrects the model by the
    // source frame's labels when its prediction cache holds that frame's scores.
    void setPredictionCheckpoint(const QString& runDir, const QString& checkpoint);
    // Copies the prediction into the labels as one undoable edit, respecting the locks; the number
    // of changed pixels, -1 without a prediction.
    std::int64_t acceptPrediction(const paint::AcceptOptions& options);
    // What the other rooms may ask of the prediction row: show the errors against the labels
    // (a suspect label opened from the Predictions panel), and the confidence from which Accept
    // takes a pixel, 0..255 (Accept Prediction for a selection of images uses the same).
    void showPredictionErrors();
    int predictionMinConfidence() const;

signals:
    void imageLabelled(std::size_t index, double labelledFraction);
    void statusMessage(const QString& text);
    void modifiedChanged(bool modified);
    void labelsSaved(const QString& labelMap);  // the label map written, relative to the project folder
    void imageOpened(std::size_t index);
    // Previous / Next Frame asks for this image: the window selects it in the browser, which opens
    // it. With nobody connected, the editor opens it itself.
    void frameRequested(std::size_t index);
    void errorOccurred(const QString& message);

private:
    void updateEditable();
    QString whyNotEditable() const;  // one sentence: read-only, busy or opening; empty when editable
    void createClassShortcuts();
    void createFrameActions();
    void createImageSession();
    void onImageOpened(std::size_t index, const std::array<std::int64_t, 256>& counts);
    void goToFrame(bool next);
    void propagateFrom(bool next);
    void connectDocument();
    void schemaChanged();
    const data::Project* project() const;
    void updateCounts();
    void showCounts(const std::array<std::int64_t, 256>& counts);
    void updateStatus();
    void onModifiedChanged(bool modified);
    void updateTitle();

    // The editor's parts live behind one pointer so that the shell, which includes this header,
    // does not rebuild when the editor's internals change.
    class Private;
    std::unique_ptr<Private> m_d;
};

}  // namespace segstudio::ui::editor
