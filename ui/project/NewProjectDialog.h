#pragma once

#include "data/labels/ClassSchema.h"
#include "data/formats/DatasetImporter.h"

#include <QDialog>

class QCheckBox;
class QLabel;

namespace segstudio::ui::project {

class PathField;
class ProjectFileField;
class SchemaChooser;

// "New project…": a folder of images (searched recursively), a class schema and where the
// project file goes. The dialog only collects and checks; create() does the work (on a worker).
class NewProjectDialog : public QDialog {
    Q_OBJECT

public:
    struct Request {
        QString imageDir;
        QString projectFile;
        data::ClassSchema schema;
        bool split = true;  // 70 % train, 15 % val, 15 % test at random (else every image unassigned)
    };

    explicit NewProjectDialog(QWidget* parent = nullptr);

    const Request& request() const { return m_request; }  // valid after accept()
    void accept() override;                               // stays open and says why on bad input

    static data::Project create(const Request& request, const data::ImportProgress& progress);

private:
    QString problem() const;  // what stops OK, empty when nothing does
    PathField* m_imageDir;
    ProjectFileField* m_projectFile;
    SchemaChooser* m_schema;
    QCheckBox* m_split;
    QLabel* m_error;
    Request m_request;
};

}  // namespace segstudio::ui::project
