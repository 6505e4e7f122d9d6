#pragma once

#include "run/MetricsRecord.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QTabWidget;
class QToolButton;

namespace segstudio::ui::training {

class DetailPlot;
class MetricsPlot;

// The plots of one run with their controls: smoothing (a slider), log-scale loss, the x axis
// (iteration, epoch, training time), reset view, and export of the plots (PNG, PDF) and of the
// metrics (CSV). The progress plot (accuracy and loss) and the details (learning rate, speed,
// IoU per class, GPU) are two tabs.
// Requirements: GUI thread.
class TrainingMonitor : public QWidget {
    Q_OBJECT

public:
    explicit TrainingMonitor(QWidget* parent = nullptr);

    void addRecords(const std::vector<run::MetricsRecord>& records);
    void clear();
    void setRunDirectory(const QString& dir);  // for the CSV export and the class names
    void setClassNames(const QStringList& names, const QStringList& projectNames = {});

    MetricsPlot* plot() const { return m_plot; }
    DetailPlot* details() const { return m_details; }
    QSlider* smoothingSlider() const { return m_smoothing; }
    QComboBox* xAxisChoice() const { return m_xAxis; }

    // Exports without asking (the Export menu asks for the file first). PNG and PDF draw the tab
    // in view. False with message() on failure.
    bool exportImage(const QString& file);
    bool exportCsv(const QString& file);
    QString message() const { return m_message; }

signals:
    void statusMessage(const QString& text);

private:
    void exportInteractively(const QString& format);

    QSlider* m_smoothing;
    QLabel* m_smoothingValue;
    QCheckBox* m_logScale;
    QComboBox* m_xAxis;
    QToolButton* m_export;
    QTabWidget* m_tabs;
    MetricsPlot* m_plot;
    DetailPlot* m_details;
    QString m_runDir;
    QString m_message;
};

}  // namespace segstudio::ui::training
