#include "RunProgress.h"

#include "MetricsReader.h"

#include <algorithm>

namespace segstudio::run {

RunProgress RunProgress::read(const std::filesystem::path& metricsFile)
{
    RunProgress progress;
    MetricsReader reader(metricsFile);
    do
        progress.add(reader.poll());
    while (!reader.atEnd());
    return progress;
}

void RunProgress::add(const std::vector<MetricsRecord>& records)
{
    for (const auto& record : records)
        add(record);
}

void RunProgress::add(const MetricsRecord& record)
{
    switch (record.kind) {
    case MetricsRecord::Kind::Run:
        m_runInfo = record.run;
        if (!m_haveRunInfo)
            m_started = record.run.started;
        m_haveRunInfo = true;
        m_sessionFirst.reset();  // a resumed session has its own pace
        m_sessionLast.reset();
        if (m_state)  // a resume after a stop: starting again (runs without state records infer it)
            m_state = RunState::Starting;
        m_reason.clear();
        m_iteration = record.iteration;
        break;
    case MetricsRecord::Kind::State:
        m_state = record.state;
        m_reason = record.reason;
        break;
    case MetricsRecord::Kind::Train:
        if (record.learningRate)
            m_learningRate = record.learningRate;
        if (m_state == RunState::Starting || m_state == RunState::Validating)
            m_state = RunState::Training;  // a state record may be late; a training step is not
        break;
    case MetricsRecord::Kind::Val:
        m_lastMeanIoU = record.meanIoU;
        if (record.meanIoU && (!m_bestMeanIoU || *record.meanIoU > *m_bestMeanIoU)) {
            m_bestMeanIoU = record.meanIoU;
            m_bestEpoch = record.epoch;
        }
        break;
    case MetricsRecord::Kind::System:
        break;
    case MetricsRecord::Kind::Plan:  // a budgeted run's end moved: progress and ETA follow it
        m_runInfo.totalIterations = record.run.totalIterations;
        m_runInfo.epochs = record.run.epochs;
        m_runInfo.timeBudgetSeconds = record.run.timeBudgetSeconds;
        break;
    }
    if (record.kind != MetricsRecord::Kind::Run && record.epoch > 0)
        m_epoch = record.epoch;
    // A state record carries the position too: a run stopped at iteration 13 between two log
    // lines (every 10) says "Iteration 13", as its stop reason does (issue 47.14).
    if (record.kind == MetricsRecord::Kind::Train || record.kind == MetricsRecord::Kind::Val ||
        record.kind == MetricsRecord::Kind::State)
        m_iteration = std::max(m_iteration, record.iteration);
    noteTime(record);
}

void RunProgress::noteTime(const MetricsRecord& record)
{
    if (!record.elapsedSeconds)
        return;
    m_elapsed = std::max(m_elapsed, *record.elapsedSeconds);
    if (record.kind != MetricsRecord::Kind::Train && record.kind != MetricsRecord::Kind::Val)
        return;
    const std::pair<std::int64_t, double> point{record.iteration, *record.elapsedSeconds};
    if (!m_sessionFirst)
        m_sessionFirst = point;
    m_sessionLast = point;
}

RunState RunProgress::state() const
{
    if (m_state)
        return *m_state;
    // No state records: a run of an older SegStudio, or one whose first record is still coming.
    if (totalIterations() > 0 && m_iteration >= totalIterations())
        return RunState::Finished;
    return m_iteration > 0 ? RunState::Training : RunState::Starting;
}

int RunProgress::epochsDone() const
{
    if (m_runInfo.iterationsPerEpoch <= 0)
        return 0;
    return int(std::min<std::int64_t>(m_iteration / m_runInfo.iterationsPerEpoch, m_runInfo.epochs));
}

int RunProgress::plannedEpochs() const
{
    const std::int64_t perEpoch = m_runInfo.iterationsPerEpoch;
    if (perEpoch <= 0 || totalIterations() <= 0)
        return m_runInfo.epochs;
    const auto reached = int((totalIterations() + perEpoch - 1) / perEpoch);
    return std::min(m_runInfo.epochs, reached);
}

double RunProgress::fractionDone() const
{
    if (totalIterations() <= 0)
        return 0.0;
    return std::clamp(double(m_iteration) / double(totalIterations()), 0.0, 1.0);
}

std::optional<double> RunProgress::etaSeconds() const
{
    if (isEnded(state()))
        return std::nullopt;
    // A budgeted run plans to end when its training time reaches the budget.
    if (m_runInfo.timeBudgetSeconds > 0)
        return std::max(0.0, m_runInfo.timeBudgetSeconds - m_elapsed);
    if (!m_sessionFirst || !m_sessionLast || totalIterations() <= 0)
        return std::nullopt;
    const double steps = double(m_sessionLast->first - m_sessionFirst->first);
    const double seconds = m_sessionLast->second - m_sessionFirst->second;
    if (steps <= 0 || seconds <= 0)
        return std::nullopt;
    const double left = double(std::max<std::int64_t>(0, totalIterations() - m_iteration));
    return left * seconds / steps;
}

}  // namespace segstudio::run
