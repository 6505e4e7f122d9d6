#include "DetailPlot.h"

#include "CoalescedReplot.h"


#include <cmath>

namespace segstudio::ui::training {

namespace {


// Keeps every other point of a graph.
void halve(QCPGraph* graph)
{
    QVector<QCPGraphData> kept;
    kept.reserve(graph->dataCount() / 2 + 1);
    for (int i = 0; i < graph->dataCount(); i += 2)
        kept.append(*(graph->data()->constBegin() + i));
    graph->data()->set(kept, true);
}

QColor categoryColour(int index)
{
    // Tableau's ten, then darker repeats: distinct for CamVid's 11 classes and a few GPUs.
    static const QColor colours[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},  {148, 103, 189},
                                     {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    const QColor colour = colours[index % 10];
    return index < 10 ? colour : colour.darker(100 + 40 * (index / 10));
}

}  // namespace

DetailPlot::DetailPlot(QWidget* parent) : QCustomPlot(parent), m_replot(new CoalescedReplot(this))
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMinimumHeight(200);
    // Four plots of their own layout; the default axis rect goes, and its legend with it (the
    // class IoU plot has its own).
    setAutoAddPlottableToLegend(false);
    plotLayout()->clear();
    legend = nullptr;
    m_lrRect = addRect(0, 0, tr("learning rate"), tr("learning rate"));
    m_speedRect = addRect(0, 1, tr("training speed"), tr("images/s"));
    m_iouRect = addRect(1, 0, tr("validation IoU per class"), tr("IoU"));
    m_gpuRect = addRect(1, 1, tr("GPU"), tr("utilisation / memory (%)"));
    m_iouRect->axis(QCPAxis::atLeft)->setRange(0, 1);
    m_gpuRect->axis(QCPAxis::atLeft)->setRange(0, 100);
    m_learningRate = graphIn(m_lrRect, categoryColour(0), tr("learning rate"));
    m_imagesPerSecond = graphIn(m_speedRect, categoryColour(2), tr("images/s"));

    m_iouLegend = new QCPLegend;
    m_iouRect->insetLayout()->addElement(m_iouLegend, Qt::AlignRight | Qt::AlignBottom);
    m_iouLegend->setLayer(QStringLiteral("legend"));
    m_iouLegend->setFont(QFont(font().family(), font().pointSize() - 2));
    m_iouLegend->setBrush(QColor(255, 255, 255, 200));
    m_iouLegend->setWrap(3);
    m_iouLegend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_iouLegend->setVisible(false);

