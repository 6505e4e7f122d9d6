#include "TrainingMonitor.h"

#include "DetailPlot.h"
#include "MetricsPlot.h"

#include "run/AtomicFile.h"
#include "run/FileError.h"
#include "run/MetricsCsv.h"
#include "run/MetricsReader.h"
#include "run/RunLayout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace segstudio::ui::training {

namespace {
constexpr int kSliderSteps = 100;  // smoothing 0.00-0.99
}

TrainingMonitor::TrainingMonitor(QWidget* parent)
    : QWidget(parent), m_smoothing(new QSlider(Qt::Horizontal, this)), m_smoothingValue(new QLabel(this)),
      m_logScale(new QCheckBox(tr("&Log loss"), this)), m_xAxis(new QComboBox(this)), m_export(new QToolButton(this)),
      m_tabs(new QTabWidget(this)), m_plot(new MetricsPlot(this)), m_details(new DetailPlot(this))
{
    m_plot->setObjectName(QStringLiteral("metricsPlot"));
    m_details->setObjectName(QStringLiteral("detailPlot"));
    m_smoothing->setObjectName(QStringLiteral("smoothing"));
    m_xAxis->setObjectName(QStringLiteral("xAxis"));
    m_smoothing->setRange(0, kSliderSteps - 1);
    m_smoothing->setValue(int(std::lround(m_plot->smoothing() * kSliderSteps)));
    m_smoothing->setMaximumWidth(140);
    m_smoothing->setToolTip(tr("Smoothing of the training curves (TensorBoard's debiased moving average); "
                               "the raw values stay visible, faint"));
    m_smoothingValue->setText(QString::number(m_plot->smoothing(), 'f', 2));
    m_xAxis->addItem(tr("Iteration"), int(MetricsPlot::XAxis::Iteration));
    m_xAxis->addItem(tr("Epoch"), int(MetricsPlot::XAxis::Epoch));
    m_xAxis->addItem(tr("Training time"), int(MetricsPlot::XAxis::WallTime));
    m_logScale->setToolTip(tr("Logarithmic loss axis"));
    auto* reset = new QPushButton(tr("&Reset view"), this);
    reset->setToolTip(tr("Show all the data and follow new points again (or double-click the plot). "
                         "Drag to pan, wheel to zoom"));
    m_export->setText(tr("&Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    menu->addAction(tr("Plot as PNG…"), this, [this] { exportInteractively(QStringLiteral("png")); });
    menu->addAction(tr("Plot as PDF…"), this, [this] { exportInteractively(QStringLiteral("pdf")); });
    menu->addAction(tr("Metrics as CSV…"), this, [this] { exportInteractively(QStringLiteral("csv")); });
    m_export->setMenu(menu);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Smoothing:"), this));
    controls->addWidget(m_smoothing);
    controls->addWidget(m_smoothingValue);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("x:"), this));
    controls->addWidget(m_xAxis);
    controls->addWidget(m_logScale);
    controls->addStretch(1);
    controls->addWidget(reset);
    controls->addWidget(m_export);

    m_tabs->addTab(m_plot, tr("Accuracy && loss"));
    m_tabs->addTab(m_details, tr("Details"));
    m_tabs->setDocumentMode(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_tabs, 1);

    connect(m_smoothing, &QSlider::valueChanged, this, [this](int value) {
        const double weight = double(value) / kSliderSteps;
        m_smoothingValue->setText(QString::number(weight, 'f', 2));
        m_plot->setSmoothing(weight);
    });
    connect(m_logScale, &QCheckBox::toggled, m_plot, &MetricsPlot::setLogScale);
    connect(m_xAxis, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] { m_plot->setXAxis(MetricsPlot::XAxis(m_xAxis->currentData().toInt())); });
    connect(reset, &QPushButton::clicked, m_plot, &MetricsPlot::resetView);
    connect(m_plot, &MetricsPlot::hovered, this, &TrainingMonitor::statusMessage);
}

void TrainingMonitor::addRecords(const std::vector<run::MetricsRecord>& records)
{
    m_plot->addRecords(records);
    m_details->addRecords(records);
}

void TrainingMonitor::clear()
{
    m_plot->clearPoints();
    m_details->clearPoints();
}

void TrainingMonitor::setRunDirectory(const QString& dir) { m_runDir = dir; }

void TrainingMonitor::setClassNames(const QStringList& names, const QStringList& projectNames)
{
    m_details->setClassNames(names, projectNames);
}

bool TrainingMonitor::exportImage(const QString& file)
{
    auto* plot = qobject_cast<QCustomPlot*>(m_tabs->currentWidget());
    const int width = std::max(plot->width(), 800), height = std::max(plot->height(), 500);
    const bool pdf = QFileInfo(file).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0;
    const bool saved = pdf ? plot->savePdf(file, width, height) : plot->savePng(file, width, height);
    m_message = saved ? tr("Saved %1").arg(file) : tr("Cannot write %1").arg(file);
    return saved;
}

bool TrainingMonitor::exportCsv(const QString& file)
{
    if (m_runDir.isEmpty()) {
        m_message = tr("No run to export");
        return false;
    }
    try {
        const auto metrics = run::RunLayout(m_runDir.toStdString()).metricsFile();
        std::vector<std::string> names;
        for (const auto& graph : m_details->classIoU())
            names.push_back(graph->name().toStdString());
        run::writeFileAtomically(file.toStdString(), run::metricsCsv(run::MetricsReader::readAll(metrics), names));
    } catch (const run::FileError& error) {
        m_message = QString::fromStdString(error.what());
        return false;
    }
    m_message = tr("Saved %1").arg(file);
    return true;
}

void TrainingMonitor::exportInteractively(const QString& format)
{
    const QString base = QFileInfo(m_runDir).fileName().isEmpty() ? QStringLiteral("training") : QFileInfo(m_runDir).fileName();
    const QString file = QFileDialog::getSaveFileName(this, tr("Export"), base + QLatin1Char('.') + format,
                                                      format.toUpper() + QStringLiteral(" (*.") + format + QLatin1Char(')'));
    if (file.isEmpty())
        return;
    if (format == QLatin1String("csv"))
        exportCsv(file);
    else
        exportImage(file);
    emit statusMessage(m_message);
}

}  // namespace segstudio::ui::training
