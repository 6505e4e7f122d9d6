#include "ImportDatasetDialog.h"

#include "NewProjectFile.h"
#include "PathField.h"
#include "ProjectFileField.h"
#include "SchemaChooser.h"
#include "data/Project.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace segstudio::ui {

ImportDatasetDialog::ImportDatasetDialog(QWidget* parent)
    : QDialog(parent),
      m_format(new QComboBox(this)),
      m_pages(new QStackedWidget(this)),
      m_datasetDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_voidValue(new QSpinBox(this)),
      m_imageDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_maskDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_indexImageDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_indexLabelDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_indexVoidValue(new QSpinBox(this)),
      m_schema(new SchemaChooser(this)),
      m_projectFile(new ProjectFileField(this)),
      m_error(new QLabel(this))
{
    setWindowTitle(tr("Import Dataset"));
    m_format->addItem(tr("CamVid / SegNet layout (index PNG label maps)"));
    m_format->addItem(tr("Images + colour-coded masks"));
    m_format->addItem(tr("Images + index PNG label maps (Pascal VOC style)"));
    m_format->setObjectName(QStringLiteral("format"));

    auto* segnet = new QWidget(m_pages);
    auto* segnetForm = new QFormLayout(segnet);
    segnetForm->addRow(tr("Dataset folder:"), m_datasetDir);
    m_voidValue->setRange(-1, 255);
    m_voidValue->setValue(11);
    m_voidValue->setSpecialValueText(tr("none"));
    m_voidValue->setToolTip(tr("Label value that means unlabelled/void (11 in CamVid)"));
    segnetForm->addRow(tr("Void value:"), m_voidValue);
    auto* masks = new QWidget(m_pages);
    auto* masksForm = new QFormLayout(masks);
    masksForm->addRow(tr("Images folder:"), m_imageDir);
    masksForm->addRow(tr("Masks folder:"), m_maskDir);
    auto* indexPngs = new QWidget(m_pages);
    auto* indexForm = new QFormLayout(indexPngs);
    m_indexImageDir->setObjectName(QStringLiteral("indexImageDir"));
    m_indexLabelDir->setObjectName(QStringLiteral("indexLabelDir"));
    indexForm->addRow(tr("Images folder:"), m_indexImageDir);
    indexForm->addRow(tr("Label maps folder:"), m_indexLabelDir);
    m_indexVoidValue->setObjectName(QStringLiteral("indexVoidValue"));
    m_indexVoidValue->setRange(-1, 255);
    m_indexVoidValue->setValue(255);
    m_indexVoidValue->setSpecialValueText(tr("none"));
    m_indexVoidValue->setToolTip(tr("Label value that means unlabelled/void (255 in Pascal VOC)"));
    indexForm->addRow(tr("Void value:"), m_indexVoidValue);
    // Page order follows Format.
    m_pages->addWidget(segnet);
    m_pages->addWidget(masks);
    m_pages->addWidget(indexPngs);
    connect(m_format, &QComboBox::currentIndexChanged, m_pages, &QStackedWidget::setCurrentIndex);

    auto* form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(m_pages);
    form->addRow(tr("Classes:"), m_schema);
    form->addRow(tr("New project file:"), m_projectFile);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setStyleSheet(QStringLiteral("color: #c03030"));
    m_error->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ImportDatasetDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ImportDatasetDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    for (PathField* source : {m_datasetDir, m_imageDir, m_indexImageDir})
        connect(source, &PathField::pathChanged, m_projectFile, &ProjectFileField::suggestFrom);
    for (PathField* field : {m_datasetDir, m_imageDir, m_maskDir, m_indexImageDir, m_indexLabelDir,
                             static_cast<PathField*>(m_projectFile)})
        connect(field, &PathField::pathChanged, this, &ImportDatasetDialog::recheck);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportDatasetDialog::recheck);
}

void ImportDatasetDialog::recheck()
{
    // A shown problem goes away as soon as the input is fixed, not only on the next OK.
    if (m_error->text().isEmpty())
        return;
    Request request;
    m_error->setText(check(request));
}

void ImportDatasetDialog::accept()
{
    Request request;
    QString problem = check(request);
    if (problem.isEmpty())
        request.projectFile = m_projectFile->prepare(this, &problem);
    if (!problem.isEmpty()) {
        m_error->setText(problem);
        return;
    }
    m_request = request;
    QDialog::accept();
}

QString ImportDatasetDialog::check(Request& request) const
{
    request.format = Format(m_format->currentIndex());
    request.datasetDir = m_datasetDir->path();
    request.maskDir = m_maskDir->path();
    request.labelDir = m_indexLabelDir->path();
    request.projectFile = m_projectFile->path();
    QStringList folders;
    switch (request.format) {
    case Format::SegNetLayout:
        request.voidValue = m_voidValue->value();
        folders = {request.datasetDir};
        break;
    case Format::ColorMasks:
        request.imageDir = m_imageDir->path();
        folders = {request.imageDir, request.maskDir};
        break;
    case Format::IndexPngs:
        request.imageDir = m_indexImageDir->path();
        request.voidValue = m_indexVoidValue->value();
        folders = {request.imageDir, request.labelDir};
        break;
    }
    for (const QString& folder : folders)
        if (!QFileInfo(folder).isDir())
            return tr("%1: not a folder").arg(folder.isEmpty() ? tr("(empty)") : folder);
    const NewProjectFile projectFile = NewProjectFile::check(request.projectFile);
    if (!projectFile.error.isEmpty())
        return projectFile.error;
    request.projectFile = projectFile.file;
    try {
        request.schema = m_schema->schema();
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

data::Project ImportDatasetDialog::import(const Request& request, const data::ImportProgress& progress)
{
    const std::filesystem::path projectFile = request.projectFile.toStdString();
    data::Project project;
    switch (request.format) {
    case Format::SegNetLayout:
        project = data::DatasetImporter::importSegNetLayout(request.datasetDir.toStdString(), projectFile, request.schema,
                                                            request.voidValue, progress);
        break;
    case Format::ColorMasks:
        project = data::DatasetImporter::importColorMasks(request.imageDir.toStdString(), request.maskDir.toStdString(),
                                                          projectFile, request.schema, {{0, 0, 0}}, progress);
        break;
    case Format::IndexPngs:
        project = data::DatasetImporter::importIndexPngs(request.imageDir.toStdString(), request.labelDir.toStdString(),
                                                         projectFile, request.schema, request.voidValue, progress);
        break;
    }
    project.save();
    return project;
}

}  // namespace segstudio::ui
