#include "MetricsPlot.h"

namespace segstudio::ui {

MetricsPlot::MetricsPlot(QWidget* parent) : QCustomPlot(parent)
{
    xAxis->setLabel(tr("iteration"));
    yAxis->setLabel(tr("loss"));
    yAxis2->setLabel(tr("accuracy / mIoU"));
    yAxis2->setVisible(true);
    yAxis2->setRange(0.0, 1.0);
    // The legend goes in a row under the plot: curves that fall and rise leave no free corner.
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), font().pointSize() - 1));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    auto* legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 5));
    legendRow->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(1, 0.001);
    setMinimumHeight(160);

    struct Style {
        Series series;
        QString name;
        QColor colour;
        bool onScoreAxis;
        bool validation;
    };
    const Style styles[] = {
        {TrainLoss, tr("train loss"), QColor(31, 119, 180), false, false},
        {TrainAccuracy, tr("train accuracy"), QColor(255, 127, 14), true, false},
        {ValLoss, tr("val loss"), QColor(31, 119, 180), false, true},
        {ValAccuracy, tr("val accuracy"), QColor(255, 127, 14), true, true},
        {ValMeanIoU, tr("val mIoU"), QColor(44, 160, 44), true, true},
    };
    for (const auto& style : styles) {
        QCPGraph* graph = addGraph(xAxis, style.onScoreAxis ? yAxis2 : yAxis);
        graph->setName(style.name);
        QPen pen(style.colour, style.validation ? 2.0 : 1.0);
        if (style.validation) {
            // Validation comes once per epoch: mark the points so a short run still shows them.
            pen.setStyle(Qt::DashLine);
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        }
        graph->setPen(pen);
        m_series[style.series] = graph;
    }
}

void MetricsPlot::addPoints(const std::vector<data::MetricsPoint>& points)
{
    if (points.empty())
        return;
    const auto add = [](QCPGraph* graph, double x, const std::optional<double>& y) {
        if (y)  // a null (NaN) leaves a gap rather than a bogus zero
            graph->addData(x, *y);
    };
    for (const auto& point : points) {
        const double x = double(point.iteration);
        if (point.kind == data::MetricsPoint::Kind::Train) {
            add(m_series[TrainLoss], x, point.loss);
            add(m_series[TrainAccuracy], x, point.accuracy);
        } else {
            add(m_series[ValLoss], x, point.loss);
            add(m_series[ValAccuracy], x, point.accuracy);
            add(m_series[ValMeanIoU], x, point.meanIoU);
        }
    }
    rescaleToData();
}

void MetricsPlot::rescaleToData()
{
    // Over every series: validation comes before the first logged training line and after the
    // last one (the final validation), and must be inside the axis too.
    bool found = false;
    std::optional<QCPRange> iterations;
    for (QCPGraph* graph : m_series) {
        const QCPRange range = graph->getKeyRange(found);
        if (found)
            iterations = iterations ? QCPRange(std::min(iterations->lower, range.lower), std::max(iterations->upper, range.upper))
                                    : range;
    }
    if (!iterations)
        iterations = QCPRange(0.0, 1.0);
    xAxis->setRange(iterations->lower, std::max(iterations->upper, iterations->lower + 1.0));
    QCPRange losses(0.0, 1.0);
    bool haveLoss = false;
    for (Series which : {TrainLoss, ValLoss}) {
        const QCPRange range = m_series[which]->getValueRange(found);
        if (found) {
            losses = haveLoss ? QCPRange(std::min(losses.lower, range.lower), std::max(losses.upper, range.upper)) : range;
            haveLoss = true;
        }
    }
    yAxis->setRange(0.0, std::max(losses.upper * 1.05, 1e-3));
    replot(QCustomPlot::rpQueuedReplot);
}

void MetricsPlot::clearPoints()
{
    for (QCPGraph* graph : m_series)
        graph->data()->clear();
    rescaleToData();  // an empty plot shows the default ranges, not the last run's
}

}  // namespace segstudio::ui
