#pragma once

#include "data/labels/ClassSchema.h"
#include "data/labels/LabelCounts.h"

#include <QColor>
#include <QWidget>

#include <set>

#include <optional>

class QCheckBox;
class QPushButton;
class QTableWidget;

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::editor {

class ToolSettings;

// The classes of the open project: colour, name, hotkey, pixel count in the current image, a
// visibility and a protect ("lock") checkbox per class, and the buttons that add, rename,
// recolour, merge and delete classes. It asks the user (dialogs, confirmations) and pushes the
// project document's undoable class command itself, as Tiled's docks do; a merge or delete runs
// as the document's background job over every label map (the editor saves the open image first
// and follows the ids in memory). It follows the document's class list.
// Requirements: GUI thread; the settings outlive the panel; the document outlives its use here
// (setDocument(nullptr) before destroying it).
// Guarantees: selecting a row makes that class current, and the current class is always shown
// selected.
class ClassesPanel : public QWidget {
    Q_OBJECT

public:
    explicit ClassesPanel(ToolSettings* settings, QWidget* parent = nullptr);

    void setDocument(document::ProjectDocument* document);  // nullptr: no project, no classes
    void setSchema(const data::ClassSchema& schema);  // what setDocument() shows (a panel alone: its classes)
    void setCounts(const data::LabelCounts& counts);
    // Read-only or busy: the buttons that edit classes are disabled, their tooltip says why.
    void setEditable(bool editable, const QString& why = {});
    int rowOf(int classId) const;  // -1 when absent
    void showClass(int classId);   // selects it (the class to paint with) and scrolls it into view
    QColor distinctColour() const; // for a new class: far from every class's colour
    QTableWidget* table() const { return m_table; }

    // What the buttons do once the user has answered: one undoable command of the document each;
    // false (nullopt) when refused (no document, read-only, busy, a name taken, an unknown id).
    std::optional<int> addClass(const QString& name, const QColor& color);  // selects the new class
    bool renameClass(int classId, const QString& name);
    bool recolourClass(int classId, const QColor& color);
    bool mergeClasses(int fromId, int intoId);
    bool deleteClass(int classId);

signals:
    void fillUnlabelledRequested(int classId);
    void visibilityChanged(int classId, bool visible);

private:
    enum Column { VisibleColumn, NameColumn, KeyColumn, CountColumn, LockColumn, ColumnCount };

    void rebuild();
    void onCellChanged(int row, int column);
    void onSelectionChanged();
    void selectCurrentClass();
    int selectedClass() const;
    void askAdd();
    void askRename();
    void askRecolour();
    void askMerge();
    void askDelete();

    ToolSettings* m_settings;
    document::ProjectDocument* m_document = nullptr;
    data::ClassSchema m_schema;
    data::LabelCounts m_counts{};
    QTableWidget* m_table;
    QCheckBox* m_onlyUnlabelled;
    std::set<int> m_hidden;  // survives rebuilds (rename, recolour), as the canvas's state does
    bool m_rebuilding = false;
    QList<QPushButton*> m_editButtons;
};

}  // namespace segstudio::ui::editor
