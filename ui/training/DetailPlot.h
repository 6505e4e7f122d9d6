#pragma once

#include "run/MetricsRecord.h"

#include <qcustomplot.h>

#include <vector>

namespace segstudio::ui::training {

class CoalescedReplot;

// The run's other curves, against the iteration: learning rate, training images/s, validation
// IoU per class (named from the checkpoint's classes when known), and GPU utilisation and memory
// per device when the trainer logged them (CUDA with NVML; otherwise the plot says so).
// Requirements: GUI thread. Repaints are coalesced as MetricsPlot's, and skipped while hidden.
// Guarantees: memory is bounded as MetricsPlot's: past kMaxPoints per curve every other point.
class DetailPlot : public QCustomPlot {
    Q_OBJECT

public:
    static constexpr int kMaxPoints = 100000;

    explicit DetailPlot(QWidget* parent = nullptr);

    void addRecords(const std::vector<run::MetricsRecord>& records);
    void clearPoints();
    // names: the run's own classes; projectNames: the open project's, used when the run's are
    // unknown and its per-class IoU has exactly as many classes.
    void setClassNames(const QStringList& names, const QStringList& projectNames = {});

    QCPGraph* learningRate() const { return m_learningRate; }
    QCPGraph* imagesPerSecond() const { return m_imagesPerSecond; }
    QList<QCPGraph*> classIoU() const { return m_classIoU; }
    QList<QCPGraph*> gpuUtilization() const { return m_gpuUtilization; }
    bool hasGpuData() const { return !m_gpuUtilization.isEmpty(); }

protected:
    void showEvent(QShowEvent* event) override;

private:
    QCPAxisRect* addRect(int row, int column, const QString& title, const QString& valueLabel);
    QCPGraph* graphIn(QCPAxisRect* rect, const QColor& colour, const QString& name, QCPAxis* valueAxis = nullptr);
    void ensureClassGraphs(std::size_t count);
    void nameClassGraphs();
    QString classNameOf(int c) const;
    void ensureGpuGraphs(const std::vector<run::GpuSample>& gpus);
    void rescale();
    void scheduleReplot();
    bool keepTrainPoint();  // bounded memory: past kMaxPoints, every other point
    bool keepSystemPoint();

    QCPAxisRect* m_lrRect;
    QCPAxisRect* m_speedRect;
    QCPAxisRect* m_iouRect;
    QCPAxisRect* m_gpuRect;
    QCPGraph* m_learningRate;
    QCPGraph* m_imagesPerSecond;
    QList<QCPGraph*> m_classIoU;
    QList<QCPGraph*> m_gpuUtilization;
    QList<QCPGraph*> m_gpuMemory;
    QCPLegend* m_iouLegend;
    QCPItemText* m_noGpu;
    QStringList m_classNames;
    QStringList m_projectClassNames;
    CoalescedReplot* m_replot;
    std::size_t m_trainSeen = 0, m_trainStride = 1;
    std::size_t m_systemSeen = 0, m_systemStride = 1;
};

}  // namespace segstudio::ui::training
