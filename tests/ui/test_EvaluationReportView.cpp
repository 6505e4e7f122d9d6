#include "../metrics/TwoImageReport.h"
#include "predictions/ConfusionMatrixPlot.h"
#include "predictions/EvaluationReportView.h"
#include "metrics/EvaluationReportFiles.h"

#include <QApplication>
#include <QFile>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using segstudio::metrics::EvaluationReport;
using segstudio::ui::predictions::EvaluationReportView;

// The report window on a report worked out by hand (the same two images as test_EvaluationReport).
class TestEvaluationReportView : public QObject {
    Q_OBJECT

    static EvaluationReport twoImages()
    {
        auto report = segstudio::test::twoImageReport();
        report.context() = {{"checkpoint", "runs/r/checkpoints/best.pt"}, {"split", "val"}};
        return report;
    }

private slots:
    void showsTheMetricsTableAndConfusion()
    {
        EvaluationReportView view;
        // Issue 65.4: before any evaluation, words instead of an empty dark matrix (axes 0-5).
        view.show();
        auto* empty = view.findChild<QLabel*>(QStringLiteral("noReport"));
        QVERIFY(empty && empty->isVisible() && empty->text().contains(QStringLiteral("Evaluate…")));
        QVERIFY(!view.confusionPlot()->isVisible());
        view.setReport(twoImages());
        const QString summary = view.summary()->text();
        QVERIFY2(summary.contains(QStringLiteral("85.7 %")) && summary.contains(QStringLiteral("75.0 %")) &&
                     summary.contains(QStringLiteral("2 images of the val split")),
                 qPrintable(summary));  // global accuracy 6/7, mean IoU (1 + .75 + .5) / 3
        QCOMPARE(view.classTable()->rowCount(), 3);
        QCOMPARE(view.classTable()->item(1, 0)->text(), QStringLiteral("road"));
        QCOMPARE(view.classTable()->item(1, 2)->text(), QStringLiteral("75.0 %"));  // road IoU 3/4
        QCOMPARE(view.classTable()->item(2, 3)->text(), QStringLiteral("66.7 %"));  // car mean BF 2/3
        QCOMPARE(view.confusionPlot()->cell(1, 1), 0.75);  // 3 of road's 4 pixels right
        QCOMPARE(view.confusionPlot()->cell(1, 2), 0.25);
        QCOMPARE(view.confusionPlot()->cell(2, 2), 1.0);
        QCOMPARE(view.confusionPlot()->cell(0, 1), 0.0);
        QVERIFY(!empty->isVisible() && view.confusionPlot()->isVisible());
    }

    void exportsCsvPngAndPdf()
    {
        EvaluationReportView view;
        view.resize(900, 500);
        view.setReport(twoImages());
        QTemporaryDir dir;
        QVERIFY(view.exportCsv(dir.filePath(QStringLiteral("csv"))));
        QCOMPARE(segstudio::metrics::readEvaluationReport(dir.filePath(QStringLiteral("csv/report.json")).toStdString()).toJson(),
                 view.report()->toJson());
        QVERIFY(view.exportImage(dir.filePath(QStringLiteral("report.png"))));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("report.png"))).size(), QSize(900, 500));
        QVERIFY(view.exportImage(dir.filePath(QStringLiteral("report.pdf"))));
        QFile pdf(dir.filePath(QStringLiteral("report.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(!view.exportImage(dir.filePath(QStringLiteral("missing/folder/report.png"))));
        QVERIFY(view.errorText().contains(QStringLiteral("report.png")));
    }

    // Issue 50, section 4: in the Review workspace's dock (420 px by default) the report was cut
    // off at the right: narrow, the matrix goes below the table and the report scrolls down,
    // never sideways; wide, the two stand side by side again.
    void aNarrowViewPutsTheMatrixBelowTheTable()
    {
        EvaluationReportView view;
        view.setReport(twoImages());
        view.resize(420, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(view.arrangement(), Qt::Vertical);
        auto* scroll = view.findChild<QScrollArea*>();
        QVERIFY(scroll);
        QTRY_VERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
                     qPrintable(QStringLiteral("the report is %1 px wide in %2 px")
                                    .arg(scroll->widget()->width())
                                    .arg(scroll->viewport()->width())));
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        view.resize(1200, 700);
        QTRY_COMPARE(view.arrangement(), Qt::Horizontal);
        QTRY_VERIFY(scroll->widget()->width() <= scroll->viewport()->width());
    }

    // Issue 60.11: CamVid's 11 classes in the default layout's dock: the matrix was cut after
    // Fence (and the colour bar's title) and the wheel over it did not scroll the report. Its
    // minimum size holds every row with its name; the wheel over it scrolls the report.
    void elevenClassesAreNeverCutAndTheWheelScrollsPastThem()
    {
        const std::vector<std::string> names{"Sky", "Building", "Pole", "Road", "Pavement", "Tree",
                                             "SignSymbol", "Fence", "Car", "Pedestrian", "Bicyclist"};
        EvaluationReport report(names);
        std::vector<std::uint8_t> labels(11 * 11);
        for (std::size_t i = 0; i < labels.size(); ++i)
            labels[i] = std::uint8_t(i % 11);
        report.addImage("a.png", labels.data(), labels.data(), 11, 11);
        EvaluationReportView view;
        view.setReport(report);
        view.resize(420, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* plot = view.confusionPlot();
        const QFontMetrics metrics(plot->xAxis->tickLabelFont());
        QVERIFY(plot->minimumHeight() >= 11 * metrics.height() + metrics.horizontalAdvance(QStringLiteral("Pedestrian")) / 2);
        QVERIFY(plot->minimumWidth() >= 11 * metrics.height() + metrics.horizontalAdvance(QStringLiteral("SignSymbol")));
        auto* scroll = view.findChild<QScrollArea*>();
        QTRY_VERIFY(scroll->widget()->width() <= scroll->viewport()->width());  // never cut at the right either
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
        QTRY_VERIFY(scroll->widget()->height() >= plot->minimumHeight());
        const int before = scroll->verticalScrollBar()->value();
        const QPointF at = plot->rect().center();
        QWheelEvent wheel(at, plot->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                          false);
        // As the mouse sends it (sendEvent's would not go past the plot), the way QTest sends keys.
        QSpontaneKeyEvent::setSpontaneous(&wheel);
        qApp->notify(plot, &wheel);
        QVERIFY(scroll->verticalScrollBar()->value() > before);
    }
};

QTEST_MAIN(TestEvaluationReportView)
#include "test_EvaluationReportView.moc"