    m_noGpu = new QCPItemText(this);
    m_noGpu->setClipAxisRect(m_gpuRect);
    m_noGpu->position->setAxisRect(m_gpuRect);
    m_noGpu->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_noGpu->position->setCoords(0.5, 0.5);
    m_noGpu->setText(tr("no GPU metrics in this run\n(CUDA runs log them when NVML is present)"));
    m_noGpu->setColor(Qt::gray);
}

QCPAxisRect* DetailPlot::addRect(int row, int column, const QString& title, const QString& valueLabel)
{
    auto* rect = new QCPAxisRect(this);
    plotLayout()->addElement(row, column, rect);
    rect->axis(QCPAxis::atBottom)->setLabel(tr("iteration"));
    rect->axis(QCPAxis::atLeft)->setLabel(valueLabel);
    rect->axis(QCPAxis::atTop)->setVisible(true);
    rect->axis(QCPAxis::atTop)->setTicks(false);
    rect->axis(QCPAxis::atTop)->setTickLabels(false);
    rect->axis(QCPAxis::atTop)->setLabel(title);
    return rect;
}

QCPGraph* DetailPlot::graphIn(QCPAxisRect* rect, const QColor& colour, const QString& name, QCPAxis* valueAxis)
{
    QCPGraph* graph = addGraph(rect->axis(QCPAxis::atBottom), valueAxis ? valueAxis : rect->axis(QCPAxis::atLeft));
    graph->setName(name);
    graph->setPen(QPen(colour, 1.5));
    graph->setAdaptiveSampling(true);
    return graph;
}

void DetailPlot::setClassNames(const QStringList& names, const QStringList& projectNames)
{
    m_classNames = names;
    m_projectClassNames = projectNames;
    nameClassGraphs();
    scheduleReplot();
}

// The run's own names; else the project's, when the run has exactly as many classes; else numbers.
QString DetailPlot::classNameOf(int c) const
{
    if (c < m_classNames.size())
        return m_classNames[c];
    if (m_classNames.isEmpty() && m_projectClassNames.size() == m_classIoU.size() && c < m_projectClassNames.size())
        return m_projectClassNames[c];
    return tr("class %1").arg(c);
}

void DetailPlot::nameClassGraphs()
{
    for (int c = 0; c < m_classIoU.size(); ++c)
        m_classIoU[c]->setName(classNameOf(c));
}

void DetailPlot::ensureClassGraphs(std::size_t count)
{
    while (std::size_t(m_classIoU.size()) < count) {
        const int c = m_classIoU.size();
        QCPGraph* graph = graphIn(m_iouRect, categoryColour(c), QString());
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        graph->addToLegend(m_iouLegend);
        m_classIoU.append(graph);
    }
    nameClassGraphs();  // the class count is known now
    m_iouLegend->setVisible(!m_classIoU.isEmpty());
}

void DetailPlot::ensureGpuGraphs(const std::vector<run::GpuSample>& gpus)
{
    while (m_gpuUtilization.size() < int(gpus.size())) {
        const int g = m_gpuUtilization.size();
        m_gpuUtilization.append(graphIn(m_gpuRect, categoryColour(g), tr("GPU %1 utilisation").arg(gpus[g].index)));
        QCPGraph* memory = graphIn(m_gpuRect, categoryColour(g), tr("GPU %1 memory").arg(gpus[g].index));
        memory->setPen(QPen(categoryColour(g), 1.5, Qt::DashLine));
        m_gpuMemory.append(memory);
    }
    m_noGpu->setVisible(m_gpuUtilization.isEmpty());
}

void DetailPlot::addRecords(const std::vector<run::MetricsRecord>& records)
{
    using Kind = run::MetricsRecord::Kind;
    for (const auto& record : records) {
        const double x = double(record.iteration);
        if (record.kind == Kind::Train) {
            if (!keepTrainPoint())
                continue;
            if (record.learningRate)
                m_learningRate->addData(x, *record.learningRate);
            if (record.imagesPerSecond)
                m_imagesPerSecond->addData(x, *record.imagesPerSecond);
        } else if (record.kind == Kind::Val) {
            ensureClassGraphs(record.classIoU.size());
            for (std::size_t c = 0; c < record.classIoU.size(); ++c)
                if (std::isfinite(record.classIoU[c]))
                    m_classIoU[int(c)]->addData(x, record.classIoU[c]);
        } else if (record.kind == Kind::System) {
            if (!keepSystemPoint())
                continue;
            ensureGpuGraphs(record.gpus);
            for (std::size_t g = 0; g < record.gpus.size(); ++g) {
                const auto& gpu = record.gpus[g];
                m_gpuUtilization[int(g)]->addData(x, 100.0 * gpu.utilization);
                if (gpu.memoryTotal > 0)
                    m_gpuMemory[int(g)]->addData(x, 100.0 * gpu.memoryUsed / gpu.memoryTotal);
            }
        }
    }
    rescale();
}

bool DetailPlot::keepTrainPoint()
{
    if (m_trainSeen++ % m_trainStride != 0)
        return false;
    if (m_learningRate->dataCount() >= kMaxPoints || m_imagesPerSecond->dataCount() >= kMaxPoints) {
        halve(m_learningRate);
        halve(m_imagesPerSecond);
        m_trainStride *= 2;
    }
    return true;
}

bool DetailPlot::keepSystemPoint()
{
    if (m_systemSeen++ % m_systemStride != 0)
        return false;
    if (!m_gpuUtilization.isEmpty() && m_gpuUtilization.first()->dataCount() >= kMaxPoints) {
        for (QCPGraph* graph : std::as_const(m_gpuUtilization))
            halve(graph);
        for (QCPGraph* graph : std::as_const(m_gpuMemory))
            halve(graph);
        m_systemStride *= 2;
    }
    return true;
}

void DetailPlot::showEvent(QShowEvent* event)
{
    QCustomPlot::showEvent(event);
    m_replot->shown();
}

void DetailPlot::rescale()
{
    for (QCPAxisRect* rect : {m_lrRect, m_speedRect, m_iouRect, m_gpuRect}) {
        bool found = false;
        std::optional<QCPRange> keys;
        for (QCPGraph* graph : rect->graphs()) {
            const QCPRange range = graph->getKeyRange(found);
            if (found)
                keys = keys ? QCPRange(std::min(keys->lower, range.lower), std::max(keys->upper, range.upper)) : range;
        }
        rect->axis(QCPAxis::atBottom)->setRange(keys ? *keys : QCPRange(0, 1));
        if (keys && keys->size() <= 0)
            rect->axis(QCPAxis::atBottom)->setRange(keys->lower - 1, keys->upper + 1);
    }
    for (QCPGraph* graph : {m_learningRate, m_imagesPerSecond}) {
        bool found = false;
        const QCPRange range = graph->getValueRange(found);
        graph->valueAxis()->setRange(0.0, found && range.upper > 0 ? range.upper * 1.1 : 1.0);
    }
    scheduleReplot();
}

void DetailPlot::clearPoints()
{
    for (QCPGraph* graph : std::as_const(m_classIoU))
        graph->removeFromLegend(m_iouLegend);  // the legend would keep pointing at it
    for (int i = graphCount() - 1; i >= 0; --i)
        if (graph(i) != m_learningRate && graph(i) != m_imagesPerSecond)
            removeGraph(i);
    m_learningRate->data()->clear();
    m_imagesPerSecond->data()->clear();
    m_trainSeen = m_systemSeen = 0;
    m_trainStride = m_systemStride = 1;
    m_classIoU.clear();
    m_gpuUtilization.clear();
    m_gpuMemory.clear();
    m_iouLegend->setVisible(false);
    m_noGpu->setVisible(true);
    rescale();
}

void DetailPlot::scheduleReplot()
{
    m_replot->schedule();
}

}  // namespace segstudio::ui::training
