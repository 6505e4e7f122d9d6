#include "BudgetController.h"

#include "TrainConfig.h"
#include "pack/PackReader.h"
#include "engine/runtime/Formatted.h"

#include "engine/input/CropSchedule.h"
#include "LrSchedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace segstudio::engine {
inline namespace training {

BudgetController::Settings BudgetController::settingsFor(const TrainConfig& config, const pack::PackReader& train,
                                                        const pack::PackReader* val, int world,
                                                        std::int64_t iterationsPerEpoch)
{
    Settings settings;
    settings.budgetSeconds = config.timeBudgetSeconds;
    settings.iterationsPerEpoch = iterationsPerEpoch;
    settings.valEpochs = config.valEpochs;
    settings.logInterval = config.logInterval;
    settings.warmupIterations = config.warmupIterations;
    settings.validates = val != nullptr;
    if (val) {
        const auto& trainSpec = train.spec();
        const double trainPixels = config.cropHeight > 0 ? double(config.cropHeight) * config.cropWidth
                                                         : double(trainSpec.height) * trainSpec.width;
        const double imagesPerRank = std::ceil(double(val->size()) / double(std::max(1, world)));
        const auto& valSpec = val->spec();
        settings.validationStepsGuess =
            imagesPerRank / double(config.batchSize) * double(valSpec.height) * double(valSpec.width) / trainPixels;
    }
    return settings;
}

BudgetController::BudgetController(Settings settings, LrSchedule& schedule, const CropSchedule& crops, Hooks hooks)
    : m_settings(settings), m_schedule(schedule), m_crops(crops), m_hooks(std::move(hooks))
{
    TimeBudgetPlanner::Settings planner;
    planner.budgetSeconds = settings.budgetSeconds;
    planner.iterationsPerEpoch = settings.iterationsPerEpoch;
    planner.valEpochs = settings.valEpochs;
    planner.validates = settings.validates;
    m_planner = std::make_unique<TimeBudgetPlanner>(planner);
}

BudgetController::~BudgetController() = default;

std::int64_t BudgetController::totalIterations() const
{
    return m_plan ? m_plan->totalIterations : kNoEnd;
}

int BudgetController::epochLimit() const
{
    return m_plan ? m_plan->epochs : std::numeric_limits<int>::max();
}

void BudgetController::restartWindow(std::int64_t position)
{
    m_windowOpen = true;
    m_windowStartPosition = position;
    m_windowStart = m_hooks.clock();
    m_windowValidating = 0.0;
    m_windowWork = 0.0;
}

void BudgetController::stepDone(std::int64_t position, double elapsed, double stepCost, std::int64_t end)
{
    if (!m_windowOpen) {
        restartWindow(position);
        return;
    }
    // A first plan after three timed steps; then re-plans at every log interval, and more often
    // near the end (a quarter of the steps left): a first plan made at a slow start must not end
    // the run before a re-plan has seen the real pace. Counted in steps, which every rank shares.
    m_windowWork += stepCost;
    const std::int64_t steps = position - m_windowStartPosition;
    const std::int64_t every = !m_planner->hasPace()
                                   ? 3
                                   : std::clamp<std::int64_t>((end - position) / 4, 1, m_settings.logInterval);
    if (steps < every)
        return;
    m_planner->observeTraining(m_windowWork, m_hooks.clock() - m_windowStart - m_windowValidating);
    if (!m_plan && m_settings.validates)  // replaced by the first timed validation
        m_planner->setValidationGuess(m_planner->secondsPerIteration() * m_settings.validationStepsGuess);
    restartWindow(position);
    replan(position, elapsed);
}

void BudgetController::validationTook(double seconds)
{
    m_planner->observeValidation(seconds);
    m_windowValidating += seconds;  // a validation is not training pace
}

void BudgetController::replan(std::int64_t position, double elapsed)
{
    // With progressive crops the pace is per full-crop step and the steps ahead cost less.
    const double remainingCost = m_crops.meanCost(m_schedule.progress(position));  // 1 without
    BudgetPlan next = m_planner->plan(position, elapsed, remainingCost);
    m_hooks.agree(next);
    const bool first = !m_plan;
    // Recorded when it matters to a reader (the first plan, a move of the end by more than 1 %,
    // validations dropped); the schedule follows every re-plan, so it ends where the run ends.
    const bool worthRecording = first || next.validateOnlyAtEnd != m_plan->validateOnlyAtEnd ||
                                next.validationEpochs != m_plan->validationEpochs ||
                                std::llabs(next.totalIterations - m_plan->totalIterations) * 100 > m_plan->totalIterations;
    m_schedule.replan(position, next.totalIterations);
    if (first) {
        m_firstPlannedIterations = next.totalIterations;
        if (m_settings.warmupIterations > next.totalIterations / 2) {
            auto anchor = m_schedule.anchor();
            anchor.warmup = std::max<std::int64_t>(1, next.totalIterations / 10);
            m_schedule.setAnchor(anchor);
            m_hooks.say(formatted("the warm-up of %.0f iterations does not fit the %.0f the budget allows: warming up over %.0f",
                               double(m_settings.warmupIterations), double(next.totalIterations), double(anchor.warmup)));
        }
    }
    m_plan = std::move(next);
    if (worthRecording)
        apply(*m_plan);
}

void BudgetController::apply(BudgetPlan plan)
{
    m_hooks.record(plan);
    m_hooks.say(formatted("plan: %.0f iterations (%.0f epochs) in the %.0f s budget, at %.3f s/iteration",
                       double(plan.totalIterations), plan.epochs, m_settings.budgetSeconds, plan.secondsPerIteration) +
                (m_crops.progressive() ? std::string(" on the full crop") : std::string()) +
                (m_settings.validates ? formatted(" and %.1f s per validation", plan.secondsPerValidation) : std::string()) +
                (plan.note.empty() ? std::string() : "; " + plan.note));
}

void BudgetController::extendPastTheEnd(std::int64_t position, double elapsedBefore, double elapsed)
{
    m_hooks.say(formatted("the run had reached the end of its earlier plan; %.0f s of the %.0f s budget are left: planning them",
                       m_settings.budgetSeconds - elapsedBefore, m_settings.budgetSeconds));
    // The schedule had run out (the cosine at its floor, 0 by default: the extension would not
    // learn). It goes on as if the larger budget had been planned from the start: at the share of
    // it already trained.
    auto anchor = m_schedule.anchor();
    anchor.from = position;
    anchor.progress = std::clamp(elapsedBefore / m_settings.budgetSeconds, 0.0, 1.0);
    anchor.total = position + 1;
    m_schedule.setAnchor(anchor);
    replan(position, elapsed);
}

nlohmann::json BudgetController::state() const
{
    if (!m_plan)
        return nullptr;
    const auto anchor = m_schedule.anchor();
    return {{"plannedIterations", m_plan->totalIterations},
            {"plannedEpochs", m_plan->epochs},
            {"validateOnlyAtEnd", m_plan->validateOnlyAtEnd},
            {"validationEpochs", m_plan->validationEpochs},
            {"firstPlannedIterations", m_firstPlannedIterations},
            {"secondsPerIteration", m_planner->secondsPerIteration()},
            {"secondsPerValidation", m_planner->secondsPerValidation()},
            {"scheduleFrom", anchor.from},
            {"scheduleProgress", anchor.progress},
            {"scheduleTotal", anchor.total},
            {"warmup", anchor.warmup}};
}

void BudgetController::restore(const nlohmann::json& saved)
{
    if (!saved.is_object())
        return;
    BudgetPlan restored;
    restored.totalIterations = saved.at("plannedIterations").get<std::int64_t>();
    restored.epochs = saved.at("plannedEpochs").get<int>();
    restored.validateOnlyAtEnd = saved.at("validateOnlyAtEnd").get<bool>();
    restored.validationEpochs = saved.value("validationEpochs", m_settings.valEpochs);
    restored.secondsPerIteration = saved.at("secondsPerIteration").get<double>();
    restored.secondsPerValidation = saved.at("secondsPerValidation").get<double>();
    m_firstPlannedIterations = saved.at("firstPlannedIterations").get<std::int64_t>();
    // The last session's pace until this one has measured its own (another machine may differ).
    m_planner->observeTraining(1, restored.secondsPerIteration);
    m_planner->observeValidation(restored.secondsPerValidation);
    m_schedule.setAnchor({saved.at("scheduleFrom").get<std::int64_t>(), saved.at("scheduleProgress").get<double>(),
                          saved.at("scheduleTotal").get<std::int64_t>(), saved.at("warmup").get<std::int64_t>()});
    m_plan = restored;
}

}  // namespace training
}  // namespace segstudio::engine
