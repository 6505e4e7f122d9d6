#include "MetricsPlot.h"

#include "CoalescedReplot.h"

#include "run/MetricsReader.h"

#include <QToolTip>

#include <cmath>

namespace segstudio::ui::training {

namespace {

constexpr double kHoverRadius = 24.0;  // pixels
// Validation points are marked while there are few; a thousand markers would cost every replot
// more than all the lines, and the line shows them as well.
constexpr std::size_t kMaxMarkedPoints = 200;

// Ticks at epoch boundaries (a multiple of an epoch when they would crowd), labelled with the
// epoch number: the top axis, whose grid marks the boundaries in the plot.
class EpochTicker : public QCPAxisTicker {
public:
    void setUnit(double unit) { m_unit = unit; }

protected:
    double getTickStep(const QCPRange& range) override
    {
        double step = m_unit;
        while (range.size() / step > 12)
            step *= 2;
        return step;
    }
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale& locale, QChar, int) override
    {
        return locale.toString(qRound64(tick / m_unit));
    }

private:
    double m_unit = 1.0;
};

struct Style {
    MetricsPlot::Series series;
    const char* name;
    QColor colour;
    bool onAccuracy;
    enum { Raw, Smoothed, Validation } kind;
};

const QColor kAccuracyColour(31, 119, 180);
const QColor kLossColour(214, 39, 40);
const QColor kIoUColour(44, 160, 44);

const Style kStyles[] = {
    {MetricsPlot::TrainLoss, QT_TRANSLATE_NOOP("MetricsPlot", "train loss (raw)"), kLossColour, false, Style::Raw},
    {MetricsPlot::TrainLossSmoothed, QT_TRANSLATE_NOOP("MetricsPlot", "train loss"), kLossColour, false, Style::Smoothed},
    {MetricsPlot::TrainAccuracy, QT_TRANSLATE_NOOP("MetricsPlot", "train accuracy (raw)"), kAccuracyColour, true, Style::Raw},
    {MetricsPlot::TrainAccuracySmoothed, QT_TRANSLATE_NOOP("MetricsPlot", "train accuracy"), kAccuracyColour, true, Style::Smoothed},
    {MetricsPlot::ValLoss, QT_TRANSLATE_NOOP("MetricsPlot", "val loss"), Qt::black, false, Style::Validation},
    {MetricsPlot::ValAccuracy, QT_TRANSLATE_NOOP("MetricsPlot", "val accuracy"), Qt::black, true, Style::Validation},
    {MetricsPlot::ValMeanIoU, QT_TRANSLATE_NOOP("MetricsPlot", "val mIoU"), kIoUColour, true, Style::Validation},
};

}  // namespace

MetricsPlot::MetricsPlot(QWidget* parent)
    : QCustomPlot(parent), m_lossEma(m_smoothing), m_accuracyEma(m_smoothing), m_replot(new CoalescedReplot(this))
{
    setMinimumHeight(200);  // two plots and a legend stay readable
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setPlottingHints(QCP::phCacheLabels | QCP::phFastPolylines);
    buildAxes();
    addGraphs();
    rescaleToData();
}

void MetricsPlot::buildAxes()
{
    m_accuracyRect = axisRect();
    m_lossRect = new QCPAxisRect(this);
    plotLayout()->addElement(1, 0, m_lossRect);
    auto* margins = new QCPMarginGroup(this);
    for (QCPAxisRect* rect : {m_accuracyRect, m_lossRect}) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
        rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
        QCPAxis* top = rect->axis(QCPAxis::atTop);
        top->setVisible(true);
        top->setTicker(QSharedPointer<EpochTicker>::create());
        top->grid()->setVisible(true);
        top->grid()->setPen(QPen(QColor(150, 150, 150), 1, Qt::DotLine));
        top->setSubTicks(false);
        // The x axes of both plots move together, whichever is dragged or zoomed.
        QCPAxis* bottom = rect->axis(QCPAxis::atBottom);
        connect(bottom, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), top, qOverload<const QCPRange&>(&QCPAxis::setRange));
    }
    m_accuracyRect->axis(QCPAxis::atTop)->setLabel(tr("epoch"));
    m_lossRect->axis(QCPAxis::atTop)->setTickLabels(false);
    QCPAxis* accuracyX = m_accuracyRect->axis(QCPAxis::atBottom);
    QCPAxis* lossX = m_lossRect->axis(QCPAxis::atBottom);
    connect(accuracyX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), lossX, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(lossX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), accuracyX, qOverload<const QCPRange&>(&QCPAxis::setRange));
    accuracyX->setTickLabels(false);
    m_accuracyRect->axis(QCPAxis::atLeft)->setLabel(tr("accuracy / mIoU"));
    m_lossRect->axis(QCPAxis::atLeft)->setLabel(tr("loss"));
    lossX->setLabel(tr("iteration"));

    // The legend goes in a row under the plots: curves that fall and rise leave no free corner.
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), font().pointSize() - 1));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(4);
    legend->setBorderPen(Qt::NoPen);
    auto* legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(2, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 5));
    legendRow->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
}

