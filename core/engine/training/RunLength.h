#pragma once

#include "BudgetController.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace segstudio::engine {
inline namespace training {
struct TrainConfig;

// How long a run is (issue 65.1, out of Trainer): its epochs and its steps, fixed by the
// configuration (epochs, an iteration limit) or, for a time-budgeted run, by the budget's plan,
// which the first steps' pace makes. Also what a budgeted plan says about validation.
// Guarantees: before a budgeted run's first plan it has no end (kNoEnd steps, no epoch limit);
// the iteration limit caps every end; recordedEpoch() never points past the last epoch.
class RunLength {
public:
    RunLength(const TrainConfig& config, std::int64_t iterationsPerEpoch);
    ~RunLength();

    bool budgeted() const;
    void setBudget(std::unique_ptr<BudgetController> budget) { m_budget = std::move(budget); }
    BudgetController* budget() const { return m_budget.get(); }
    const std::optional<BudgetPlan>& plan() const;

    // Steps of this world's size from the start to the end of the run.
    std::int64_t totalIterations() const;
    int epochLimit() const;
    // The epochs announced at the start: 0 for a budgeted run not planned yet.
    int announcedEpochs() const;
    // The epoch being worked in, 1-based, from the 0-based counter: once the last one is done the
    // counter points past it, and a finished run must say "12 of 12", not "13 of 12".
    int recordedEpoch(int epoch) const;

    // Whether epoch ends validate at all (a budget may keep validation for the end), and how many
    // epochs apart.
    bool validatesEachPeriod() const;
    int validationEpochs() const;

    // Rank 0's plan made every rank's plan (its end decides the collectives they take part in):
    // the leaders' figures in, the epochs counted from its end.
    void adoptLeadersPlan(BudgetPlan& plan, const std::vector<double>& leaders) const;
    static std::vector<double> figuresOf(const BudgetPlan& plan);

private:
    const TrainConfig& m_config;
    std::int64_t m_iterationsPerEpoch;
    std::unique_ptr<BudgetController> m_budget;
};

}  // namespace training
}  // namespace segstudio::engine
