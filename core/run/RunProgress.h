#pragma once

#include "MetricsRecord.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::run {

// What a run's records say about it as a whole: its state, where it is, how far it has to go and
// when it will get there, and its best validation. The GUI's information panel and runs table
// and the CLI read runs through it, so they all agree.
// Requirements: records in file order (add() as they come, or all at once).
// Guarantees: a run written before state records existed gets its state from its progress
//   (training until its last iteration, then finished).
class RunProgress {
public:
    void add(const MetricsRecord& record);
    void add(const std::vector<MetricsRecord>& records);
    void clear() { *this = RunProgress(); }
    // The progress of a whole metrics.jsonl, read in bounded chunks (a summary of a run of a
    // million records costs no more memory than one chunk); no file = an empty progress.
    static RunProgress read(const std::filesystem::path& metricsFile);

    RunState state() const;
    const std::string& reason() const { return m_reason; }  // of the last state record
    bool hasRunInfo() const { return m_haveRunInfo; }
    const RunInfo& runInfo() const { return m_runInfo; }  // of the latest session
    const std::string& started() const { return m_started; }  // when the first session started

    int epoch() const { return m_epoch; }  // the 1-based epoch of the last record
    int epochs() const { return m_runInfo.epochs; }
    // The epochs the session will reach: epochs(), or fewer when an iteration limit
    // (--max-iterations) ends it sooner, so "epoch 4 of N" agrees with "iteration 9 of 9".
    int plannedEpochs() const;
    int epochsDone() const;
    std::int64_t iteration() const { return m_iteration; }
    // The planned end, never behind the position: a budgeted run records only re-plans that move
    // its end by more than 1 %, so it may finish a little past the last one recorded (never
    // "Iteration 10307 of 10264"), or a little short of it.
    std::int64_t totalIterations() const
    {
        if (m_runInfo.totalIterations <= 0)
            return m_runInfo.totalIterations;
        // A finished run's totals are what it did: a budgeted one may end short of its last plan
        // (not "Iteration 15781 of 15840" and 99.6 % beside "Finished").
        return m_state == RunState::Finished ? m_iteration : std::max(m_runInfo.totalIterations, m_iteration);
    }
    double fractionDone() const;  // 0-1
    std::optional<double> learningRate() const { return m_learningRate; }
    double elapsedSeconds() const { return m_elapsed; }
    double timeBudgetSeconds() const { return m_runInfo.timeBudgetSeconds; }  // 0: trains for its epochs
    std::optional<double> bestMeanIoU() const { return m_bestMeanIoU; }
    int bestEpoch() const { return m_bestEpoch; }
    std::optional<double> lastMeanIoU() const { return m_lastMeanIoU; }

    // Seconds to the last iteration at the pace of the current session (validation included);
    // empty until the session has two timed records, and once the run has ended. A time-budgeted
    // run: what is left of its budget.
    std::optional<double> etaSeconds() const;

private:
    void noteTime(const MetricsRecord& record);

    RunInfo m_runInfo;
    bool m_haveRunInfo = false;
    std::string m_started;
    std::optional<RunState> m_state;
    std::string m_reason;
    int m_epoch = 0;
    std::int64_t m_iteration = 0;
    std::optional<double> m_learningRate;
    double m_elapsed = 0.0;
    std::optional<double> m_bestMeanIoU;
    std::optional<double> m_lastMeanIoU;
    int m_bestEpoch = 0;
    // The first and the last timed record of the current session: its pace.
    std::optional<std::pair<std::int64_t, double>> m_sessionFirst;
    std::optional<std::pair<std::int64_t, double>> m_sessionLast;
};

}  // namespace segstudio::run