void MetricsPlot::addGraphs()
{
    for (const Style& style : kStyles) {
        QCPAxisRect* rect = style.onAccuracy ? m_accuracyRect : m_lossRect;
        QCPGraph* graph = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setName(tr(style.name));
        QColor colour = style.colour;
        if (style.kind == Style::Raw) {
            colour.setAlpha(70);
            graph->removeFromLegend();  // the bold curve names it
            graph->setAntialiased(false);  // faint and dense: smoothing its edges costs most of a replot
        }
        QPen pen(colour, style.kind == Style::Smoothed ? 2.0 : 1.0);
        if (style.kind == Style::Validation) {
            pen.setStyle(Qt::DashLine);
            pen.setWidthF(1.5);
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, Qt::white, 6));
        }
        graph->setPen(pen);
        graph->setAdaptiveSampling(true);
        m_graphs[style.series] = graph;
    }
}

void MetricsPlot::addRecords(const std::vector<run::MetricsRecord>& records)
{
    bool added = false;
    for (const auto& record : records) {
        using Kind = run::MetricsRecord::Kind;
        if (record.kind == Kind::Run && record.run.iterationsPerEpoch > 0 &&
            record.run.iterationsPerEpoch != m_iterationsPerEpoch) {
            m_iterationsPerEpoch = record.run.iterationsPerEpoch;
            updateEpochTicks();
            for (int s = 0; s < SeriesCount; ++s)
                rebuildGraph(Series(s));  // the epoch axis needs the epoch length
            continue;
        }
        if (record.kind != Kind::Train && record.kind != Kind::Val)
            continue;
        const double seconds = record.elapsedSeconds.value_or(0.0);
        const auto sample = [&](double value) { return Sample{double(record.iteration), seconds, value}; };
        if (record.kind == Kind::Train) {
            if (record.loss)
                appendTrain(TrainLoss, TrainLossSmoothed, m_lossEma, sample(*record.loss));
            if (record.accuracy)
                appendTrain(TrainAccuracy, TrainAccuracySmoothed, m_accuracyEma, sample(*record.accuracy));
        } else {
            // A null (NaN) leaves a gap rather than a bogus zero.
            if (record.loss)
                append(ValLoss, sample(*record.loss));
            if (record.accuracy)
                append(ValAccuracy, sample(*record.accuracy));
            if (record.meanIoU)
                append(ValMeanIoU, sample(*record.meanIoU));
        }
        added = true;
    }
    if (added && m_follow)
        rescaleToData();
    else if (added)
        scheduleReplot();
}

void MetricsPlot::appendTrain(Series raw, Series smoothed, run::DebiasedEma& ema, const Sample& sample)
{
    const double value = ema.add(sample.value);
    append(raw, sample);
    append(smoothed, {sample.iteration, sample.seconds, value});
}

void MetricsPlot::append(Series which, const Sample& sample)
{
    Curve& curve = m_curves[which];
    if (curve.seen++ % curve.stride != 0)
        return;
    curve.samples.push_back(sample);
    if (curve.samples.size() > kMaxTrainSamples) {
        // Keep every other point and take every other one from now on: bounded memory, and at
        // 200,000 points a curve is still far denser than the screen.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < curve.samples.size(); i += 2)
            curve.samples[kept++] = curve.samples[i];
        curve.samples.resize(kept);
        curve.stride *= 2;
        rebuildGraph(which);
        return;
    }
    m_graphs[which]->addData(xOf(sample), sample.value);
    if (curve.samples.size() == kMaxMarkedPoints + 1)
        m_graphs[which]->setScatterStyle(QCPScatterStyle());
    if (curve.samples.size() <= 2)
        markLonePoint(which);
}

