#pragma once

#include "RunState.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::run {

// What a "run" record says: written first by every session of a run (a new run or a resume), so
// a reader knows the totals for progress and an ETA without guessing.
struct RunInfo {
    std::string segstudioVersion;
    std::string model;
    std::string device;  // "cpu", "cuda:0", ...
    int worldSize = 1;   // data-parallel ranks
    int batch = 0;       // images per rank and step
    int epochs = 0;
    std::int64_t iterationsPerEpoch = 0;
    std::int64_t totalIterations = 0;
    int resumedAtEpoch = 1;  // 1 for a new run
    std::string started;     // ISO 8601, UTC
    double timeBudgetSeconds = 0.0;  // training time the run may take; 0 = it trains for its epochs
};

// One GPU's load at a moment, as NVML reports it.
struct GpuSample {
    int index = 0;             // CUDA device index
    double utilization = 0.0;  // 0-1, the share of time a kernel ran
    double memoryUsed = 0.0;   // bytes
    double memoryTotal = 0.0;  // bytes
};

// One line of metrics.jsonl (docs/ENGINE.md). Each kind fills its own fields; a value written as
// null (NaN) or left out is empty. iteration is the number of finished training steps when the
// record was written, epoch the (1-based) epoch being trained.
struct MetricsRecord {
    // Plan: a time-budgeted run's plan when it is made or changes (run.totalIterations and
    // run.epochs; reason says why validations were dropped, if they were).
    enum class Kind { Run, State, Train, Val, System, Plan };
    Kind kind = Kind::Train;
    int epoch = 0;
    std::int64_t iteration = 0;
    std::optional<double> elapsedSeconds;  // training time of the run, all sessions

    std::optional<double> loss;      // train (mean over the logging window) and val
    std::optional<double> accuracy;  // train (pixel accuracy of the logged step) and val (global)
    std::optional<double> learningRate;     // train
    std::optional<double> imagesPerSecond;  // train, over all ranks
    std::optional<double> meanAccuracy;     // val: mean class accuracy
    std::optional<double> meanIoU;          // val
    std::optional<double> weightedIoU;      // val: frequency-weighted IoU
    std::vector<double> classIoU;           // val; NaN for a class in neither truth nor prediction

    RunState state = RunState::Starting;  // state
    std::string reason;                   // state: why it failed, or what stopping saved; plan: its note

    RunInfo run;                  // run; plan (totalIterations, epochs, timeBudgetSeconds)
    std::vector<GpuSample> gpus;  // system

    static MetricsRecord train(int epoch, std::int64_t iteration);
    static MetricsRecord val(int epoch, std::int64_t iteration);
    static MetricsRecord stateChange(RunState state, int epoch, std::int64_t iteration, std::string reason = {});
    static MetricsRecord plan(int epoch, std::int64_t iteration, std::int64_t totalIterations, int epochs,
                              double timeBudgetSeconds, std::string note = {});
};

const char* toString(MetricsRecord::Kind kind);
nlohmann::json toJson(const MetricsRecord& record);
// nullopt for a kind this version does not know (newer writers may add kinds); throws
// std::invalid_argument for something that is not a record (no "kind", wrong types).
std::optional<MetricsRecord> recordFromJson(const nlohmann::json& object);

}  // namespace segstudio::run
