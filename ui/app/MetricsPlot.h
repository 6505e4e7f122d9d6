#pragma once

#include "data/RunMetrics.h"

#include <qcustomplot.h>

#include <optional>
#include <vector>

namespace segstudio::ui {

// The live curves of one training run: training loss and accuracy, validation loss, accuracy and
// mean IoU against the iteration. Losses use the left axis, the [0, 1] scores the right one.
// Requirements: GUI thread. addPoints() may be called often: it appends and asks for one queued
//   replot, so a burst of updates is painted once.
class MetricsPlot : public QCustomPlot {
    Q_OBJECT

public:
    enum Series { TrainLoss, TrainAccuracy, ValLoss, ValAccuracy, ValMeanIoU, SeriesCount };

    explicit MetricsPlot(QWidget* parent = nullptr);

    void addPoints(const std::vector<data::MetricsPoint>& points);
    void clearPoints();
    QCPGraph* series(Series which) const { return m_series[which]; }

private:
    void rescaleToData();

    QCPGraph* m_series[SeriesCount] = {};
};

}  // namespace segstudio::ui
