#include "ImportDatasetDialog.h"

#include "NewProjectFile.h"
#include "PathField.h"
#include "ProjectFileField.h"
#include "SchemaChooser.h"
#include "data/formats/CocoImporter.h"
#include "data/formats/LabelmeImporter.h"
#include "data/project/Project.h"
#include "data/formats/RasterFormatImporter.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace segstudio::ui::project {

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
      m_formatPage(new QWidget(this)),
      m_formatDirLabel(new QLabel(this)),
      m_formatDir(new PathField(PathField::Kind::Folder, {}, this)),
      m_formatFileLabel(new QLabel(this)),
      m_formatFile(new PathField(PathField::Kind::OpenFile, tr("JSON or text (*.json *.txt);;All files (*)"), this)),
      m_backgroundLabel(new QLabel(tr("Background class:"), this)),
      m_background(new QLineEdit(this)),
      m_schemaLabel(new QLabel(tr("Classes:"), this)),
      m_schema(new SchemaChooser(this)),
      m_projectFile(new ProjectFileField(this)),
      m_error(new QLabel(this))
{
    setWindowTitle(tr("Import Dataset"));
    m_format->addItem(tr("CamVid / SegNet layout (index PNG label maps)"));
    m_format->addItem(tr("Images + colour-coded masks"));
    m_format->addItem(tr("Images + index PNG label maps (Pascal VOC style)"));
    m_format->addItem(tr("COCO (instances, stuff or panoptic JSON)"));
    m_format->addItem(tr("labelme (folder of JSON files)"));
    m_format->addItem(tr("Cityscapes (leftImg8bit + gtFine)"));
    m_format->addItem(tr("Mapillary Vistas (v1.2 or v2.0)"));
    m_format->addItem(tr("CVAT segmentation mask 1.1"));
    m_format->setObjectName(QStringLiteral("format"));

    buildPages();
    auto* form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(m_pages);
    form->addRow(m_schemaLabel, m_schema);
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
    for (PathField* source : {m_datasetDir, m_imageDir, m_indexImageDir, m_formatDir})
        connect(source, &PathField::pathChanged, m_projectFile, &ProjectFileField::suggestFrom);
    for (PathField* field : {m_datasetDir, m_imageDir, m_maskDir, m_indexImageDir, m_indexLabelDir, m_formatDir, m_formatFile,
                             static_cast<PathField*>(m_projectFile)})
        connect(field, &PathField::pathChanged, this, &ImportDatasetDialog::recheck);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportDatasetDialog::recheck);
}

// One page of fields per kind of source; the other tools' formats share the last page.
void ImportDatasetDialog::buildPages()
{
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
    auto* formatForm = new QFormLayout(m_formatPage);
    m_formatDir->setObjectName(QStringLiteral("formatDir"));
    m_formatFile->setObjectName(QStringLiteral("formatFile"));
    m_schema->setObjectName(QStringLiteral("schema"));
    formatForm->addRow(m_formatFileLabel, m_formatFile);
    formatForm->addRow(m_formatDirLabel, m_formatDir);
    // COCO instances label objects, not the ground between them: as the CLI's import --background.
    m_background->setObjectName(QStringLiteral("cocoBackground"));
    m_background->setPlaceholderText(tr("none: uncovered pixels stay unlabelled"));
    m_background->setToolTip(tr("A class for the pixels no annotation covers (e.g. \"background\"), put first in the "
                                "class list; empty leaves them unlabelled"));
    formatForm->addRow(m_backgroundLabel, m_background);
    // Page order follows Format; the other tools' formats share the last page.
    m_pages->addWidget(segnet);
    m_pages->addWidget(masks);
    m_pages->addWidget(indexPngs);
    m_pages->addWidget(m_formatPage);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportDatasetDialog::showFormat);
}

void ImportDatasetDialog::showFormat(int index)
{
    const Format format = Format(index);
    m_pages->setCurrentIndex(std::min(index, int(Format::Coco)));
    const bool withFile = format == Format::Coco || format == Format::Labelme;
    m_formatFileLabel->setText(format == Format::Coco ? tr("Annotation file:") : tr("labels.txt (optional):"));
    m_formatFileLabel->setVisible(withFile);
    m_formatFile->setVisible(withFile);
    m_formatDirLabel->setText(format == Format::Coco ? tr("Images folder:") : tr("Dataset folder:"));
    m_backgroundLabel->setVisible(format == Format::Coco);
    m_background->setVisible(format == Format::Coco);
    // These formats name their classes themselves.
    m_schemaLabel->setVisible(!bringsItsClasses(format));
    m_schema->setVisible(!bringsItsClasses(format));
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
    if (bringsItsClasses(request.format))
        return checkOtherFormat(request);
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
    default:
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

QString ImportDatasetDialog::checkOtherFormat(Request& request) const
{
    request.formatDir = m_formatDir->path();
    request.formatFile = m_formatFile->path();
    if (request.format == Format::Coco)
        request.backgroundClass = m_background->text().trimmed();
    if (!QFileInfo(request.formatDir).isDir())
        return tr("%1: not a folder").arg(request.formatDir.isEmpty() ? tr("(empty)") : request.formatDir);
    const bool fileNeeded = request.format == Format::Coco;
    const bool fileGiven = request.format == Format::Labelme && !request.formatFile.isEmpty();
    if ((fileNeeded || fileGiven) && !QFileInfo(request.formatFile).isFile())
        return tr("%1: not a file").arg(request.formatFile.isEmpty() ? tr("(empty)") : request.formatFile);
    const NewProjectFile projectFile = NewProjectFile::check(request.projectFile);
    if (!projectFile.error.isEmpty())
        return projectFile.error;
    request.projectFile = projectFile.file;
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
    case Format::Coco:
        project = data::CocoImporter::import({request.formatFile.toStdString(), request.formatDir.toStdString(), {},
                                              request.backgroundClass.toStdString(), {}},
                                             projectFile, progress);
        break;
    case Format::Labelme:
        project = data::LabelmeImporter::import({request.formatDir.toStdString(), request.formatFile.toStdString(), {}},
                                                projectFile, progress);
        break;
    case Format::Cityscapes:
        project = data::RasterFormatImporter::importCityscapes(request.formatDir.toStdString(), projectFile, progress);
        break;
    case Format::Mapillary:
        project = data::RasterFormatImporter::importMapillary(request.formatDir.toStdString(), projectFile, progress);
        break;
    case Format::Cvat:
        project = data::RasterFormatImporter::importCvatMasks(request.formatDir.toStdString(), projectFile, {}, progress);
        break;
    }
    project.save();
    return project;
}

}  // namespace segstudio::ui::project
