#include "RunLength.h"

#include "TrainConfig.h"

#include <algorithm>
#include <limits>

namespace segstudio::engine {
inline namespace training {

RunLength::RunLength(const TrainConfig& config, std::int64_t iterationsPerEpoch)
    : m_config(config)
    , m_iterationsPerEpoch(std::max<std::int64_t>(1, iterationsPerEpoch))
{
}

RunLength::~RunLength() = default;

bool RunLength::budgeted() const
{
    return m_config.timeBudgetSeconds > 0;
}

const std::optional<BudgetPlan>& RunLength::plan() const
{
    static const std::optional<BudgetPlan> none;
    return m_budget ? m_budget->plan() : none;
}

std::int64_t RunLength::totalIterations() const
{
    // A budgeted run without a plan yet (its first steps measure the pace) has no end so far.
    const std::int64_t all = !budgeted() ? std::int64_t(m_config.epochs) * m_iterationsPerEpoch
                             : m_budget  ? m_budget->totalIterations()
                                         : BudgetController::kNoEnd;
    return m_config.maxIterations > 0 ? std::min(all, m_config.maxIterations) : all;
}

int RunLength::epochLimit() const
{
    return !budgeted() ? m_config.epochs : m_budget ? m_budget->epochLimit() : std::numeric_limits<int>::max();
}

int RunLength::announcedEpochs() const
{
    return !budgeted() ? m_config.epochs : plan() ? plan()->epochs : 0;
}

int RunLength::recordedEpoch(int epoch) const
{
    return std::min(epoch + 1, std::max(1, epochLimit()));
}

bool RunLength::validatesEachPeriod() const
{
    return !(plan() && plan()->validateOnlyAtEnd);
}

int RunLength::validationEpochs() const
{
    return plan() ? plan()->validationEpochs : m_config.valEpochs;
}

std::vector<double> RunLength::figuresOf(const BudgetPlan& plan)
{
    return {double(plan.totalIterations), plan.validateOnlyAtEnd ? 1.0 : 0.0, double(plan.validationEpochs)};
}

void RunLength::adoptLeadersPlan(BudgetPlan& plan, const std::vector<double>& leaders) const
{
    plan.totalIterations = std::int64_t(leaders.at(0));
    plan.validateOnlyAtEnd = leaders.at(1) > 0.0;
    plan.validationEpochs = std::max(1, int(leaders.at(2)));
    plan.epochs = int((plan.totalIterations + m_iterationsPerEpoch - 1) / m_iterationsPerEpoch);
}

}  // namespace training
}  // namespace segstudio::engine
