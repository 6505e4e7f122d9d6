#pragma once

#include "run/DebiasedEma.h"
#include "run/MetricsRecord.h"

#include <qcustomplot.h>

#include <array>
#include <filesystem>
#include <vector>

namespace segstudio::ui::training {

class CoalescedReplot;

// The live curves of one training run, as MATLAB's training-progress window draws them: accuracy
// on top, loss below, against a shared x axis, epoch boundaries marked (top axis and grid).
// Training curves twice: raw (faint) and smoothed (bold; TensorBoard's debiased EMA); validation
// as points joined by lines. A curve of one point (a run's first minute) is drawn as a dot, since
// a line needs two, and alone on the x axis it is centred, not hidden under the axis. Drag to pan, wheel to zoom (over an axis: that axis only); double
// click or resetView() to follow the data again. Hovering reads the nearest point (hovered()).
// Requirements: GUI thread.
// Guarantees: addRecords() appends at once but repaints at most ~30 times per second, however
//   often it is called. Memory is bounded: past kMaxTrainSamples a training curve keeps every
//   other point (the smoothed curve is still computed from every point).
class MetricsPlot : public QCustomPlot {
    Q_OBJECT

public:
    enum Series { TrainLoss, TrainLossSmoothed, TrainAccuracy, TrainAccuracySmoothed, ValLoss, ValAccuracy, ValMeanIoU,
                  SeriesCount };
    enum class XAxis { Iteration, Epoch, WallTime };
    static constexpr std::size_t kMaxTrainSamples = 200000;

    explicit MetricsPlot(QWidget* parent = nullptr);

    void addRecords(const std::vector<run::MetricsRecord>& records);
    void clearPoints();

    // Other runs overlaid for comparison: each its smoothed training loss and its validation
    // mIoU, in a colour of its own and named in the legend; the same smoothing and x axis apply.
    struct ComparedPoint {
        double iteration = 0;
        double seconds = 0;
        double value = 0;
    };
    struct ComparedRun {
        QString name;
        std::int64_t iterationsPerEpoch = 0;
        std::vector<ComparedPoint> losses;  // training loss, raw
        std::vector<ComparedPoint> meanIoU;
    };
    // Any thread: what the overlay needs of a run's metrics.jsonl, read in bounded chunks.
    static ComparedRun readComparedRun(const QString& name, const std::filesystem::path& metricsFile);
    void setComparison(std::vector<ComparedRun> runs);
    int comparedGraphCount() const { return int(m_comparedGraphs.size()); }
    QCPGraph* series(Series which) const { return m_graphs[which]; }
    QCPAxisRect* accuracyRect() const { return m_accuracyRect; }
    QCPAxisRect* lossRect() const { return m_lossRect; }

    void setSmoothing(double weight);  // 0 = none, towards 1 = smoother
    double smoothing() const { return m_smoothing; }
    void setLogScale(bool on);         // the loss axis
    bool logScale() const { return m_logScale; }
    void setXAxis(XAxis axis);
    XAxis xAxisKind() const { return m_xAxis; }
    void resetView();
    bool followsData() const { return m_follow; }
    // The text hovering at pos shows ("train loss 0.52 at iteration 1200, epoch 3"); empty far
    // from every point.
    QString describePointAt(const QPointF& pos) const;

signals:
    void hovered(const QString& text);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Sample {
        double iteration = 0;
        double seconds = 0;
        double value = 0;
    };
    struct Curve {
        std::vector<Sample> samples;
        std::size_t seen = 0;  // every point offered, kept or not
        std::size_t stride = 1;
    };
    void buildAxes();
    void addGraphs();
    void append(Series which, const Sample& sample);
    void appendTrain(Series raw, Series smoothed, run::DebiasedEma& ema, const Sample& sample);
    void rebuildGraph(Series which);
    void markLonePoint(Series which);
    void recomputeSmoothed();
    double xOf(const Sample& sample) const;
    void updateEpochTicks();
    void rescaleToData();
    void scheduleReplot();
    void rebuildComparison();
    double xOfPoint(const ComparedPoint& point, std::int64_t iterationsPerEpoch) const;

    QCPAxisRect* m_accuracyRect = nullptr;
    QCPAxisRect* m_lossRect = nullptr;
    std::array<QCPGraph*, SeriesCount> m_graphs{};
    std::array<Curve, SeriesCount> m_curves;
    double m_smoothing = 0.6;  // before the averages it sets up
    run::DebiasedEma m_lossEma;
    run::DebiasedEma m_accuracyEma;
    bool m_logScale = false;
    XAxis m_xAxis = XAxis::Iteration;
    std::int64_t m_iterationsPerEpoch = 0;
    bool m_follow = true;
    CoalescedReplot* m_replot;
    std::vector<ComparedRun> m_compared;
    std::vector<QCPGraph*> m_comparedGraphs;
};

}  // namespace segstudio::ui::training
