#include "UiTestProject.h"
#include "project/ImportDatasetDialog.h"
#include "project/NewProjectDialog.h"
#include "project/NewProjectFile.h"
#include "project/PathField.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QDir>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <opencv2/imgcodecs.hpp>

#include <map>

using segstudio::ui::project::ImportDatasetDialog;
using segstudio::ui::project::NewProjectDialog;
using segstudio::ui::project::NewProjectFile;
using segstudio::ui::project::PathField;

// The index-PNG import: the dialog's page fills the request (void value 255 unless changed), and
// import() builds the project through DatasetImporter::importIndexPngs with that void value.
class TestImportDatasetDialog : public QObject {
    Q_OBJECT

    static void answerNextQuestion(QMessageBox::StandardButton button)
    {
        QTimer::singleShot(0, [button] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->button(button)->click();
        });
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const std::filesystem::path root = m_dir.path().toStdString();
        std::filesystem::create_directories(root / "images");
        std::filesystem::create_directories(root / "labels");
        for (const char* stem : {"one", "two"}) {
            cv::Mat image(8, 6, CV_8UC3, cv::Scalar(10, 120, 200));
            QVERIFY(cv::imwrite((root / "images" / (std::string(stem) + ".png")).string(), image));
            // Rows 0-3 class 1, rows 4-7 the void value 7.
            cv::Mat labels(8, 6, CV_8UC1, cv::Scalar(1));
            labels.rowRange(4, 8).setTo(7);
            QVERIFY(cv::imwrite((root / "labels" / (std::string(stem) + ".png")).string(), labels));
        }
    }

    // Issue 27, item 18: a new project from a folder is split 70/15/15 by default (it used to
    // leave every image unassigned, and Train then failed); unticked, nothing is assigned.
    void aNewProjectFromAFolderIsSplit()
    {
        const std::filesystem::path folder = std::filesystem::path(m_dir.path().toStdString()) / "twenty";
        std::filesystem::create_directories(folder);
        for (int i = 0; i < 20; ++i)
            QVERIFY(cv::imwrite((folder / ("img" + std::to_string(i) + ".png")).string(), cv::Mat(4, 4, CV_8UC3, cv::Scalar(i))));
        NewProjectDialog dialog;
        auto* split = dialog.findChild<QCheckBox*>(QStringLiteral("split"));
        QVERIFY(split && split->isChecked());
        dialog.findChild<PathField*>(QStringLiteral("imageDir"))->setPath(QString::fromStdString(folder.string()));
        dialog.findChild<PathField*>(QStringLiteral("projectFile"))->setPath(m_dir.filePath(QStringLiteral("twenty.segstudio")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.request().split);
        const auto splitCounts = [](const segstudio::data::Project& project) {
            std::map<segstudio::data::Split, int> counts;
            for (std::size_t i = 0; i < project.size(); ++i)
                ++counts[project.entry(i).split];
            return counts;
        };
        auto counts = splitCounts(NewProjectDialog::create(dialog.request(), {}));
        QCOMPARE(counts[segstudio::data::Split::Train], 14);
        QCOMPARE(counts[segstudio::data::Split::Val], 3);
        QCOMPARE(counts[segstudio::data::Split::Test], 3);
        NewProjectDialog::Request unsplit = dialog.request();
        unsplit.split = false;
        unsplit.projectFile = m_dir.filePath(QStringLiteral("unsplit.segstudio"));
        counts = splitCounts(NewProjectDialog::create(unsplit, {}));
        QCOMPARE(counts[segstudio::data::Split::Unassigned], 20);
    }

    void indexPngPageFillsTheRequest()
    {
        ImportDatasetDialog dialog;
        auto* format = dialog.findChild<QComboBox*>(QStringLiteral("format"));
        QVERIFY(format);
        QCOMPARE(format->count(), 8);
        format->setCurrentIndex(int(ImportDatasetDialog::Format::IndexPngs));
        auto* voidValue = dialog.findChild<QSpinBox*>(QStringLiteral("indexVoidValue"));
        QVERIFY(voidValue);
        QCOMPARE(voidValue->value(), 255);
        dialog.findChild<PathField*>(QStringLiteral("indexImageDir"))->setPath(m_dir.filePath(QStringLiteral("images")));
        dialog.findChild<PathField*>(QStringLiteral("indexLabelDir"))->setPath(m_dir.filePath(QStringLiteral("labels")));
        dialog.findChild<PathField*>(QStringLiteral("projectFile"))->setPath(m_dir.filePath(QStringLiteral("fromDialog")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const ImportDatasetDialog::Request& request = dialog.request();
        QCOMPARE(int(request.format), int(ImportDatasetDialog::Format::IndexPngs));
        QCOMPARE(request.imageDir, m_dir.filePath(QStringLiteral("images")));
        QCOMPARE(request.labelDir, m_dir.filePath(QStringLiteral("labels")));
        QCOMPARE(request.voidValue, 255);
        QCOMPARE(request.projectFile, m_dir.filePath(QStringLiteral("fromDialog.segstudio")));
    }

    // Issue 24: the other tools' formats share one page (a folder, and COCO's annotation file),
    // hide the class chooser (they name their classes), and import through core/data's importers.
    void cocoPageFillsTheRequestAndImports()
    {
        const QString json = m_dir.filePath(QStringLiteral("instances.json"));
        QFile file(json);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"images": [{"id": 1, "file_name": "one.png", "width": 6, "height": 8}],
                       "categories": [{"id": 4, "name": "kerb"}],
                       "annotations": [{"image_id": 1, "category_id": 4, "segmentation": [[0, 0, 6, 0, 6, 4, 0, 4]]}]})");
        file.close();
        ImportDatasetDialog dialog;
        auto* format = dialog.findChild<QComboBox*>(QStringLiteral("format"));
        auto* schema = dialog.findChild<QWidget*>(QStringLiteral("schema"));
        QVERIFY(schema);
        QVERIFY(schema->isVisibleTo(&dialog));
        format->setCurrentIndex(int(ImportDatasetDialog::Format::Coco));
        QVERIFY(!schema->isVisibleTo(&dialog));
        dialog.findChild<PathField*>(QStringLiteral("formatFile"))->setPath(json);
        dialog.findChild<PathField*>(QStringLiteral("projectFile"))->setPath(m_dir.filePath(QStringLiteral("cocoDialog")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));  // no images folder yet
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("error"))->text().contains(QStringLiteral("not a folder")));
        dialog.findChild<PathField*>(QStringLiteral("formatDir"))->setPath(m_dir.filePath(QStringLiteral("images")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const ImportDatasetDialog::Request& request = dialog.request();
        QCOMPARE(request.formatFile, json);
        QCOMPARE(request.formatDir, m_dir.filePath(QStringLiteral("images")));
        const segstudio::data::Project project = ImportDatasetDialog::import(request, {});
        QCOMPARE(project.schema().size(), std::size_t(1));
        QCOMPARE(project.schema().find(0)->name, std::string("kerb"));
        const cv::Mat labels = segstudio::data::readLabelMap(project.labelMapPath(0), project.schema());
        QCOMPARE(cv::countNonZero(labels == 0), 24);  // rows 0-3 of 6 columns
    }

    void missingLabelFolderIsRefused()
    {
        ImportDatasetDialog dialog;
        dialog.findChild<QComboBox*>(QStringLiteral("format"))->setCurrentIndex(int(ImportDatasetDialog::Format::IndexPngs));
        dialog.findChild<PathField*>(QStringLiteral("indexImageDir"))->setPath(m_dir.filePath(QStringLiteral("images")));
        dialog.findChild<PathField*>(QStringLiteral("projectFile"))->setPath(m_dir.filePath(QStringLiteral("x.segstudio")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
    }

    // Issue 9.14 and 27.19: typing a dataset folder proposes a project in a folder of its own
    // under the user's projects (never inside or beside the dataset); a typed
    // path in a missing folder creates that folder after asking; a fixed path clears the message.
    void projectFileIsProposedBesideTheDataset()
    {
        ImportDatasetDialog dialog;
        dialog.findChild<QComboBox*>(QStringLiteral("format"))->setCurrentIndex(int(ImportDatasetDialog::Format::IndexPngs));
        auto* images = dialog.findChild<PathField*>(QStringLiteral("indexImageDir"));
        auto* project = dialog.findChild<PathField*>(QStringLiteral("projectFile"));
        QTest::keyClicks(images->lineEdit(), m_dir.filePath(QStringLiteral("images")));  // typed, key by key
        QCOMPARE(project->path(), NewProjectFile::suggestFor(m_dir.filePath(QStringLiteral("images"))));
        QVERIFY(!project->path().startsWith(m_dir.path()));
        dialog.findChild<PathField*>(QStringLiteral("indexLabelDir"))->setPath(m_dir.filePath(QStringLiteral("labels")));

        // A path of the user's own in a folder that does not exist: asked, declined, explained.
        project->setPath(m_dir.filePath(QStringLiteral("new/place/mine.segstudio")));
        answerNextQuestion(QMessageBox::No);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        auto* error = dialog.findChild<QLabel*>(QStringLiteral("error"));
        QVERIFY(error);
        QVERIFY2(error->text().contains(QStringLiteral("no such folder")), qPrintable(error->text()));
        // Editing the path to a valid one clears the message at once.
        project->setPath(m_dir.filePath(QStringLiteral("fine.segstudio")));
        QVERIFY(error->text().isEmpty());
        // Back to the missing folder, and yes: it is created and the dialog accepts.
        project->setPath(m_dir.filePath(QStringLiteral("new/place/mine.segstudio")));
        answerNextQuestion(QMessageBox::Yes);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(QFileInfo(m_dir.filePath(QStringLiteral("new/place"))).isDir());
        QCOMPARE(dialog.request().projectFile, m_dir.filePath(QStringLiteral("new/place/mine.segstudio")));
    }

    void importsIndexPngsWithTheVoidValue()
    {
        ImportDatasetDialog::Request request;
        request.format = ImportDatasetDialog::Format::IndexPngs;
        request.imageDir = m_dir.filePath(QStringLiteral("images"));
        request.labelDir = m_dir.filePath(QStringLiteral("labels"));
        request.voidValue = 7;
        request.projectFile = m_dir.filePath(QStringLiteral("imported.segstudio"));
        request.schema = segstudio::test::threeClasses();
        const segstudio::data::Project project = ImportDatasetDialog::import(request, {});
        QCOMPARE(project.size(), std::size_t(2));
        QVERIFY(QFileInfo::exists(request.projectFile));
        const cv::Mat labels = segstudio::data::readLabelMap(project.labelMapPath(0), request.schema);
        QCOMPARE(int(labels.at<std::uint8_t>(0, 0)), 1);
        QCOMPARE(int(labels.at<std::uint8_t>(7, 0)), int(segstudio::data::kUnlabelled));
    }

    // Issue 50, section 4: under the CamVid preset the class names field showed the custom example
    // "background person car"; it shows the chosen preset's classes, and the example only under
    // "Custom", where what was typed stays across preset changes.
    void theClassNamesFollowTheChosenSchema()
    {
        ImportDatasetDialog dialog;
        auto* schema = dialog.findChild<QWidget*>(QStringLiteral("schema"));
        QVERIFY(schema);
        auto* names = schema->findChild<QPlainTextEdit*>(QStringLiteral("schemaNames"));
        auto* preset = schema->findChild<QComboBox*>();
        QVERIFY(names && preset);
        QVERIFY(names->isReadOnly());
        QVERIFY(names->placeholderText().isEmpty());
        QVERIFY2(names->toPlainText().contains(QStringLiteral("Bicyclist")), qPrintable(names->toPlainText()));
        QVERIFY(!names->toPlainText().contains(QStringLiteral("person")));
        preset->setCurrentIndex(preset->count() - 1);  // Custom
        QVERIFY(!names->isReadOnly());
        QVERIFY(names->toPlainText().isEmpty());
        QVERIFY(names->placeholderText().contains(QStringLiteral("person")));
        names->setPlainText(QStringLiteral("ground\nkerb"));
        preset->setCurrentIndex(0);
        QVERIFY(names->toPlainText().contains(QStringLiteral("Bicyclist")));
        preset->setCurrentIndex(preset->count() - 1);
        QCOMPARE(names->toPlainText(), QStringLiteral("ground\nkerb"));
    }

    // Issue 50, section 4: the CLI's `import --background` for COCO in the dialog: a class for the
    // pixels no annotation covers, put first in the schema; only on the COCO page.
    void cocoBackgroundClassLabelsTheUncoveredPixels()
    {
        const QString json = m_dir.filePath(QStringLiteral("background.json"));
        QFile file(json);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"images": [{"id": 1, "file_name": "one.png", "width": 6, "height": 8}],
                       "categories": [{"id": 4, "name": "kerb"}],
                       "annotations": [{"image_id": 1, "category_id": 4, "segmentation": [[0, 0, 6, 0, 6, 4, 0, 4]]}]})");
        file.close();
        ImportDatasetDialog dialog;
        auto* format = dialog.findChild<QComboBox*>(QStringLiteral("format"));
        auto* background = dialog.findChild<QLineEdit*>(QStringLiteral("cocoBackground"));
        QVERIFY(format && background);
        format->setCurrentIndex(int(ImportDatasetDialog::Format::Labelme));
        QVERIFY(!background->isVisibleTo(&dialog));
        format->setCurrentIndex(int(ImportDatasetDialog::Format::Coco));
        QVERIFY(background->isVisibleTo(&dialog));
        background->setText(QStringLiteral(" ground "));
        dialog.findChild<PathField*>(QStringLiteral("formatFile"))->setPath(json);
        dialog.findChild<PathField*>(QStringLiteral("formatDir"))->setPath(m_dir.filePath(QStringLiteral("images")));
        dialog.findChild<PathField*>(QStringLiteral("projectFile"))->setPath(m_dir.filePath(QStringLiteral("cocoBackground")));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.request().backgroundClass, QStringLiteral("ground"));
        const segstudio::data::Project project = ImportDatasetDialog::import(dialog.request(), {});
        QCOMPARE(project.schema().size(), std::size_t(2));
        QCOMPARE(project.schema().find(0)->name, std::string("ground"));
        QCOMPARE(project.schema().find(1)->name, std::string("kerb"));
        const cv::Mat labels = segstudio::data::readLabelMap(project.labelMapPath(0), project.schema());
        QCOMPARE(cv::countNonZero(labels == 1), 24);  // the polygon: rows 0-3 of 6 columns
        QCOMPARE(cv::countNonZero(labels == 0), 24);  // the rest: background, not unlabelled
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestImportDatasetDialog)
#include "test_ImportDatasetDialog.moc"
