#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace segstudio::engine {
inline namespace training {

// How a time-budgeted run ends: the position (steps of this world's size from the start of the
// run) at which training stops, the epochs that reaches, and whether it validates after epochs or
// only once at the end.
struct BudgetPlan {
    std::int64_t totalIterations = 0;
    int epochs = 0;
    bool validateOnlyAtEnd = false;
    int validationEpochs = 1;  // validation after every this many epochs (a multiple of valEpochs)
    double secondsPerIteration = 0.0;  // the pace it was planned with
    double secondsPerValidation = 0.0;
    std::string note;  // why it validates only at the end, or that the budget is spent; else empty
};

// Plans a run that must end, validation included, when its training time reaches a budget.
// Pure arithmetic over what the trainer measured, so a test drives it with a fake clock.
// Requirements: observe the pace before asking for a plan (hasPace()).
// Guarantees: plan() is the largest end position whose predicted time (steps at the observed pace,
//   plus one validation after every validationEpochs-th epoch it reaches (valEpochs, or a multiple
//   of it when validating that often would take more than 5 % of the time; until a pass has been
//   timed, no more than a tenth of the planned epochs), including one ending at the
//   current position, whose validation follows the plan, and one at the end) fits in what
//   is left of the budget; at least the current position; with a budget already spent, exactly it.
class TimeBudgetPlanner {
public:
    struct Settings {
        double budgetSeconds = 0.0;
        std::int64_t iterationsPerEpoch = 1;
        int valEpochs = 1;         // validation after every valEpochs-th epoch, and at the end
        bool validates = true;     // false: no validation pack
        // What one validation pass costs before one has been timed (the trainer's estimate from
        // the training pace and the validation set's size).
        double validationSecondsGuess = 0.0;
    };

    explicit TimeBudgetPlanner(Settings settings);

    // A window of `iterations` steps took `seconds` (full-crop-equivalent steps with progressive
    // crops, so a fraction is possible). The pace planned with is the slower of the
    // latest window and a moving average of the windows: a slowdown (a program takes the cores)
    // shortens the plan at once, so the run does not overrun; a speed-up lengthens it as the
    // average follows, so one fast window does not.
    void observeTraining(double iterations, double seconds);
    void observeValidation(double seconds);
    void setValidationGuess(double seconds) { m_settings.validationSecondsGuess = seconds; }
    bool hasPace() const { return m_averagePace.has_value(); }
    double secondsPerIteration() const { return hasPace() ? std::max(*m_averagePace, m_latestPace) : 0.0; }
    double secondsPerValidation() const;

    // Not const: the validation period it chose is kept (see validationPeriod()).
    // remainingCost: what the steps still ahead cost on average against the steps whose pace
    // was observed, when steps change cost as the run progresses (progressive crops: the trainer
    // then reports full-crop-equivalent steps to observeTraining, and passes their mean cost
    // over the rest of the run here); 1 when every step costs the same.
    BudgetPlan plan(std::int64_t position, double elapsedSeconds, double remainingCost = 1.0);

private:
    // validationEpochs: validations after every this many epochs; 0: only at the end.
    int validationPeriod(double validationSeconds, double epochSeconds);
    int earlyFirstValidation(std::int64_t position, double left, int every) const;
    double predictedSeconds(std::int64_t position, std::int64_t end, int validationEpochs) const;
    double secondsPerStepAhead() const { return secondsPerIteration() * m_remainingCost; }
    std::int64_t largestEndWithin(std::int64_t position, double seconds, int validationEpochs) const;

    Settings m_settings;
    std::optional<double> m_averagePace;
    double m_latestPace = 0.0;
    int m_validationEpochs = 0;  // the period chosen last; 0 before the first plan
    std::optional<double> m_secondsPerValidation;
    double m_remainingCost = 1.0;  // plan()'s, for the steps ahead
};

}  // namespace training
}  // namespace segstudio::engine
