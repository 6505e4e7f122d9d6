#include "MetricsRecord.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace segstudio::run {

namespace {

using json = nlohmann::json;

std::optional<double> number(const json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;  // null (NaN), absent, or not a number
    return it->get<double>();
}

template <typename T>
T integer(const json& object, const char* key, T fallback)
{
    const auto value = number(object, key);
    return value ? T(*value) : fallback;
}

std::string text(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void put(json& object, const char* key, const std::optional<double>& value)
{
    if (value)
        object[key] = std::isfinite(*value) ? json(*value) : json(nullptr);
}

json runToJson(const RunInfo& run)
{
    return {{"segstudio_version", run.segstudioVersion},
            {"model", run.model},
            {"device", run.device},
            {"world_size", run.worldSize},
            {"batch", run.batch},
            {"epochs", run.epochs},
            {"iterations_per_epoch", run.iterationsPerEpoch},
            {"total_iterations", run.totalIterations},
            {"resumed_at_epoch", run.resumedAtEpoch},
            {"started", run.started},
            {"time_budget_s", run.timeBudgetSeconds}};
}

RunInfo runFromJson(const json& object)
{
    RunInfo run;
    run.segstudioVersion = text(object, "segstudio_version");
    run.model = text(object, "model");
    run.device = text(object, "device");
    run.worldSize = integer(object, "world_size", 1);
    run.batch = integer(object, "batch", 0);
    run.epochs = integer(object, "epochs", 0);
    run.iterationsPerEpoch = integer<std::int64_t>(object, "iterations_per_epoch", 0);
    run.totalIterations = integer<std::int64_t>(object, "total_iterations", 0);
    run.resumedAtEpoch = integer(object, "resumed_at_epoch", 1);
    run.started = text(object, "started");
    run.timeBudgetSeconds = number(object, "time_budget_s").value_or(0.0);
    return run;
}

json gpusToJson(const std::vector<GpuSample>& gpus)
{
    json list = json::array();
    for (const auto& gpu : gpus)
        list.push_back({{"index", gpu.index},
                        {"utilization", gpu.utilization},
                        {"memory_used", gpu.memoryUsed},
                        {"memory_total", gpu.memoryTotal}});
    return list;
}

std::vector<GpuSample> gpusFromJson(const json& object)
{
    std::vector<GpuSample> gpus;
    const auto list = object.find("gpus");
    if (list == object.end() || !list->is_array())
        return gpus;
    for (const auto& item : *list) {
        if (!item.is_object())
            throw std::invalid_argument("\"gpus\" holds something that is not an object");
        gpus.push_back({integer(item, "index", 0), number(item, "utilization").value_or(0.0),
                        number(item, "memory_used").value_or(0.0), number(item, "memory_total").value_or(0.0)});
    }
    return gpus;
}

constexpr std::pair<MetricsRecord::Kind, const char*> kKinds[] = {
    {MetricsRecord::Kind::Run, "run"},     {MetricsRecord::Kind::State, "state"},
    {MetricsRecord::Kind::Train, "train"}, {MetricsRecord::Kind::Val, "val"},
    {MetricsRecord::Kind::System, "system"}, {MetricsRecord::Kind::Plan, "plan"},
};

}  // namespace

MetricsRecord MetricsRecord::train(int epoch, std::int64_t iteration)
{
    MetricsRecord record;
    record.kind = Kind::Train;
    record.epoch = epoch;
    record.iteration = iteration;
    return record;
}

MetricsRecord MetricsRecord::val(int epoch, std::int64_t iteration)
{
    MetricsRecord record = train(epoch, iteration);
    record.kind = Kind::Val;
    return record;
}

MetricsRecord MetricsRecord::stateChange(RunState state, int epoch, std::int64_t iteration, std::string reason)
{
    MetricsRecord record = train(epoch, iteration);
    record.kind = Kind::State;
    record.state = state;
    record.reason = std::move(reason);
    return record;
}

MetricsRecord MetricsRecord::plan(int epoch, std::int64_t iteration, std::int64_t totalIterations, int epochs,
                                  double timeBudgetSeconds, std::string note)
{
    MetricsRecord record = train(epoch, iteration);
    record.kind = Kind::Plan;
    record.run.totalIterations = totalIterations;
    record.run.epochs = epochs;
    record.run.timeBudgetSeconds = timeBudgetSeconds;
    record.reason = std::move(note);
    return record;
}

const char* toString(MetricsRecord::Kind kind)
{
    for (const auto& [value, name] : kKinds)
        if (value == kind)
            return name;
    return "unknown";
}

json toJson(const MetricsRecord& record)
{
    json object = {{"kind", toString(record.kind)}, {"epoch", record.epoch}, {"iteration", record.iteration}};
    switch (record.kind) {
    case MetricsRecord::Kind::Run:
        object.update(runToJson(record.run));
        break;
    case MetricsRecord::Kind::State:
        object["state"] = toString(record.state);
        if (!record.reason.empty())
            object["reason"] = record.reason;
        break;
    case MetricsRecord::Kind::Train:
        put(object, "loss", record.loss);
        put(object, "accuracy", record.accuracy);
        put(object, "lr", record.learningRate);
        put(object, "images_per_s", record.imagesPerSecond);
        break;
    case MetricsRecord::Kind::Val: {
        put(object, "loss", record.loss);
        put(object, "accuracy", record.accuracy);
        put(object, "mean_accuracy", record.meanAccuracy);
        put(object, "mean_iou", record.meanIoU);
        put(object, "weighted_iou", record.weightedIoU);
        json classes = json::array();
        for (double iou : record.classIoU)
            classes.push_back(std::isfinite(iou) ? json(iou) : json(nullptr));
        object["class_iou"] = std::move(classes);
        break;
    }
    case MetricsRecord::Kind::System:
        object["gpus"] = gpusToJson(record.gpus);
        break;
    case MetricsRecord::Kind::Plan:
        object["total_iterations"] = record.run.totalIterations;
        object["epochs"] = record.run.epochs;
        object["time_budget_s"] = record.run.timeBudgetSeconds;
        if (!record.reason.empty())
            object["reason"] = record.reason;
        break;
    }
    put(object, "elapsed_s", record.elapsedSeconds);
    return object;
}

std::optional<MetricsRecord> recordFromJson(const json& object)
{
    if (!object.is_object())
        throw std::invalid_argument("not a JSON object");
    const auto kindText = object.find("kind");
    if (kindText == object.end() || !kindText->is_string())
        throw std::invalid_argument("no \"kind\"");
    MetricsRecord record;
    bool known = false;
    for (const auto& [value, name] : kKinds)
        if (*kindText == name) {
            record.kind = value;
            known = true;
        }
    if (!known)
        return std::nullopt;
    record.epoch = integer(object, "epoch", 0);
    record.iteration = integer<std::int64_t>(object, "iteration", 0);
    record.elapsedSeconds = number(object, "elapsed_s");
    record.loss = number(object, "loss");
    record.accuracy = number(object, "accuracy");
    record.learningRate = number(object, "lr");
    record.imagesPerSecond = number(object, "images_per_s");
    record.meanAccuracy = number(object, "mean_accuracy");
    record.meanIoU = number(object, "mean_iou");
    record.weightedIoU = number(object, "weighted_iou");
    if (const auto classes = object.find("class_iou"); classes != object.end() && classes->is_array())
        for (const auto& iou : *classes)
            record.classIoU.push_back(iou.is_number() ? iou.get<double>() : std::numeric_limits<double>::quiet_NaN());
    if (record.kind == MetricsRecord::Kind::State) {
        const auto state = runStateFromString(text(object, "state"));
        if (!state)
            throw std::invalid_argument("unknown state \"" + text(object, "state") + "\"");
        record.state = *state;
        record.reason = text(object, "reason");
    }
    if (record.kind == MetricsRecord::Kind::Run || record.kind == MetricsRecord::Kind::Plan)
        record.run = runFromJson(object);
    if (record.kind == MetricsRecord::Kind::Plan)
        record.reason = text(object, "reason");
    if (record.kind == MetricsRecord::Kind::System)
        record.gpus = gpusFromJson(object);
    return record;
}

}  // namespace segstudio::run
