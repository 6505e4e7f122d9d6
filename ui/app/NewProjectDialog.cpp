#include "NewProjectDialog.h"

#include "NewProjectFile.h"
#include "PathField.h"
#include "SchemaChooser.h"
#include "data/Project.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace segstudio::ui {

NewProjectDialog::NewProjectDialog(QWidget* parent)
    : QDialog(parent),
      m_imageDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_projectFile(new PathField(PathField::Kind::SaveFile, tr("SegStudio projects (*.segstudio)"), this)),
      m_schema(new SchemaChooser(this)),
      m_error(new QLabel(this))
{
    setWindowTitle(tr("New Project"));
    auto* form = new QFormLayout;
    form->addRow(tr("Images folder:"), m_imageDir);
    form->addRow(tr("Classes:"), m_schema);
    form->addRow(tr("Project file:"), m_projectFile);
    m_error->setStyleSheet(QStringLiteral("color: #c03030"));
    m_error->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &NewProjectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NewProjectDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    // Suggest the project file next to the images as soon as a folder is chosen.
    connect(m_imageDir, &PathField::pathChanged, this, [this](const QString& dir) {
        if (m_projectFile->path().isEmpty() && !dir.isEmpty())
            m_projectFile->setPath(QDir(dir).filePath(QStringLiteral("project.segstudio")));
    });
}

void NewProjectDialog::accept()
{
    Request request;
    request.imageDir = m_imageDir->path();
    request.projectFile = m_projectFile->path();
    if (!QFileInfo(request.imageDir).isDir()) {
        m_error->setText(tr("%1: not a folder").arg(request.imageDir));
        return;
    }
    const NewProjectFile projectFile = NewProjectFile::check(request.projectFile);
    if (!projectFile.error.isEmpty()) {
        m_error->setText(projectFile.error);
        return;
    }
    request.projectFile = projectFile.file;
    try {
        request.schema = m_schema->schema();
    } catch (const std::exception& error) {
        m_error->setText(QString::fromStdString(error.what()));
        return;
    }
    m_request = request;
    QDialog::accept();
}

data::Project NewProjectDialog::create(const Request& request, const data::ImportProgress& progress)
{
    data::Project project = data::DatasetImporter::importImageFolder(
        request.imageDir.toStdString(), request.projectFile.toStdString(), request.schema, progress);
    project.save();
    return project;
}

}  // namespace segstudio::ui
