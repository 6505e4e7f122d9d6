#pragma once

#include "data/formats/ExportFormat.h"

#include <QList>
#include <QObject>

#include <cstddef>
#include <vector>

class QAction;
class QWidget;

namespace segstudio::ui::browser {
class DatasetBrowser;
}

namespace segstudio::ui::editor {
class LabelEditor;
}

namespace segstudio::ui::shell {

class ProjectSession;

// The project-wide commands of the File and Dataset menus: export the labels in each format, add
// images, remove images (chosen in the browser, or those with problems), and the split offered
// before a first training. Each asks what it must, then hands the edit to the document (undo)
// or runs behind a progress dialog (export).
// Requirements: GUI thread; the session, editor and browser outlive it.
class DatasetActions : public QObject {
    Q_OBJECT

public:
    DatasetActions(ProjectSession* session, editor::LabelEditor* editor, browser::DatasetBrowser* browser,
                   QWidget* window);

    const std::vector<QAction*>& exportActions() const { return m_exportActions; }  // one per data::ExportFormat
    QAction* addImagesAction() const { return m_addImages; }
    QAction* removeProblemsAction() const { return m_removeProblems; }
    void setEnabled(bool enabled);
    void setEditable(bool editable);  // false: a read-only project (exports stay)

    void exportLabels(data::ExportFormat format);
    bool askCocoBackground(const data::Project& project, std::string& background);
    void addImages();
    void removeEntries(const QList<std::size_t>& entries);
    void removeProblemImages();
    // Train… on a project where no image is in the training split would start a run that fails
    // at once: offers the usual random split first, as one undoable step.
    void offerTrainingSplit();

signals:
    void statusMessage(const QString& text, int timeoutMs);

private:
    static QString exportTitle(data::ExportFormat format);

    ProjectSession* m_session;
    editor::LabelEditor* m_editor;
    browser::DatasetBrowser* m_browser;
    QWidget* m_window;
    std::vector<QAction*> m_exportActions;
    bool m_editable = true;
    QAction* m_addImages;
    QAction* m_removeProblems;
};

}  // namespace segstudio::ui::shell
