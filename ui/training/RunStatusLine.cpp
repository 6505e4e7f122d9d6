#include "RunStatusLine.h"

#include "TrainingDock.h"
#include "run/RunProgress.h"
#include "run/RunState.h"

#include <QFileInfo>
#include <QMouseEvent>

#include <cmath>

namespace segstudio::ui::training {

namespace {

QString timeLeft(double seconds)
{
    if (seconds < 90)
        return RunStatusLine::tr("%1 s left").arg(int(std::lround(seconds)));
    if (seconds < 90 * 60)
        return RunStatusLine::tr("%1 min left").arg(int(std::lround(seconds / 60)));
    return RunStatusLine::tr("%1 h %2 min left").arg(int(seconds / 3600)).arg(int(std::lround(std::fmod(seconds, 3600) / 60)));
}

QString stateText(run::RunState state)
{
    switch (state) {
    case run::RunState::Finished:
        return RunStatusLine::tr("finished");
    case run::RunState::Stopped:
        return RunStatusLine::tr("stopped");
    case run::RunState::Failed:
        return RunStatusLine::tr("failed");
    default:
        return RunStatusLine::tr("training");
    }
}

}  // namespace

RunStatusLine::RunStatusLine(TrainingDock* training, QWidget* parent) : QLabel(parent), m_training(training)
{
    setObjectName(QStringLiteral("runStatusLine"));
    setToolTip(tr("The run shown in the Train workspace; click to go there (Ctrl+2)"));
    setCursor(Qt::PointingHandCursor);
    connect(training, &TrainingDock::progressChanged, this, &RunStatusLine::refresh);
    connect(training, &TrainingDock::liveFineTuneStatusChanged, this, &RunStatusLine::refresh);
    refresh();
}

QString RunStatusLine::describe(const QString& runName, const run::RunProgress& progress)
{
    if (runName.isEmpty() || !progress.hasRunInfo())
        return {};
    QStringList parts{runName};
    const run::RunState state = progress.state();
    if (run::isEnded(state))
        parts << stateText(state);
    else
        parts << tr("training %1 %").arg(int(std::lround(100.0 * progress.fractionDone())));
    if (const auto best = progress.bestMeanIoU())
        parts << tr("val mIoU %1").arg(*best, 0, 'f', 3);
    if (!run::isEnded(state))
        if (const auto eta = progress.etaSeconds())
            parts << timeLeft(*eta);
    return parts.join(QStringLiteral(" · "));
}

void RunStatusLine::refresh()
{
    const QString run = QFileInfo(m_training->currentRunDirectory()).fileName();
    QStringList parts{describe(run, m_training->progress()), m_training->liveFineTuneActivity()};
    parts.removeAll(QString());
    const QString text = parts.join(QStringLiteral(" · "));
    setText(text);
    setVisible(!text.isEmpty());
}

void RunStatusLine::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        emit clicked();
    QLabel::mouseReleaseEvent(event);
}

}  // namespace segstudio::ui::training