// QCustomPlot joins points with lines, so a training curve of one point (the first ~40 s of a
// run) drew nothing: it is a dot until the second point makes a line. Validation curves carry
// their markers anyway (addGraphs).
void MetricsPlot::markLonePoint(Series which)
{
    if (which != TrainLossSmoothed && which != TrainAccuracySmoothed)
        return;
    QCPGraph* graph = m_graphs[which];
    const bool lone = graph->data()->size() == 1;
    if (lone == (graph->scatterStyle().shape() != QCPScatterStyle::ssNone))
        return;
    graph->setScatterStyle(lone ? QCPScatterStyle(QCPScatterStyle::ssDisc, graph->pen().color(), 7) : QCPScatterStyle());
}

double MetricsPlot::xOf(const Sample& sample) const
{
    switch (m_xAxis) {
    case XAxis::Epoch:
        return m_iterationsPerEpoch > 0 ? sample.iteration / double(m_iterationsPerEpoch) : sample.iteration;
    case XAxis::WallTime:
        return sample.seconds;
    case XAxis::Iteration:
        break;
    }
    return sample.iteration;
}

void MetricsPlot::rebuildGraph(Series which)
{
    QVector<QCPGraphData> data;
    data.reserve(int(m_curves[which].samples.size()));
    for (const Sample& sample : m_curves[which].samples)
        data.append(QCPGraphData(xOf(sample), sample.value));
    m_graphs[which]->data()->set(data, m_xAxis != XAxis::WallTime);  // wall time restarts are sorted here
    markLonePoint(which);
}

void MetricsPlot::recomputeSmoothed()
{
    for (auto [raw, smoothed] : {std::pair{TrainLoss, TrainLossSmoothed}, std::pair{TrainAccuracy, TrainAccuracySmoothed}}) {
        // A thinned curve keeps every stride-th point: the same smoothing per point seen is
        // weight^stride per point kept.
        run::DebiasedEma ema(std::pow(m_smoothing, double(m_curves[raw].stride)));
        auto& out = m_curves[smoothed].samples;
        out = m_curves[raw].samples;
        for (Sample& sample : out)
            sample.value = ema.add(sample.value);
        rebuildGraph(smoothed);
    }
    // New points continue the full-rate average.
    m_lossEma = run::DebiasedEma(m_smoothing);
    m_accuracyEma = run::DebiasedEma(m_smoothing);
    for (auto [raw, ema] : {std::pair{TrainLoss, &m_lossEma}, std::pair{TrainAccuracy, &m_accuracyEma}})
        for (const Sample& sample : m_curves[raw].samples)
            for (std::size_t i = 0; i < m_curves[raw].stride; ++i)
                ema->add(sample.value);
}

void MetricsPlot::setSmoothing(double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight == m_smoothing)
        return;
    m_smoothing = weight;
    recomputeSmoothed();
    rebuildComparison();
    scheduleReplot();
}

void MetricsPlot::setLogScale(bool on)
{
    m_logScale = on;
    QCPAxis* loss = m_lossRect->axis(QCPAxis::atLeft);
    loss->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on)
        loss->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        loss->setTicker(QSharedPointer<QCPAxisTicker>::create());
    rescaleToData();
}

