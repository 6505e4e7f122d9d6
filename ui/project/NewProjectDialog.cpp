#include "NewProjectDialog.h"

#include "NewProjectFile.h"
#include "PathField.h"
#include "ProjectFileField.h"
#include "SchemaChooser.h"
#include "data/project/DatasetSplitter.h"
#include "data/project/Project.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace segstudio::ui::project {

NewProjectDialog::NewProjectDialog(QWidget* parent)
    : QDialog(parent),
      m_imageDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_projectFile(new ProjectFileField(this)),
      m_schema(new SchemaChooser(this)),
      m_split(new QCheckBox(tr("&Split the images at random: 70 % train, 15 % validation, 15 % test"), this)),
      m_error(new QLabel(this))
{
    setWindowTitle(tr("New Project"));
    auto* form = new QFormLayout;
    form->addRow(tr("Images folder:"), m_imageDir);
    form->addRow(tr("Classes:"), m_schema);
    form->addRow(tr("Project file:"), m_projectFile);
    // Training needs a training split: without one every image is unassigned and Train fails.
    m_split->setObjectName(QStringLiteral("split"));
    m_imageDir->setObjectName(QStringLiteral("imageDir"));
    m_projectFile->setObjectName(QStringLiteral("projectFile"));
    m_split->setChecked(true);
    m_split->setToolTip(tr("Seeded, so the same folder splits the same way; change any image's split later in the browser"));
    form->addRow(QString(), m_split);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setStyleSheet(QStringLiteral("color: #c03030"));
    m_error->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &NewProjectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NewProjectDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    // Suggest a project file beside the images (never inside them) as a folder is typed.
    connect(m_imageDir, &PathField::pathChanged, m_projectFile, &ProjectFileField::suggestFrom);
    for (PathField* field : {m_imageDir, static_cast<PathField*>(m_projectFile)})
        connect(field, &PathField::pathChanged, this, [this] {
            if (!m_error->text().isEmpty())
                m_error->setText(problem());
        });
}

QString NewProjectDialog::problem() const
{
    if (!QFileInfo(m_imageDir->path()).isDir())
        return tr("%1: not a folder").arg(m_imageDir->path().isEmpty() ? tr("(empty)") : m_imageDir->path());
    return NewProjectFile::check(m_projectFile->path()).error;
}

void NewProjectDialog::accept()
{
    Request request;
    request.imageDir = m_imageDir->path();
    QString error = problem();
    if (error.isEmpty())
        request.projectFile = m_projectFile->prepare(this, &error);
    if (error.isEmpty()) {
        try {
            request.schema = m_schema->schema();
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
    }
    if (!error.isEmpty()) {
        m_error->setText(error);
        return;
    }
    request.split = m_split->isChecked();
    m_request = request;
    QDialog::accept();
}

data::Project NewProjectDialog::create(const Request& request, const data::ImportProgress& progress)
{
    data::Project project = data::DatasetImporter::importImageFolder(
        request.imageDir.toStdString(), request.projectFile.toStdString(), request.schema, progress);
    if (request.split)
        data::DatasetSplitter::apply(project, {0.7, 0.15, 0.15});
    project.save();
    return project;
}

}  // namespace segstudio::ui::project
