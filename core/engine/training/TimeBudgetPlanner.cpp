#include "TimeBudgetPlanner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace segstudio::engine {
inline namespace training {

namespace {

// Weight of the newest window in the moving average: after three windows at a new, faster pace
// the plan has followed it seven-eighths of the way.
constexpr double kPaceWeight = 0.5;
// Validations after epochs are dropped (validate once at the end) when they would take more than
// this share of the run's time: the budget is for training.
// 5 %: on CamVid (8 s a pass, 12 s an epoch) every 12th epoch, a dozen points over 30 minutes;
// at 15 % the validations took time worth a tenth more training (docs/BENCHMARKS.md).
constexpr double kMaxValidationShare = 0.05;
// Until a pass has been timed the period rests on the trainer's guess, which can be far off (10x
// too high on an H100: a one-minute run's first curve point came after 28 s). So the first
// validation comes after at most this share of the planned epochs, if one pass by the guess costs
// at most kMaxValidationShare of the budget; its measured time then sets the period.
constexpr double kFirstValidationShareOfRun = 0.1;

std::string minutesText(double seconds)
{
    char text[32];
    if (seconds < 120)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else
        std::snprintf(text, sizeof text, "%.1f min", seconds / 60.0);
    return text;
}

}  // namespace

TimeBudgetPlanner::TimeBudgetPlanner(Settings settings) : m_settings(settings)
{
    m_settings.iterationsPerEpoch = std::max<std::int64_t>(1, m_settings.iterationsPerEpoch);
    m_settings.valEpochs = std::max(1, m_settings.valEpochs);
}

void TimeBudgetPlanner::observeTraining(double iterations, double seconds)
{
    if (!(iterations > 0.0) || !(seconds > 0.0) || !std::isfinite(seconds) || !std::isfinite(iterations))
        return;
    m_latestPace = seconds / iterations;
    m_averagePace = m_averagePace ? (1.0 - kPaceWeight) * *m_averagePace + kPaceWeight * m_latestPace : m_latestPace;
}

void TimeBudgetPlanner::observeValidation(double seconds)
{
    if (seconds > 0.0 && std::isfinite(seconds))
        m_secondsPerValidation = seconds;  // the latest: the set and the model do not change
}

double TimeBudgetPlanner::secondsPerValidation() const
{
    if (!m_settings.validates)
        return 0.0;
    return m_secondsPerValidation.value_or(std::max(0.0, m_settings.validationSecondsGuess));
}

double TimeBudgetPlanner::predictedSeconds(std::int64_t position, std::int64_t end, int validationEpochs) const
{
    double seconds = double(end - position) * secondsPerStepAhead();
    if (!m_settings.validates)
        return seconds;
    // Validations after every valEpochs-th epoch on the way, and one at the end unless the end is
    // such an epoch's end itself. The trainer plans after a step and validates after the epoch's
    // last step: a position at such an epoch's end still has its validation to come.
    const std::int64_t period = m_settings.iterationsPerEpoch * std::max(1, validationEpochs);
    std::int64_t validations = 1;
    if (validationEpochs > 0) {
        const std::int64_t passed = end / period - std::max<std::int64_t>(0, position - 1) / period;
        validations = passed + (passed > 0 && end % period == 0 ? 0 : 1);
    }
    return seconds + double(validations) * secondsPerValidation();
}

std::int64_t TimeBudgetPlanner::largestEndWithin(std::int64_t position, double seconds, int validationEpochs) const
{
    // predictedSeconds grows with the end position: the largest end that fits, by bisection.
    std::int64_t low = position;
    std::int64_t high = position + std::int64_t(std::max(0.0, seconds) / secondsPerStepAhead()) + 1;
    while (low < high) {
        const std::int64_t middle = low + (high - low + 1) / 2;
        if (predictedSeconds(position, middle, validationEpochs) <= seconds)
            low = middle;
        else
            high = middle - 1;
    }
    return low;
}

// Validations thinned out until they take at most kMaxValidationShare of the time: a property of
// the run (the validation set against the epoch), not of the time left, so the curve keeps its
// points all run long. A period once chosen is kept until validating more often would stay well
// under the limit: at the limit, pace jitter would otherwise flip it at every re-plan.
int TimeBudgetPlanner::validationPeriod(double validationSeconds, double epochSeconds)
{
    const int step = m_settings.valEpochs;
    const auto share = [&](int every) { return validationSeconds / (validationSeconds + every * epochSeconds); };
    int every = std::max(step, m_validationEpochs);
    while (every < 100000 && share(every) > kMaxValidationShare)
        every += step;
    while (every > step && share(every - step) < 0.75 * kMaxValidationShare)
        every -= step;
    m_validationEpochs = every;
    return every;
}

BudgetPlan TimeBudgetPlanner::plan(std::int64_t position, double elapsedSeconds, double remainingCost)
{
    m_remainingCost = remainingCost > 0.0 && std::isfinite(remainingCost) ? remainingCost : 1.0;
    BudgetPlan plan;
    plan.secondsPerIteration = secondsPerIteration();
    plan.secondsPerValidation = secondsPerValidation();
    const double left = m_settings.budgetSeconds - elapsedSeconds;
    const auto finish = [&](std::int64_t end) {
        plan.totalIterations = std::max(position, end);
        plan.epochs = int((plan.totalIterations + m_settings.iterationsPerEpoch - 1) / m_settings.iterationsPerEpoch);
        return plan;
    };
    if (!hasPace() || left <= 0.0) {
        plan.note = left <= 0.0 ? "the time budget is spent" : std::string();
        return finish(position);
    }
    const double validation = secondsPerValidation();
    if (m_settings.validates && validation >= left) {
        // Not even the final validation fits: train half of what is left and validate once; the
        // run ends late by what the validation takes beyond the budget.
        plan.validateOnlyAtEnd = true;
        plan.note = "the " + minutesText(left) + " left is shorter than one validation pass (about " + minutesText(validation) +
                    "): training " + minutesText(left / 2) + " and validating once at the end, past the budget";
        return finish(position + std::int64_t(left / 2 / secondsPerStepAhead()));
    }
    if (!m_settings.validates) {
        plan.validationEpochs = m_settings.valEpochs;
        return finish(largestEndWithin(position, left, 0));
    }
    int every = validationPeriod(validation, double(m_settings.iterationsPerEpoch) * secondsPerStepAhead());
    if (!m_secondsPerValidation)
        every = std::min(every, earlyFirstValidation(position, left, every));
    plan.validationEpochs = every;
    if (every > m_settings.valEpochs)
        plan.note = "a validation pass takes about " + minutesText(validation) + ": validating every " + std::to_string(every) +
                    " epochs, not every " + std::to_string(m_settings.valEpochs);
    return finish(largestEndWithin(position, left, every));
}

// The period that puts the first validation within kFirstValidationShareOfRun of the run planned
// with `every`; `every` itself when one guessed pass is too costly to spend early.
int TimeBudgetPlanner::earlyFirstValidation(std::int64_t position, double left, int every) const
{
    if (secondsPerValidation() > kMaxValidationShare * m_settings.budgetSeconds)
        return every;
    const double plannedEpochs = double(largestEndWithin(position, left, every)) / double(m_settings.iterationsPerEpoch);
    const int step = m_settings.valEpochs;
    return std::max(step, int(plannedEpochs * kFirstValidationShareOfRun) / step * step);
}

}  // namespace training
}  // namespace segstudio::engine