void MetricsPlot::setXAxis(XAxis axis)
{
    if (axis == m_xAxis)
        return;
    m_xAxis = axis;
    QCPAxis* lossX = m_lossRect->axis(QCPAxis::atBottom);
    QCPAxis* accuracyX = m_accuracyRect->axis(QCPAxis::atBottom);
    if (axis == XAxis::WallTime) {
        auto ticker = QSharedPointer<QCPAxisTickerTime>::create();
        ticker->setTimeFormat(QStringLiteral("%h:%m:%s"));
        lossX->setTicker(ticker);
        accuracyX->setTicker(ticker);
    } else {
        lossX->setTicker(QSharedPointer<QCPAxisTicker>::create());
        accuracyX->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    lossX->setLabel(axis == XAxis::Iteration ? tr("iteration") : axis == XAxis::Epoch ? tr("epoch") : tr("training time"));
    updateEpochTicks();
    for (int s = 0; s < SeriesCount; ++s)
        rebuildGraph(Series(s));
    rebuildComparison();
    resetView();
}

void MetricsPlot::updateEpochTicks()
{
    // Epoch boundaries are regular on the iteration and epoch axes; on the time axis they are
    // not, and no marks are better than wrong ones.
    const bool marked = m_xAxis != XAxis::WallTime && m_iterationsPerEpoch > 0;
    for (QCPAxisRect* rect : {m_accuracyRect, m_lossRect}) {
        QCPAxis* top = rect->axis(QCPAxis::atTop);
        if (auto ticker = top->ticker().dynamicCast<EpochTicker>())
            ticker->setUnit(m_xAxis == XAxis::Epoch ? 1.0 : double(std::max<std::int64_t>(1, m_iterationsPerEpoch)));
        top->grid()->setVisible(marked);
        top->setTicks(marked);
        top->setTickLabels(marked && rect == m_accuracyRect);
    }
}

void MetricsPlot::resetView()
{
    m_follow = true;
    rescaleToData();
}

void MetricsPlot::rescaleToData()
{
    // Over every series: validation comes before the first logged training line and after the
    // last one (the final validation), and must be inside the axis too.
    bool found = false;
    std::optional<QCPRange> keys;
    for (int i = 0; i < graphCount(); ++i) {
        const QCPRange range = graph(i)->getKeyRange(found);
        if (found)
            keys = keys ? QCPRange(std::min(keys->lower, range.lower), std::max(keys->upper, range.upper)) : range;
    }
    if (!keys)
        keys = QCPRange(0.0, 1.0);
    else if (keys->upper <= keys->lower)  // one point: centred, not on the axis line that hides it
        keys = QCPRange(keys->lower - 0.5, keys->upper + 0.5);
    m_lossRect->axis(QCPAxis::atBottom)->setRange(keys->lower, std::max(keys->upper, keys->lower + 1.0));
    std::optional<QCPRange> losses;
    std::vector<QCPGraph*> lossGraphs{m_graphs[TrainLoss], m_graphs[ValLoss]};
    for (QCPGraph* graph : m_comparedGraphs)
        if (graph->valueAxis() == m_lossRect->axis(QCPAxis::atLeft))
            lossGraphs.push_back(graph);
    for (QCPGraph* graph : lossGraphs) {
        const QCPRange range = graph->getValueRange(found, QCP::sdBoth);
        if (found)
            losses = losses ? QCPRange(std::min(losses->lower, range.lower), std::max(losses->upper, range.upper)) : range;
    }
    QCPAxis* lossAxis = m_lossRect->axis(QCPAxis::atLeft);
    if (m_logScale)
        lossAxis->setRange(losses && losses->lower > 0 ? losses->lower / 1.2 : 1e-3, losses ? losses->upper * 1.2 : 10.0);
    else
        lossAxis->setRange(0.0, std::max(losses ? losses->upper * 1.05 : 1.0, 1e-3));
    m_accuracyRect->axis(QCPAxis::atLeft)->setRange(0.0, 1.0);
    scheduleReplot();
}

double MetricsPlot::xOfPoint(const ComparedPoint& point, std::int64_t iterationsPerEpoch) const
{
    switch (m_xAxis) {
    case XAxis::Epoch:
        return iterationsPerEpoch > 0 ? point.iteration / double(iterationsPerEpoch) : point.iteration;
    case XAxis::WallTime:
        return point.seconds;
    case XAxis::Iteration:
        break;
    }
    return point.iteration;
}

MetricsPlot::ComparedRun MetricsPlot::readComparedRun(const QString& name, const std::filesystem::path& metricsFile)
{
    ComparedRun compared;
    compared.name = name;
    run::MetricsReader reader(metricsFile);
    do {
        for (const auto& record : reader.poll()) {
            const double seconds = record.elapsedSeconds.value_or(0.0);
            if (record.kind == run::MetricsRecord::Kind::Run && record.run.iterationsPerEpoch > 0)
                compared.iterationsPerEpoch = record.run.iterationsPerEpoch;
            else if (record.kind == run::MetricsRecord::Kind::Train && record.loss)
                compared.losses.push_back({double(record.iteration), seconds, *record.loss});
            else if (record.kind == run::MetricsRecord::Kind::Val && record.meanIoU)
                compared.meanIoU.push_back({double(record.iteration), seconds, *record.meanIoU});
        }
    } while (!reader.atEnd());
    return compared;
}

void MetricsPlot::setComparison(std::vector<ComparedRun> runs)
{
    m_compared = std::move(runs);
    rebuildComparison();
    if (m_follow)
        rescaleToData();
    else
        scheduleReplot();
}

void MetricsPlot::rebuildComparison()
{
    for (QCPGraph* graph : m_comparedGraphs)
        removeGraph(graph);
    m_comparedGraphs.clear();
    static const QColor colours[] = {{148, 103, 189}, {255, 127, 14}, {23, 190, 207}, {188, 189, 34}, {227, 119, 194}, {140, 86, 75}};
    int index = 0;
    for (const ComparedRun& compared : m_compared) {
        const QColor colour = colours[index++ % 6];
        QCPGraph* loss = addGraph(m_lossRect->axis(QCPAxis::atBottom), m_lossRect->axis(QCPAxis::atLeft));
        loss->setName(tr("%1: train loss").arg(compared.name));
        loss->setPen(QPen(colour, 2.0));
        loss->setAdaptiveSampling(true);
        if (compared.losses.size() == 1)  // no line to draw yet
            loss->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 7));
        QCPGraph* iou = addGraph(m_accuracyRect->axis(QCPAxis::atBottom), m_accuracyRect->axis(QCPAxis::atLeft));
        iou->setName(tr("%1: val mIoU").arg(compared.name));
        iou->setPen(QPen(colour, 1.5, Qt::DashLine));
        if (compared.meanIoU.size() <= kMaxMarkedPoints)
            iou->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, colour, Qt::white, 5));
        run::DebiasedEma ema(m_smoothing);
        QVector<QCPGraphData> losses, ious;
        losses.reserve(int(compared.losses.size()));
        for (const auto& point : compared.losses)
            losses.append(QCPGraphData(xOfPoint(point, compared.iterationsPerEpoch), ema.add(point.value)));
        for (const auto& point : compared.meanIoU)
            ious.append(QCPGraphData(xOfPoint(point, compared.iterationsPerEpoch), point.value));
        loss->data()->set(losses, false);
        iou->data()->set(ious, false);
        m_comparedGraphs.push_back(loss);
        m_comparedGraphs.push_back(iou);
    }
}

