#pragma once

#include <QList>
#include <QWidget>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QColor;
class QUndoGroup;

namespace segstudio::data {
class ClassSchema;
class Project;
struct LabelClass;
}  // namespace segstudio::data

namespace segstudio::ui {

class AbstractTool;
class ClassesPanel;
class LabelCanvas;
class LabelDocument;
class ToolSettings;

// The pixel-labelling editor as one widget: the canvas with its tools, a tool bar, and a classes
// panel that the main window docks. This is the only class ui/app needs to know.
// Requirements: GUI thread only; the project passed to setProject() outlives its use here (call
// setProject(nullptr) before destroying it).
// Guarantees: the current label map reaches disk only through save() (atomic) or the autosave on
// image switch; unsaved edits are also written to the project's recovery folder on a timer and
// restored by openImage() after a crash; failures never drop edits, they emit errorOccurred.
class LabelEditor : public QWidget {
    Q_OBJECT

public:
    explicit LabelEditor(QWidget* parent = nullptr);
    ~LabelEditor() override;

    void setProject(data::Project* project);  // non-owning; nullptr closes
    bool openImage(std::size_t index);        // autosaves the current image first; false + errorOccurred on failure
    std::optional<std::size_t> currentIndex() const;
    bool save();                              // writes the current label map (atomic); false + errorOccurred on failure
    bool isModified() const;
    bool maybeSave(QWidget* dialogParent);    // ask Save/Discard/Cancel when modified; false = cancelled
    QUndoGroup* undoGroup() const;            // for Edit>Undo/Redo actions
    QList<QAction*> toolActions() const;      // checkable, exclusive, with shortcuts
    QList<QAction*> viewActions() const;      // zoom in/out, fit, 1:1, toggle labels, outline mode
    ClassesPanel* classesPanel() const;       // a QWidget the main window docks on the right

    // Beyond the facade: for tests, benchmarks and power users.
    LabelCanvas* canvas() const;
    LabelDocument* document() const;  // nullptr when no image is open
    ToolSettings* toolSettings() const;
    void setAutosaveInterval(int milliseconds);
    bool writeRecovery();  // writes unsaved edits to the recovery folder now (the timer calls it)

    // Class operations (the classes panel's buttons end here). They change the project's schema
    // and save the project file; merge and delete also relabel every label map of the dataset
    // (after saving the open one) and clear the open image's undo history. false + errorOccurred
    // on failure.
    std::optional<int> addClass(const QString& name, const QColor& color);
    bool renameClass(int classId, const QString& name);
    bool recolourClass(int classId, const QColor& color);
    bool mergeClasses(int fromId, int intoId);
    bool deleteClass(int classId);
    bool fillUnlabelled(int classId);  // one undoable edit on the open image

signals:
    void imageLabelled(std::size_t index, double labelledFraction);
    void statusMessage(const QString& text);
    void modifiedChanged(bool modified);
    void errorOccurred(const QString& message);

private:
    void createTools();
    void addTool(AbstractTool* tool, const QString& id, const QKeySequence& key);
    QAction* addViewAction(const QString& text, const QString& id, const QKeySequence& key);
    void createViewActions();
    void createToolBarControls();
    void createClassShortcuts();
    void attachDocument(std::unique_ptr<LabelDocument> document, std::size_t index, const std::array<std::int64_t, 256>& counts);
    void closeDocument();
    bool updateClass(int classId, const std::function<void(data::LabelClass&)>& change);
    bool relabelDataset(int fromId, int toId);
    bool commitSchema(data::ClassSchema schema);
    void schemaChanged();
    void updateCounts();
    void showCounts(const std::array<std::int64_t, 256>& counts);
    void updateStatus();
    void onModifiedChanged(bool modified);
    void updateTitle();
    void reportError(const QString& message);

    // The editor's parts live behind one pointer so that ui/app, which includes this header,
    // does not rebuild when the editor's internals change.
    class Private;
    std::unique_ptr<Private> m_d;
};

}  // namespace segstudio::ui
