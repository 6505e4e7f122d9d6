#pragma once

#include "metrics/EvaluationReport.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTableWidget;

namespace segstudio::ui {

class ConfusionMatrixPlot;

// MATLAB's evaluateSemanticSegmentation report on screen: the data set's metrics (global
// accuracy, mean accuracy, mean IoU, weighted IoU, mean BF score), a per-class table (accuracy,
// IoU, mean BF score) and the normalised confusion matrix; exported as CSV (the CLI's files),
// PNG or PDF (this view as drawn).
class EvaluationReportView : public QWidget {
    Q_OBJECT

public:
    explicit EvaluationReportView(QWidget* parent = nullptr);

    void setReport(const metrics::EvaluationReport& report);
    const std::optional<metrics::EvaluationReport>& report() const { return m_report; }

    // false + the reason in errorText() when the files cannot be written.
    bool exportCsv(const QString& dir);
    bool exportImage(const QString& file);  // .pdf as PDF, anything else as PNG
    QString errorText() const { return m_error; }

    QLabel* summary() const { return m_summary; }
    QTableWidget* classTable() const { return m_classes; }
    ConfusionMatrixPlot* confusionPlot() const { return m_confusion; }

private:
    void askAndExport(const QString& kind);

    std::optional<metrics::EvaluationReport> m_report;
    QLabel* m_summary;
    QTableWidget* m_classes;
    ConfusionMatrixPlot* m_confusion;
    QString m_error;
};

}  // namespace segstudio::ui