void MetricsPlot::clearPoints()
{
    for (QCPGraph* graph : m_graphs)
        graph->data()->clear();
    for (Series which : {TrainLossSmoothed, TrainAccuracySmoothed})
        markLonePoint(which);
    for (Series which : {ValLoss, ValAccuracy, ValMeanIoU}) {
        const QColor colour = m_graphs[which]->pen().color();
        m_graphs[which]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, Qt::white, 6));
    }
    m_curves = {};
    m_lossEma.reset();
    m_accuracyEma.reset();
    m_iterationsPerEpoch = 0;
    updateEpochTicks();
    m_follow = true;
    rescaleToData();  // an empty plot shows the default ranges, not the last run's
}

void MetricsPlot::scheduleReplot()
{
    m_replot->schedule();
}

QString MetricsPlot::describePointAt(const QPointF& pos) const
{
    QCPAxisRect* rect = axisRectAt(pos);
    if (!rect)
        return {};
    const QCPGraph* best = nullptr;
    QCPGraphData bestPoint;
    double bestDistance = kHoverRadius;
    for (int i = 0; i < graphCount(); ++i) {  // compared runs too
        QCPGraph* graph = this->graph(i);
        if (graph->keyAxis()->axisRect() != rect || graph->data()->isEmpty())
            continue;
        const double key = graph->keyAxis()->pixelToCoord(pos.x());
        auto it = graph->data()->findBegin(key, true);
        for (int step = 0; step < 2 && it != graph->data()->constEnd(); ++step, ++it) {
            const QPointF at = graph->coordsToPixels(it->key, it->value);
            const double distance = std::hypot(at.x() - pos.x(), at.y() - pos.y());
            if (distance < bestDistance) {
                bestDistance = distance;
                best = graph;
                bestPoint = *it;
            }
        }
    }
    if (!best)
        return {};
    const QString where = m_xAxis == XAxis::WallTime ? tr("after %1 s").arg(bestPoint.key, 0, 'f', 0)
                          : m_xAxis == XAxis::Epoch  ? tr("at epoch %1").arg(bestPoint.key, 0, 'f', 2)
                                                     : tr("at iteration %1").arg(bestPoint.key, 0, 'f', 0);
    return tr("%1: %2 %3").arg(best->name()).arg(bestPoint.value, 0, 'g', 4).arg(where);
}

void MetricsPlot::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QString text = describePointAt(event->position());
    emit hovered(text);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void MetricsPlot::mousePressEvent(QMouseEvent* event)
{
    m_follow = false;  // the user moves the view: new points no longer rescale it
    QCustomPlot::mousePressEvent(event);
}

void MetricsPlot::wheelEvent(QWheelEvent* event)
{
    m_follow = false;
    QCustomPlot::wheelEvent(event);
}

void MetricsPlot::showEvent(QShowEvent* event)
{
    QCustomPlot::showEvent(event);
    m_replot->shown();
}

void MetricsPlot::mouseDoubleClickEvent(QMouseEvent* event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    resetView();
}

}  // namespace segstudio::ui::training
