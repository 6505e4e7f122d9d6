#include "RunRecorder.h"
#include "engine/runtime/Formatted.h"

#include "Version.h"
#include "run/AppendOnlyFile.h"
#include "run/MetricsWriter.h"
#include "run/RunLayout.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace segstudio::engine {
inline namespace training {

namespace {

std::string utcNow()
{
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return text;
}

}  // namespace

RunRecorder::RunRecorder(bool leader) : m_leader(leader)
{
}

RunRecorder::~RunRecorder() = default;

void RunRecorder::open(const TrainConfig& config, bool resuming, std::int64_t checkpointIteration)
{
    if (!m_leader)
        return;
    const run::RunLayout files(config.runDir);
    saveTrainConfig(config, files.configFile().string());
    m_log = std::make_unique<run::AppendOnlyFile>(files.logFile().string());
    m_metrics = std::make_unique<run::MetricsWriter>(files.metricsFile());
    if (resuming)
        m_metrics->forgetAfter(checkpointIteration);
}

void RunRecorder::say(const std::string& line)
{
    if (!m_leader)
        return;  // one voice: rank 0 speaks for the run
    if (m_progress)
        m_progress(line);  // before the file: the line reaches the user even when the disk is full
    if (m_log)
        m_log->appendLine(line);
}

void RunRecorder::write(const run::MetricsRecord& record)
{
    if (m_metrics)  // only rank 0 opens it
        m_metrics->write(record);
}

void RunRecorder::runStarted(run::RunInfo info, int epoch, std::int64_t iteration)
{
    // What any reader needs for progress and an ETA without guessing, and which SegStudio wrote
    // the run.
    run::MetricsRecord record;
    record.kind = run::MetricsRecord::Kind::Run;
    record.epoch = epoch;
    record.iteration = iteration;
    record.run = std::move(info);
    record.run.segstudioVersion = SEGSTUDIO_VERSION;
    record.run.resumedAtEpoch = epoch;
    record.run.started = utcNow();
    write(record);
}

void RunRecorder::stateChanged(run::RunState state, int epoch, std::int64_t iteration, const std::string& reason)
{
    write(run::MetricsRecord::stateChange(state, epoch, iteration, reason));
}

void RunRecorder::failed(const std::string& reason, int epoch, std::int64_t iteration) noexcept
{
    // The failure may be the metrics file itself (a full disk): then the exit code and stderr
    // tell it, and the file keeps its last state.
    try {
        stateChanged(run::RunState::Failed, epoch, iteration, reason);
    } catch (const std::exception&) {
    }
}

void RunRecorder::trained(const TrainFigures& figures)
{
    auto record = run::MetricsRecord::train(figures.epoch, figures.iteration);
    record.loss = figures.loss;
    record.accuracy = figures.accuracy;
    record.learningRate = figures.learningRate;
    record.imagesPerSecond = figures.imagesPerSecond;
    record.elapsedSeconds = figures.elapsedSeconds;
    write(record);
    if (!figures.gpus.empty()) {
        run::MetricsRecord system;
        system.kind = run::MetricsRecord::Kind::System;
        system.epoch = figures.epoch;
        system.iteration = figures.iteration;
        system.elapsedSeconds = figures.elapsedSeconds;
        system.gpus = figures.gpus;
        write(system);
    }
    say(formatted("train  epoch %.0f iter %.0f: loss %.4f  acc %.4f  lr %.2e", figures.epoch, double(figures.iteration),
               figures.loss, figures.accuracy, figures.learningRate) +
        formatted("  %.1f img/s", figures.imagesPerSecond));
}

void RunRecorder::validated(int epoch, std::int64_t iteration, const SegmentationMetrics& metrics,
                            double elapsedSeconds)
{
    auto record = run::MetricsRecord::val(epoch, iteration);
    record.loss = metrics.loss;
    record.accuracy = metrics.globalAccuracy;
    record.meanAccuracy = metrics.meanClassAccuracy;
    record.meanIoU = metrics.meanIoU;
    record.weightedIoU = metrics.weightedIoU;
    record.classIoU = metrics.classIoU;
    record.elapsedSeconds = elapsedSeconds;
    write(record);
    say(formatted("val    epoch %.0f iter %.0f: loss %.4f  global acc %.4f  mIoU %.4f", epoch, double(iteration),
               metrics.loss, metrics.globalAccuracy, metrics.meanIoU) +
        formatted("  mean acc %.4f  weighted IoU %.4f", metrics.meanClassAccuracy, metrics.weightedIoU));
}

void RunRecorder::planned(int epoch, std::int64_t iteration, std::int64_t totalIterations, int epochs,
                          double budgetSeconds, const std::string& note)
{
    write(run::MetricsRecord::plan(epoch, iteration, totalIterations, epochs, budgetSeconds, note));
}

}  // namespace training
}  // namespace segstudio::engine
