#pragma once

#include "TimeBudgetPlanner.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace segstudio::pack { class PackReader; }

namespace segstudio::engine {
inline namespace input { class CropSchedule; }
inline namespace training { struct TrainConfig; }
inline namespace training { class LrSchedule; }

inline namespace training {
// A time-budgeted run's pace and plan: it times windows of steps (validations inside them timed
// apart), asks the TimeBudgetPlanner where the run must end to finish within the budget, and lays
// the learning-rate schedule out to end there. The plan is part of the checkpoint (state() and
// restore()), so a resume keeps the schedule it was on until it has measured its own pace.
// Requirements: one per session, on the training thread; in data parallel every rank calls it at
// the same steps (agree() shares rank 0's plan, a collective).
class BudgetController {
public:
    static constexpr std::int64_t kNoEnd = std::numeric_limits<std::int64_t>::max() / 4;  // before the first plan
    struct Settings {
        double budgetSeconds = 0.0;
        std::int64_t iterationsPerEpoch = 1;
        int valEpochs = 1;
        int logInterval = 1;                 // re-plans at most this far apart (in steps)
        std::int64_t warmupIterations = 0;
        bool validates = false;              // a validation pack is there
        // One validation pass in seconds per second of a training step, before one was timed:
        // the pass's pixels per rank against a step's (forward only, yet as slow per pixel on a
        // CPU as training: 26 s against 25 s on CamVid).
        double validationStepsGuess = 0.0;
    };
    struct Hooks {
        std::function<double()> clock;
        std::function<void(BudgetPlan&)> agree;           // every rank takes rank 0's plan (and its epochs)
        std::function<void(const std::string&)> say;      // a line for the log
        std::function<void(const BudgetPlan&)> record;    // the plan for the metrics file
    };

    // A training's settings (issue 65.1, out of Trainer): its config's budget, validation and
    // logging, and the first guess of a validation's cost from the packs' pixels per rank (a
    // crop's pixels, when training on crops, against the validation images').
    static Settings settingsFor(const TrainConfig& config, const pack::PackReader& train, const pack::PackReader* val,
                                int world, std::int64_t iterationsPerEpoch);

    BudgetController(Settings settings, LrSchedule& schedule, const CropSchedule& crops, Hooks hooks);
    ~BudgetController();

    const std::optional<BudgetPlan>& plan() const { return m_plan; }
    std::int64_t firstPlannedIterations() const { return m_firstPlannedIterations; }
    // Where the run ends, in steps of this world's size: a large number before the first plan.
    std::int64_t totalIterations() const;
    int epochLimit() const;

    // A session starts: its first step carries one-off costs, so the pace is timed after it.
    void startSession() { m_windowOpen = false; }
    // A step was done: position is the next step's, stepCost the step's cost against a full-crop
    // step, end the run's last step as it stands (a user's iteration limit included).
    void stepDone(std::int64_t position, double elapsed, double stepCost, std::int64_t end);
    void validationTook(double seconds);
    void replan(std::int64_t position, double elapsed);
    // A run that had reached the end of its plan, resumed with a larger budget: the schedule goes
    // on at the share of the budget already trained, and the rest is planned now.
    void extendPastTheEnd(std::int64_t position, double elapsedBefore, double elapsed);

    nlohmann::json state() const;
    void restore(const nlohmann::json& saved);

private:
    void restartWindow(std::int64_t position);
    void apply(BudgetPlan next);

    Settings m_settings;
    LrSchedule& m_schedule;
    const CropSchedule& m_crops;
    Hooks m_hooks;
    std::unique_ptr<TimeBudgetPlanner> m_planner;
    std::optional<BudgetPlan> m_plan;
    std::int64_t m_firstPlannedIterations = 0;
    // The window of steps whose time gives the pace.
    bool m_windowOpen = false;
    std::int64_t m_windowStartPosition = 0;
    double m_windowStart = 0.0;
    double m_windowValidating = 0.0;  // seconds of validation inside the window
    double m_windowWork = 0.0;        // its steps in full-crop steps (progressive crops)
};

}  // namespace training
}  // namespace segstudio::engine
