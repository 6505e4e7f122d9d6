#pragma once

#include "engine/inference/SegmentationMetrics.h"
#include "TrainConfig.h"

#include "run/MetricsRecord.h"
#include "run/RunState.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace segstudio::run {
class AppendOnlyFile;
class MetricsWriter;
}  // namespace segstudio::run

namespace segstudio::engine {
inline namespace training {

// Rank 0's records of a run and its voice: config.json, log.txt and metrics.jsonl in the run
// folder (docs/ENGINE.md, "Run directory"), and the progress lines. It takes plain values from
// the trainer (epoch, iteration, figures) and knows nothing of the training itself.
// Requirements: one thread; open() before the first record: until then records are dropped (a
// trainer may fail before its run folder was accepted) and say() reaches the progress function
// only.
// Guarantees: a non-leader (a rank other than 0) writes and says nothing; say() hands a line to the
// progress function before the log file, so it reaches the user even when the disk is full; a
// failed write throws run::FileError naming the file, except in failed(), which swallows it.
// Records land in metrics.jsonl in the order they were made, each whole when its call returns.
class RunRecorder {
public:
    using ProgressFunction = std::function<void(const std::string& line)>;
    // A training line's figures: means over the logging window and over the ranks.
    struct TrainFigures {
        int epoch = 1;  // 1-based, as recorded
        std::int64_t iteration = 0;
        double loss = 0.0;
        double accuracy = 0.0;
        double learningRate = 0.0;
        double imagesPerSecond = 0.0;
        double elapsedSeconds = 0.0;
        std::vector<run::GpuSample> gpus;  // a system record after the train record when not empty
    };

    explicit RunRecorder(bool leader);
    ~RunRecorder();

    bool leader() const { return m_leader; }
    void setProgress(ProgressFunction progress) { m_progress = std::move(progress); }

    // Writes config.json and opens log.txt and metrics.jsonl for appending; a resumed run first
    // drops the metrics of iterations after its checkpoint's (they come again).
    void open(const TrainConfig& config, bool resuming, std::int64_t checkpointIteration);
    void say(const std::string& line);

    // The first record of every session; info's version, start time and resumedAtEpoch are set here.
    void runStarted(run::RunInfo info, int epoch, std::int64_t iteration);
    void stateChanged(run::RunState state, int epoch, std::int64_t iteration, const std::string& reason = {});
    // The state "failed", when it can still be written (the failure may be the metrics file).
    void failed(const std::string& reason, int epoch, std::int64_t iteration) noexcept;
    // The train record (and the GPUs' system record), then its line.
    void trained(const TrainFigures& figures);
    // The val record, then its line.
    void validated(int epoch, std::int64_t iteration, const SegmentationMetrics& metrics, double elapsedSeconds);
    void planned(int epoch, std::int64_t iteration, std::int64_t totalIterations, int epochs, double budgetSeconds,
                 const std::string& note);

private:
    void write(const run::MetricsRecord& record);

    bool m_leader;
    ProgressFunction m_progress;
    std::unique_ptr<run::AppendOnlyFile> m_log;
    std::unique_ptr<run::MetricsWriter> m_metrics;
};

}  // namespace training
}  // namespace segstudio::engine
