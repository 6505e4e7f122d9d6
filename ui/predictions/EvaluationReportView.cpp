#include "EvaluationReportView.h"

#include "ConfusionMatrixPlot.h"
#include "metrics/EvaluationReportFiles.h"
#include "run/FileError.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace segstudio::ui::predictions {

namespace {

QString percent(double value) { return std::isnan(value) ? QStringLiteral("—") : QString::number(value * 100.0, 'f', 1) + QStringLiteral(" %"); }

QTableWidgetItem* cellOf(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

EvaluationReportView::EvaluationReportView(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel), m_classes(new QTableWidget), m_confusion(new ConfusionMatrixPlot),
      m_splitter(new QSplitter(Qt::Horizontal)), m_scroll(new QScrollArea(this)),
      m_empty(new QLabel(tr("No evaluation yet: Evaluate… in the Predictions panel scores the model in use on the "
                            "validation images and shows its report here."),
                         this))
{
    m_empty->setObjectName(QStringLiteral("noReport"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_classes->setColumnCount(4);
    m_classes->setHorizontalHeaderLabels({tr("Class"), tr("Accuracy"), tr("IoU"), tr("Mean BF score")});
    m_classes->verticalHeader()->setVisible(false);
    m_classes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Small enough for the Review workspace's dock below the table; it grows with the room.
    m_confusion->setMinimumSize(360, 360);

    auto* csv = new QPushButton(tr("Export &CSV…"), this);
    auto* png = new QPushButton(tr("Export &PNG…"), this);
    auto* pdf = new QPushButton(tr("Export P&DF…"), this);
    connect(csv, &QPushButton::clicked, this, [this] { askAndExport(QStringLiteral("csv")); });
    connect(png, &QPushButton::clicked, this, [this] { askAndExport(QStringLiteral("png")); });
    connect(pdf, &QPushButton::clicked, this, [this] { askAndExport(QStringLiteral("pdf")); });

    m_splitter->addWidget(m_classes);
    m_splitter->addWidget(m_confusion);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 0);  // the table keeps the width (or height) of its contents,
    m_splitter->setStretchFactor(1, 1);  // the matrix takes the rest
    auto* report = new QWidget;
    auto* reportLayout = new QVBoxLayout(report);
    reportLayout->setContentsMargins(0, 0, 0, 0);
    reportLayout->addWidget(m_summary);
    reportLayout->addWidget(m_splitter, 1);
    // The report scrolls here, not in whatever holds the view: the view is then as wide as its
    // place, and arrangeForWidth() knows the width there is.
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidget(report);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(csv);
    buttons->addWidget(png);
    buttons->addWidget(pdf);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_scroll, 1);
    layout->addLayout(buttons);
    m_scroll->hide();  // until a report comes (setReport)
    m_exportButtons = {csv, png, pdf};
    for (QPushButton* button : m_exportButtons)
        button->setEnabled(false);
}

Qt::Orientation EvaluationReportView::arrangement() const { return m_splitter->orientation(); }

void EvaluationReportView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeForWidth();
}

// Side by side, the table and the matrix are wider than the Review workspace's dock: the matrix
// was cut off at the right. Below the table it fits, and the report scrolls down instead.
void EvaluationReportView::arrangeForWidth()
{
    const int table = std::max(m_classes->minimumWidth(), m_classes->minimumSizeHint().width());
    const int scrollBar = m_scroll->verticalScrollBar()->sizeHint().width();
    const int sideBySide = table + m_splitter->handleWidth() + m_confusion->minimumWidth() + scrollBar;
    // The view's own width, not the scroll area's: right after a resize its layout may not have run.
    const QMargins margins = layout()->contentsMargins();
    const int room = width() - margins.left() - margins.right();
    const Qt::Orientation wanted = room >= sideBySide ? Qt::Horizontal : Qt::Vertical;
    if (m_splitter->orientation() != wanted)
        m_splitter->setOrientation(wanted);
}

void EvaluationReportView::setReport(const metrics::EvaluationReport& report)
{
    m_empty->hide();
    m_scroll->show();
    for (QPushButton* button : m_exportButtons)
        button->setEnabled(true);
    m_report = report;
    const auto metrics = report.metrics();
    const auto& context = report.context();
    const QString where = context.contains("split") ? tr("%1 images of the %2 split").arg(report.images().size()).arg(QString::fromStdString(context.value("split", std::string())))
                                                    : tr("%1 images").arg(report.images().size());
    m_summary->setText(tr("<b>%1</b> on %2<br>global accuracy <b>%3</b> · mean accuracy <b>%4</b> · mean IoU <b>%5</b> · "
                          "weighted IoU <b>%6</b> · mean BF score <b>%7</b>")
                           .arg(QString::fromStdString(context.value("checkpoint", std::string())), where,
                                percent(metrics.globalAccuracy), percent(metrics.meanClassAccuracy), percent(metrics.meanIoU),
                                percent(metrics.weightedIoU), percent(report.meanBoundaryF1())));
    const auto boundary = report.classMeanBoundaryF1();
    m_classes->setRowCount(report.classes());
    for (int c = 0; c < report.classes(); ++c) {
        m_classes->setItem(c, 0, new QTableWidgetItem(QString::fromStdString(report.classNames()[std::size_t(c)])));
        m_classes->setItem(c, 1, cellOf(percent(metrics.classAccuracy[std::size_t(c)])));
        m_classes->setItem(c, 2, cellOf(percent(metrics.classIoU[std::size_t(c)])));
        m_classes->setItem(c, 3, cellOf(percent(boundary[std::size_t(c)])));
    }
    // The table shows all four columns and (up to a dozen) all its rows; the confusion matrix
    // takes the rest.
    m_classes->resizeColumnsToContents();
    m_classes->setMinimumWidth(m_classes->horizontalHeader()->length() + 2 * m_classes->frameWidth() +
                               m_classes->verticalScrollBar()->sizeHint().width());
    constexpr int kRowsShownWhole = 12;
    const int rowsShown = std::min(report.classes(), kRowsShownWhole);
    m_classes->setMinimumHeight(m_classes->horizontalHeader()->sizeHint().height() + 2 * m_classes->frameWidth() +
                                rowsShown * m_classes->verticalHeader()->defaultSectionSize());
    m_confusion->setReport(report);
    arrangeForWidth();
}

bool EvaluationReportView::exportCsv(const QString& dir)
{
    if (!m_report)
        return false;
    try {
        metrics::writeEvaluationReport(*m_report, dir.toStdString());
        return true;
    } catch (const run::FileError& error) {
        m_error = QString::fromStdString(error.what());
        return false;
    }
}

bool EvaluationReportView::exportImage(const QString& file)
{
    if (!m_report)
        return false;
    bool saved = false;
    if (QFileInfo(file).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0) {
        QPdfWriter writer(file);
        writer.setPageSize(QPageSize(QSizeF(size()), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(72);  // one point a pixel: the page is the view's size
        QPainter painter;
        saved = painter.begin(&writer);
        if (saved)
            render(&painter);
    } else {
        saved = grab().save(file);
    }
    if (!saved)
        m_error = tr("%1: cannot write the image").arg(file);
    return saved;
}

void EvaluationReportView::askAndExport(const QString& kind)
{
    bool ok = false;
    if (kind == QStringLiteral("csv")) {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export the report as CSV into"));
        if (dir.isEmpty())
            return;
        ok = exportCsv(dir);
    } else {
        const QString filter = kind == QStringLiteral("pdf") ? tr("PDF (*.pdf)") : tr("PNG image (*.png)");
        QString file = QFileDialog::getSaveFileName(this, tr("Export the report"), QStringLiteral("evaluation.") + kind, filter);
        if (file.isEmpty())
            return;
        if (QFileInfo(file).suffix().isEmpty())
            file += QLatin1Char('.') + kind;
        ok = exportImage(file);
    }
    if (!ok)
        QMessageBox::warning(this, tr("Export"), m_error);
}

}  // namespace segstudio::ui::predictions
