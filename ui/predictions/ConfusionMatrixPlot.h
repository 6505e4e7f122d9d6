#pragma once

#include <qcustomplot.h>

namespace segstudio::metrics {
class EvaluationReport;
}

namespace segstudio::ui::predictions {

// The normalised confusion matrix of an evaluation report as a heat map: rows are the true
// classes (top to bottom), columns the predicted ones, each cell the share of the row's pixels
// (MATLAB's NormalizedConfusionMatrix), class names on both axes, a colour scale beside it.
class ConfusionMatrixPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit ConfusionMatrixPlot(QWidget* parent = nullptr);

    void setReport(const metrics::EvaluationReport& report);
    double cell(int truth, int predicted) const;  // what the map holds, for tests

private:
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
};

}  // namespace segstudio::ui::predictions
