#include "RunInfoPanel.h"

#include <QFormLayout>
#include <QLabel>
#include <QProgressBar>

#include <cmath>

namespace segstudio::ui::training {

RunInfoPanel::RunInfoPanel(QWidget* parent) : QWidget(parent), m_progress(new QProgressBar(this))
{
    auto* layout = new QFormLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setLabelAlignment(Qt::AlignRight);
    m_state = new QLabel(this);
    layout->addRow(tr("State:"), m_state);
    m_reason = new QLabel(this);
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addRow(m_reason);
    m_epoch = addRow(tr("Epoch:"));
    m_iteration = addRow(tr("Iteration:"));
    m_learningRate = addRow(tr("Learning rate:"));
    m_devices = addRow(tr("Devices:"));
    m_elapsed = addRow(tr("Elapsed:"));
    m_eta = addRow(tr("Remaining:"));
    m_best = addRow(tr("Best val mIoU:"));
    layout->addRow(m_progress);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    clear();
}

QLabel* RunInfoPanel::addRow(const QString& name)
{
    auto* value = new QLabel(this);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    static_cast<QFormLayout*>(layout())->addRow(name, value);
    return value;
}

QString RunInfoPanel::duration(double seconds)
{
    const auto total = qint64(std::llround(std::max(0.0, seconds)));
    const qint64 hours = total / 3600, minutes = total % 3600 / 60, rest = total % 60;
    if (hours > 0)
        return tr("%1 h %2 min").arg(hours).arg(minutes, 2, 10, QLatin1Char('0'));
    if (minutes > 0)
        return tr("%1 min %2 s").arg(minutes).arg(rest, 2, 10, QLatin1Char('0'));
    return tr("%1 s").arg(rest);
}

void RunInfoPanel::clear()
{
    for (QLabel* label : {m_state, m_epoch, m_iteration, m_learningRate, m_devices, m_elapsed, m_eta, m_best})
        label->setText(QStringLiteral("–"));
    m_reason->clear();
    m_reason->hide();
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%p%"));
}

void RunInfoPanel::showProgress(const run::RunProgress& progress)
{
    const auto& info = progress.runInfo();
    const run::RunState state = progress.state();
    QString stateText = QString::fromLatin1(run::toString(state));
    stateText[0] = stateText[0].toUpper();
    m_state->setText(stateText);
    m_reason->setText(QString::fromStdString(progress.reason()));
    m_reason->setVisible(state == run::RunState::Failed || state == run::RunState::Stopped);
    const int epochs = progress.plannedEpochs();
    m_epoch->setText(epochs > 0 ? tr("%1 of %2").arg(std::clamp(progress.epoch(), 1, epochs)).arg(epochs)
                                : QString::number(progress.epoch()));
    m_iteration->setText(info.totalIterations > 0 ? tr("%1 of %2").arg(progress.iteration()).arg(info.totalIterations)
                                                  : QString::number(progress.iteration()));
    m_learningRate->setText(progress.learningRate() ? QString::number(*progress.learningRate(), 'e', 2) : QStringLiteral("–"));
    const QString device = QString::fromStdString(info.device);
    m_devices->setText(info.worldSize > 1 ? tr("%1 × %2 ranks").arg(device).arg(info.worldSize)
                       : device.isEmpty() ? QStringLiteral("–")
                                          : device);
    m_elapsed->setText(duration(progress.elapsedSeconds()));
    const auto eta = progress.etaSeconds();
    m_eta->setText(eta                                    ? duration(*eta)
                   : state == run::RunState::Finished ? tr("done")
                                                          : QStringLiteral("–"));
    m_best->setText(progress.bestMeanIoU() ? tr("%1 (epoch %2)").arg(*progress.bestMeanIoU(), 0, 'f', 3).arg(progress.bestEpoch())
                                           : QStringLiteral("–"));
    m_progress->setValue(int(std::lround(progress.fractionDone() * 1000)));
    m_progress->setFormat(QStringLiteral("%1%").arg(progress.fractionDone() * 100, 0, 'f', 1));
}

void RunInfoPanel::showOutcome(const QString& state, const QString& reason)
{
    m_state->setText(state);
    m_reason->setText(reason);
    m_reason->setVisible(!reason.isEmpty());
}

QString RunInfoPanel::stateText() const { return m_state->text(); }
QString RunInfoPanel::etaText() const { return m_eta->text(); }
QString RunInfoPanel::bestText() const { return m_best->text(); }
int RunInfoPanel::progressPercent() const { return m_progress->value() / 10; }

}  // namespace segstudio::ui::training
