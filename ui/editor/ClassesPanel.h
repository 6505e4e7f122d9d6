#pragma once

#include "data/labels/ClassSchema.h"
#include "data/labels/LabelCounts.h"

#include <QColor>
#include <QWidget>

#include <set>

class QCheckBox;
class QPushButton;
class QTableWidget;

namespace segstudio::ui {

class ToolSettings;

// The classes of the open project: colour, name, hotkey, pixel count in the current image, a
// visibility and a protect ("lock") checkbox per class, and the buttons that add, rename,
// recolour, merge and delete classes. It asks the user (dialogs, confirmations) and emits the
// decision; LabelEditor carries it out, because merges and deletes touch the whole dataset.
// Requirements: GUI thread; the settings outlive the panel.
// Guarantees: selecting a row makes that class current, and the current class is always shown
// selected.
class ClassesPanel : public QWidget {
    Q_OBJECT

public:
    explicit ClassesPanel(ToolSettings* settings, QWidget* parent = nullptr);

    void setSchema(const data::ClassSchema& schema);
    void setCounts(const data::LabelCounts& counts);
    // Read-only or busy: the buttons that edit classes are disabled, their tooltip says why.
    void setEditable(bool editable, const QString& why = {});
    int rowOf(int classId) const;  // -1 when absent
    void showClass(int classId);   // selects it (the class to paint with) and scrolls it into view
    QColor distinctColour() const; // for a new class: far from every class's colour
    QTableWidget* table() const { return m_table; }

signals:
    void addRequested(const QString& name, const QColor& color);
    void renameRequested(int classId, const QString& name);
    void recolourRequested(int classId, const QColor& color);
    void mergeRequested(int fromId, int intoId);
    void deleteRequested(int classId);
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
    data::ClassSchema m_schema;
    data::LabelCounts m_counts{};
    QTableWidget* m_table;
    QCheckBox* m_onlyUnlabelled;
    std::set<int> m_hidden;  // survives rebuilds (rename, recolour), as the canvas's state does
    bool m_rebuilding = false;
    QList<QPushButton*> m_editButtons;
};

}  // namespace segstudio::ui
