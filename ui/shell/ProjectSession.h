#pragma once

#include "data/formats/DatasetImporter.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QWidget;

namespace segstudio::data {
inline namespace project { class Project; }
}
namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::editor {
class LabelEditor;
}

namespace segstudio::ui::shell {

// The open project's life: opening (a file, the demo, a new or imported project), saving and
// closing it, and the recent-projects list. It owns the ProjectDocument; the window's panels
// follow documentChanged() (the new document, or nullptr before the old one goes). Opening
// reports failure through the return value and lastError(), never a modal box, so scripts and
// tests can call it; the interactive variants show the box.
// Requirements: GUI thread; one project at a time; the editor outlives the session.
class ProjectSession : public QObject {
    Q_OBJECT

public:
    ProjectSession(editor::LabelEditor* editor, QWidget* window);
    ~ProjectSession() override;

    document::ProjectDocument* document() const { return m_document.get(); }
    const data::Project* project() const;
    QString lastError() const { return m_lastError; }
    void setLastError(const QString& message) { m_lastError = message; }

    bool open(const QString& file);
    bool openDemo(const QString& dir = {});
    bool close();  // false when the user cancelled saving, or a task still runs on the project
    bool save();   // the open image's labels and the project file
    // Ends as a close does without asking (SIGTERM, SIGHUP): recovery copy, project saved, lock
    // removed.
    void shutDown();
    // Before the window's parts go: they let go of the document (which goes with the session).
    void detach();

    // The interactive ways in: dialogs first, a message box on failure.
    void newProject();
    void importDataset();
    void openFromDialog();
    void openInteractively(const QString& file);
    QStringList recentProjects() const;

signals:
    void documentChanged(document::ProjectDocument* document);  // nullptr: closing, before it goes
    void opened(const QString& file);
    void recentProjectsChanged(const QStringList& files);
    void statusMessage(const QString& text, int timeoutMs);
    // What opening put back after an interrupted change (a batch accept or a merge killed part
    // way), one line each: worth more than a status line the next message replaces.
    void recovered(const QStringList& steps);

private:
    void show(std::unique_ptr<document::ProjectDocument> document);
    void release();
    void remember(const QString& file);
    // Runs make() behind a cancellable progress dialog and shows the project it returns.
    void create(const QString& title, const QString& progressLabel, const QString& projectFile,
                const std::function<data::Project(const data::ImportProgress&)>& make);
    void showError(const QString& title, const QString& message);

    editor::LabelEditor* m_editor;
    QWidget* m_window;
    std::unique_ptr<document::ProjectDocument> m_document;
    QString m_lastError;
};

}  // namespace segstudio::ui::shell
