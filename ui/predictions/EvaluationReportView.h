#pragma once

#include "metrics/EvaluationReport.h"

#include <QList>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTableWidget;

namespace segstudio::ui::predictions {

class ConfusionMatrixPlot;

// MATLAB's evaluateSemanticSegmentation report on screen: the data set's metrics (global
// accuracy, mean accuracy, mean IoU, weighted IoU, mean BF score), a per-class table (accuracy,
// IoU, mean BF score) and the normalised confusion matrix; exported as CSV (the CLI's files),
// PNG or PDF (this view as drawn). The report scrolls inside the view, and the matrix goes below
// the table when the two do not fit side by side, so a narrow dock cuts nothing off at the right.
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
    // Horizontal: table and matrix side by side; vertical: the matrix below the table.
    Qt::Orientation arrangement() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void askAndExport(const QString& kind);
    void arrangeForWidth();

    std::optional<metrics::EvaluationReport> m_report;
    QLabel* m_summary;
    QTableWidget* m_classes;
    ConfusionMatrixPlot* m_confusion;
    QSplitter* m_splitter;
    QScrollArea* m_scroll;
    QLabel* m_empty;  // before any report: what to do, instead of an empty dark matrix
    QList<QPushButton*> m_exportButtons;
    QString m_error;
};

}  // namespace segstudio::ui::predictions
