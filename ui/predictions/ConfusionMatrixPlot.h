#pragma once

#include <qcustomplot.h>

#include <string>
#include <vector>

namespace segstudio::metrics {
class EvaluationReport;
}

namespace segstudio::ui::predictions {

// The normalised confusion matrix of an evaluation report as a heat map: rows are the true
// classes (top to bottom), columns the predicted ones, each cell the share of the row's pixels
// (MATLAB's NormalizedConfusionMatrix), class names on both axes, a colour scale beside it. Its
// minimum size holds every class's row and column with their names, so the report around it
// scrolls (the wheel passes through) rather than cut the matrix off.
class ConfusionMatrixPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit ConfusionMatrixPlot(QWidget* parent = nullptr);

    void setReport(const metrics::EvaluationReport& report);
    double cell(int truth, int predicted) const;  // what the map holds, for tests

protected:
    void wheelEvent(QWheelEvent* event) override;

private:
    void fitMinimumSize(const std::vector<std::string>& classNames);

    QCPColorMap* m_map;
    QCPColorScale* m_scale;
};

}  // namespace segstudio::ui::predictions
