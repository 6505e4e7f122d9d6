#pragma once

#include "data/labels/ClassSchema.h"
#include "data/formats/DatasetImporter.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace segstudio::ui::project {

class PathField;
class ProjectFileField;
class SchemaChooser;

// "Import dataset…": a CamVid/SegNet-layout folder, an image folder with a folder of index-PNG
// label maps, images with colour masks, or another tool's format (COCO, labelme, Cityscapes,
// Mapillary Vistas, CVAT masks, which bring their own classes), into a new project. The dialog
// collects and checks; import() does the work through the importers of core/data (on a worker,
// with progress and cancel).
class ImportDatasetDialog : public QDialog {
    Q_OBJECT

public:
    // In the order of the format list (and its pages).
    enum class Format { SegNetLayout, ColorMasks, IndexPngs, Coco, Labelme, Cityscapes, Mapillary, Cvat };
    struct Request {
        Format format = Format::SegNetLayout;
        QString datasetDir;  // SegNet layout
        QString imageDir;    // colour masks and index PNGs
        QString maskDir;     // colour masks
        QString labelDir;    // index PNGs
        QString formatDir;   // labelme, Cityscapes, Mapillary, CVAT: the folder; COCO: the images folder
        QString formatFile;  // COCO: the annotation JSON; labelme: labels.txt (optional)
        // COCO: a class for the pixels no annotation covers, put first in the schema (the CLI's
        // import --background); empty leaves them unlabelled.
        QString backgroundClass;
        int voidValue = 11;  // SegNet layout and index PNGs: the value that means unlabelled, -1 none
        QString projectFile;
        data::ClassSchema schema;
    };

    explicit ImportDatasetDialog(QWidget* parent = nullptr);

    const Request& request() const { return m_request; }
    void accept() override;

    static data::Project import(const Request& request, const data::ImportProgress& progress);

private:
    void buildPages();
    void recheck();
    QString check(Request& request) const;  // empty when fine, else what is wrong
    QString checkOtherFormat(Request& request) const;
    void showFormat(int index);
    static bool bringsItsClasses(Format format) { return format >= Format::Coco; }

    QComboBox* m_format;
    QStackedWidget* m_pages;
    PathField* m_datasetDir;
    QSpinBox* m_voidValue;
    PathField* m_imageDir;
    PathField* m_maskDir;
    PathField* m_indexImageDir;
    PathField* m_indexLabelDir;
    QSpinBox* m_indexVoidValue;
    // One page for the other tools' formats: a folder, and a file for COCO (annotations) and
    // labelme (labels.txt), their labels changing with the format.
    QWidget* m_formatPage;
    QLabel* m_formatDirLabel;
    PathField* m_formatDir;
    QLabel* m_formatFileLabel;
    PathField* m_formatFile;
    QLabel* m_backgroundLabel;
    QLineEdit* m_background;  // COCO only
    QLabel* m_schemaLabel;
    SchemaChooser* m_schema;
    ProjectFileField* m_projectFile;
    QLabel* m_error;
    Request m_request;
};

}  // namespace segstudio::ui::project
