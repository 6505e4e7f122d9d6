#include "ProjectSession.h"

#include "RecentProjects.h"
#include "common/TaskRunner.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "editor/LabelEditor.h"
#include "project/DemoProject.h"
#include "project/ImportDatasetDialog.h"
#include "project/NewProjectDialog.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QSettings>
#include <QUndoGroup>
#include <QUndoStack>

#include <filesystem>

namespace segstudio::ui::shell {

namespace {

constexpr int kProjectMessageMs = 12000;

}  // namespace

ProjectSession::ProjectSession(editor::LabelEditor* editor, QWidget* window)
    : QObject(window), m_editor(editor), m_window(window)
{ }

// The window detaches its parts first (detach()): by now they may be gone.
ProjectSession::~ProjectSession() = default;

void ProjectSession::detach()
{
    if (!m_document)
        return;
    // The parts hold the document: detach them before it goes (its destructor finishes a running
    // job and writes a pending project save).
    m_document->waitForIdle();
    emit documentChanged(nullptr);
}

const data::Project* ProjectSession::project() const { return m_document ? &m_document->project() : nullptr; }

bool ProjectSession::open(const QString& file)
{
    if (common::TaskRunner::isBusy()) {
        m_lastError = tr("Another long task is still running");
        return false;
    }
    // Already open here: it stays as it is (loading it again would find its own lock taken).
    std::error_code same;
    if (m_document && std::filesystem::equivalent(m_document->project().file(), file.toStdString(), same))
        return true;
    // Load before closing: a file that does not load leaves the open project as it was.
    std::unique_ptr<document::ProjectDocument> document;
    try {
        document = document::ProjectDocument::open(file.toStdString());
    } catch (const std::exception& error) {
        m_lastError = QString::fromStdString(error.what());
        emit statusMessage(m_lastError, kProjectMessageMs);
        return false;
    }
    if (!close()) {
        m_lastError = tr("The open project was not closed");
        return false;
    }
    show(std::move(document));
    remember(file);
    emit opened(file);
    return true;
}

bool ProjectSession::openDemo(const QString& dir)
{
    const std::filesystem::path demoDir = (dir.isEmpty() ? project::DemoProject::defaultDir() : dir).toStdString();
    std::filesystem::path file;
    const auto result =
        common::TaskRunner::run(m_window, tr("Generating the demo project…"),
                                [&](const data::ImportProgress&) { file = project::DemoProject::ensure(demoDir); });
    if (result.outcome != common::TaskRunner::Outcome::Done) {
        m_lastError = result.error.isEmpty() ? tr("Demo generation cancelled") : result.error;
        return false;
    }
    return open(QString::fromStdString(file.string()));
}

void ProjectSession::show(std::unique_ptr<document::ProjectDocument> document)
{
    m_document = std::move(document);
    document::ProjectDocument* doc = m_document.get();
    QUndoGroup* group = m_editor->undoGroup();
    group->addStack(doc->undoStack());
    // A project edit makes the project's stack the one Undo acts on (a pixel edit, the image's).
    connect(doc->undoStack(), &QUndoStack::indexChanged, group, [group, stack = doc->undoStack()] { group->setActiveStack(stack); });
    connect(doc, &document::ProjectDocument::busyChanged, group, [group, doc](bool busy) {
        // While a job rewrites the label maps, undo waits.
        group->setActiveStack(busy ? nullptr : doc->undoStack());
    });
    connect(doc, &document::ProjectDocument::message, this,
            [this](const QString& text) { emit statusMessage(text, kProjectMessageMs); });
    connect(doc, &document::ProjectDocument::errorOccurred, this, [this](const QString& message) {
        m_lastError = message;
        emit statusMessage(message, kProjectMessageMs);
    });
    emit documentChanged(doc);
    if (!doc->recoveredSteps().isEmpty())
        emit recovered(doc->recoveredSteps());
}

bool ProjectSession::close()
{
    // A running task (export, import) may be reading the project: its window is disabled, but a
    // programmatic call or a queued close must not pull the project out from under it either.
    if (common::TaskRunner::isBusy() || (m_document && m_document->isBusy())) {
        m_lastError = tr("A long task is still running on the project");
        return false;
    }
    if (!m_document)
        return true;
    if (!m_editor->maybeSave(m_window))
        return false;
    if (m_document->isModified() && !m_document->save()
        && QMessageBox::warning(m_window, tr("Close project"), tr("%1\n\nClose anyway and lose these changes?").arg(m_lastError),
                                QMessageBox::Discard | QMessageBox::Cancel)
               == QMessageBox::Cancel)
        return false;
    release();
    return true;
}

// The project goes without a question: what close() does once the user has answered.
void ProjectSession::release()
{
    emit documentChanged(nullptr);
    // The group lets go of the stack before the document goes, and hears nothing from it after:
    // the stack's last signals (clear() in the document's destructor, a job finishing) would
    // otherwise make a stack that is about to be freed the group's active one again.
    QUndoGroup* group = m_editor->undoGroup();
    disconnect(m_document->undoStack(), nullptr, group, nullptr);
    disconnect(m_document.get(), nullptr, group, nullptr);
    group->removeStack(m_document->undoStack());
    m_document.reset();  // its commands' backups go with it
    emit recentProjectsChanged(recentProjects());
}

bool ProjectSession::save()
{
    if (!m_document)
        return false;
    const bool labelsSaved = m_editor->save();
    const bool projectSaved = m_document->save();
    if (projectSaved && labelsSaved)
        emit statusMessage(tr("Saved"), kProjectMessageMs / 2);
    return labelsSaved && projectSaved;
}

void ProjectSession::shutDown()
{
    m_editor->keepEditsForRecovery();
    if (!m_document)
        return;
    m_document->waitForIdle();
    if (m_document->isModified())
        m_document->save();
    release();
}

void ProjectSession::newProject()
{
    project::NewProjectDialog dialog(m_window);
    if (dialog.exec() != QDialog::Accepted || !close())
        return;
    const auto request = dialog.request();
    create(tr("New project"), tr("Adding images…"), request.projectFile,
           [&](const data::ImportProgress& progress) { return project::NewProjectDialog::create(request, progress); });
}

void ProjectSession::importDataset()
{
    project::ImportDatasetDialog dialog(m_window);
    if (dialog.exec() != QDialog::Accepted || !close())
        return;
    const auto request = dialog.request();
    create(
        tr("Import dataset"), tr("Importing dataset…"), request.projectFile,
        [&](const data::ImportProgress& progress) { return project::ImportDatasetDialog::import(request, progress); });
}

void ProjectSession::create(const QString& title, const QString& progressLabel, const QString& projectFile,
                            const std::function<data::Project(const data::ImportProgress&)>& make)
{
    data::Project project;
    const auto result = common::TaskRunner::run(
        m_window, progressLabel, [&](const data::ImportProgress& progress) { project = make(progress); });
    if (result.outcome == common::TaskRunner::Outcome::Failed)
        showError(title, result.error);
    if (result.outcome != common::TaskRunner::Outcome::Done)
        return;
    show(std::make_unique<document::ProjectDocument>(std::move(project)));
    remember(projectFile);
}

void ProjectSession::openFromDialog()
{
    const QString file = QFileDialog::getOpenFileName(m_window, tr("Open Project"), QString(),
                                                      tr("SegStudio projects (*.segstudio);;All files (*)"));
    if (!file.isEmpty())
        openInteractively(file);
}

void ProjectSession::openInteractively(const QString& file)
{
    if (!open(file))
        showError(tr("Open project"), m_lastError);
}

QStringList ProjectSession::recentProjects() const
{
    QSettings settings;
    return RecentProjects(settings).files();
}

void ProjectSession::remember(const QString& file)
{
    QSettings settings;
    RecentProjects(settings).add(file);
    emit recentProjectsChanged(recentProjects());
}

void ProjectSession::showError(const QString& title, const QString& message) { QMessageBox::warning(m_window, title, message); }

}  // namespace segstudio::ui::shell
