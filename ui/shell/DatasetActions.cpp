#include "DatasetActions.h"

#include "ProjectSession.h"
#include "browser/DatasetBrowser.h"
#include "browser/ImageFilterProxyModel.h"
#include "browser/ImageListModel.h"
#include "common/TaskRunner.h"
#include "data/project/Project.h"
#include "document/ProjectDocument.h"
#include "editor/LabelEditor.h"

#include <QAction>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>

#include <algorithm>
#include <filesystem>

namespace segstudio::ui::shell {

namespace {

constexpr int kResultMessageMs = 6000;

}  // namespace

DatasetActions::DatasetActions(ProjectSession* session, editor::LabelEditor* editor, browser::DatasetBrowser* browser,
                               QWidget* window)
    : QObject(window), m_session(session), m_editor(editor), m_browser(browser), m_window(window),
      m_addImages(new QAction(QIcon::fromTheme(QStringLiteral("list-add")), tr("&Add Images…"), this)),
      m_removeProblems(new QAction(tr("&Remove Images with Problems…"), this))
{
    for (const data::ExportFormat format : data::allExportFormats()) {
        auto* action = new QAction(exportTitle(format), this);
        connect(action, &QAction::triggered, this, [this, format] { exportLabels(format); });
        m_exportActions.push_back(action);
    }
    connect(m_addImages, &QAction::triggered, this, &DatasetActions::addImages);
    connect(m_removeProblems, &QAction::triggered, this, &DatasetActions::removeProblemImages);
    connect(browser, &browser::DatasetBrowser::removeRequested, this, &DatasetActions::removeEntries);
}

void DatasetActions::setEnabled(bool enabled)
{
    for (QAction* action : m_exportActions)
        action->setEnabled(enabled);
    m_addImages->setEnabled(enabled && m_editable);
    m_removeProblems->setEnabled(enabled && m_editable);
}

// Read-only: exporting still reads the project; adding or removing images would change it.
void DatasetActions::setEditable(bool editable)
{
    m_editable = editable;
    setEnabled(!m_exportActions.empty() && m_exportActions.front()->isEnabled());
}

QString DatasetActions::exportTitle(data::ExportFormat format)
{
    switch (format) {
    case data::ExportFormat::IndexPngs:
        return tr("Label Maps as &Index PNGs…");
    case data::ExportFormat::ColourMasks:
        return tr("Label Maps as &Colour Masks…");
    case data::ExportFormat::Coco:
        return tr("Labels as CO&CO (RLE)…");
    case data::ExportFormat::Cityscapes:
        return tr("Labels as Ci&tyscapes…");
    case data::ExportFormat::Labelme:
        return tr("Labels as &labelme Polygons…");
    case data::ExportFormat::Cvat:
        return tr("Labels as C&VAT Masks…");
    }
    return {};
}

void DatasetActions::exportLabels(data::ExportFormat format)
{
    if (!m_session->document() || !m_editor->maybeSave(m_window))
        return;
    const data::Project& project = m_session->document()->project();
    data::ExportOptions options;
    if (format == data::ExportFormat::Coco && !askCocoBackground(project, options.cocoBackground))
        return;
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Export label maps into"));
    if (dir.isEmpty())
        return;
    std::size_t count = 0;
    const auto result =
        common::TaskRunner::run(m_window, tr("Exporting label maps…"), [&](const data::ImportProgress& progress) {
            count = data::exportLabels(format, project, dir.toStdString(), progress, options);
        });
    if (result.outcome == common::TaskRunner::Outcome::Failed)
        QMessageBox::warning(m_window, tr("Export"), result.error);
    else if (result.outcome == common::TaskRunner::Outcome::Done)
        emit statusMessage(tr("Exported %n label map(s) to %1", nullptr, int(count)).arg(dir), kResultMessageMs);
}

// COCO instances label objects: a class that is the ground between them (road, background) may
// stay out of the file, as `export --background` does; false when the user cancels.
bool DatasetActions::askCocoBackground(const data::Project& project, std::string& background)
{
    const QString none = tr("None: every class is exported");
    QStringList choices{none};
    for (const data::LabelClass& c : project.schema().classes())
        choices << QString::fromStdString(c.name);
    bool ok = false;
    const QString chosen = QInputDialog::getItem(m_window, tr("Export COCO"),
                                                 tr("Background class, left out of the annotations (the ground between "
                                                    "the objects; import it back with Background class):"),
                                                 choices, 0, /*editable=*/false, &ok);
    if (!ok)
        return false;
    background = chosen == none ? std::string() : chosen.toStdString();
    return true;
}

void DatasetActions::removeEntries(const QList<std::size_t>& entries)
{
    document::ProjectDocument* document = m_session->document();
    if (!document || entries.isEmpty() || common::TaskRunner::isBusy())
        return;
    if (QMessageBox::question(m_window, tr("Remove images"),
                              tr("Remove %n image(s) from the project? The files stay on disk; Undo puts them back.",
                                 nullptr, int(entries.size())))
        != QMessageBox::Yes)
        return;
    if (!m_editor->maybeSave(m_window))
        return;
    const std::optional<std::size_t> current = m_browser->currentEntry();
    const int currentRow = current ? m_browser->proxy()->rowOfEntry(*current) : -1;
    if (!document->removeImages({entries.begin(), entries.end()}))
        return;
    // Show an image again: the one that was current when it stayed (at its shifted index), else
    // the one that moved into its place in the view.
    if (current && !entries.contains(*current)) {
        const auto before = std::count_if(entries.begin(), entries.end(), [&](std::size_t e) { return e < *current; });
        if (m_browser->selectEntry(*current - std::size_t(before)))
            return;
    }
    m_browser->selectNearestRow(currentRow);
}

void DatasetActions::addImages()
{
    document::ProjectDocument* document = m_session->document();
    if (!document)
        return;
    const QStringList files = QFileDialog::getOpenFileNames(
        m_window, tr("Add Images"), QString::fromStdString(document->project().root().string()),
        tr("Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff);;All files (*)"));
    std::vector<std::filesystem::path> images;
    for (const QString& file : files)
        images.emplace_back(file.toStdString());
    if (const std::size_t added = document->addImages(images, data::Split::Unassigned))
        emit statusMessage(tr("Added %n image(s) (Undo takes them out again)", nullptr, int(added)), kResultMessageMs);
}

void DatasetActions::removeProblemImages()
{
    if (!m_session->document())
        return;
    const browser::ImageListModel* model = m_browser->model();
    const QList<int> rows = model->problemRows();
    if (rows.isEmpty()) {
        QMessageBox::information(m_window, tr("Images with problems"),
                                 model->statsComplete() ? tr("No image with a problem was found.")
                                                        : tr("No problem found so far; the images are still being checked."));
        return;
    }
    QStringList lines;
    for (int row : rows.mid(0, 20))
        lines << model->data(model->index(row, 0), browser::ImageListModel::ProblemRole).toString();
    if (rows.size() > 20)
        lines << tr("… and %1 more").arg(rows.size() - 20);
    QList<std::size_t> entries;
    for (int row : rows)
        entries << std::size_t(row);
    QMessageBox box(QMessageBox::Warning, tr("Images with problems"),
                    tr("%n image(s) cannot be used:", nullptr, int(rows.size())), QMessageBox::Cancel, m_window);
    box.setDetailedText(lines.join(u'\n'));
    box.setInformativeText(lines.mid(0, 5).join(u'\n'));
    QPushButton* remove = box.addButton(tr("Remove from Project"), QMessageBox::DestructiveRole);
    box.exec();
    if (box.clickedButton() == remove)
        removeEntries(entries);
}

void DatasetActions::offerTrainingSplit()
{
    document::ProjectDocument* document = m_session->document();
    if (!document || document->isReadOnly())
        return;
    int unassigned = 0;
    for (const auto& entry : document->project().entries()) {
        if (entry.split == data::Split::Train)
            return;
        unassigned += entry.split == data::Split::Unassigned ? 1 : 0;
    }
    if (unassigned == 0)
        return;
    const auto answer = QMessageBox::question(
        m_window, tr("Train"),
        tr("No image is in the training split, so a run would have nothing to learn from.\n\n"
           "Split the %1 unassigned images at random: 70 % train, 15 % validation, 15 % test? "
           "Edit > Undo takes it back.")
            .arg(unassigned),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes && document->splitUnassigned({0.7, 0.15, 0.15}))
        emit statusMessage(tr("Split %1 images: 70 % train, 15 % validation, 15 % test").arg(unassigned),
                           kResultMessageMs);
}

}  // namespace segstudio::ui::shell
