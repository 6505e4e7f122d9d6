#include "ConfusionMatrixPlot.h"

#include <QWheelEvent>

#include "metrics/EvaluationReport.h"
#include "paint/ColourScale.h"

namespace segstudio::ui::predictions {

namespace {

QSharedPointer<QCPAxisTickerText> classTicker(const std::vector<std::string>& names)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t c = 0; c < names.size(); ++c)
        ticker->addTick(double(c), QString::fromStdString(names[c]));
    return ticker;
}

// The editor's heat map colours (paint::ColourScale), so a colour means the same in both.
QCPColorGradient heatGradient()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    constexpr int kStops = 16;
    for (int i = 0; i <= kStops; ++i)
        gradient.setColorStopAt(double(i) / kStops, QColor::fromRgb(paint::ColourScale::turbo(double(i) / kStops)));
    return gradient;
}

}  // namespace

ConfusionMatrixPlot::ConfusionMatrixPlot(QWidget* parent)
    : QCustomPlot(parent), m_map(new QCPColorMap(xAxis, yAxis)), m_scale(new QCPColorScale(this))
{
    // QCustomPlot keeps mouse events to itself; this plot has nothing to zoom or drag, so the
    // report around it scrolls on the wheel (wheelEvent ignores it, and it goes up to the parent).
    setAttribute(Qt::WA_NoMousePropagation, false);
    plotLayout()->addElement(0, 1, m_scale);
    // What the colours mean goes under the matrix, not up the colour bar, whose rotated title was
    // cut off at the right of the Review workspace's dock.
    m_map->setColorScale(m_scale);
    m_map->setGradient(heatGradient());
    m_map->setInterpolate(false);
    m_map->setDataRange(QCPRange(0.0, 1.0));
    xAxis->setLabel(tr("predicted class (colour: share of the true class)"));
    yAxis->setLabel(tr("true class"));
    yAxis->setRangeReversed(true);  // the first class at the top, as the table reads
    xAxis->setTickLabelRotation(60);
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
    }
    // The colour scale lines up with the plot's own margins.
    auto* margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
}

void ConfusionMatrixPlot::setReport(const metrics::EvaluationReport& report)
{
    const int classes = report.classes();
    const auto normalised = report.confusion().normalisedByTruth();
    m_map->data()->setSize(classes, classes);
    m_map->data()->setRange(QCPRange(0, classes - 1), QCPRange(0, classes - 1));
    for (int truth = 0; truth < classes; ++truth)
        for (int predicted = 0; predicted < classes; ++predicted)
            m_map->data()->setCell(predicted, truth, normalised[std::size_t(truth * classes + predicted)]);
    xAxis->setTicker(classTicker(report.classNames()));
    yAxis->setTicker(classTicker(report.classNames()));
    xAxis->setRange(-0.5, classes - 0.5);
    yAxis->setRange(-0.5, classes - 0.5);
    fitMinimumSize(report.classNames());
    replot();
}

void ConfusionMatrixPlot::fitMinimumSize(const std::vector<std::string>& classNames)
{
    const QFontMetrics metrics(xAxis->tickLabelFont());
    int longest = 0;
    for (const std::string& name : classNames)
        longest = std::max(longest, metrics.horizontalAdvance(QString::fromStdString(name)));
    const int cells = int(classNames.size()) * metrics.height();  // a row per class, its name readable
    const int axisTitle = 2 * metrics.height();
    const int scale = 2 * metrics.height() + 10;  // the colour bar and its numbers
    // The predicted classes' names stand at 60 degrees below the matrix: sin 60 of their length.
    const int below = int(longest * 0.87) + metrics.height() + axisTitle;
    setMinimumSize(std::max(360, longest + metrics.height() + cells + scale + 10), std::max(360, cells + below + 20));
}

// The plot has nothing to zoom: the wheel scrolls the report it sits in.
void ConfusionMatrixPlot::wheelEvent(QWheelEvent* event) { event->ignore(); }

double ConfusionMatrixPlot::cell(int truth, int predicted) const { return m_map->data()->cell(predicted, truth); }

}  // namespace segstudio::ui::predictions
