#include "CheckpointSnapshot.h"

#include "engine/models/Checkpoint.h"
#include "engine/runtime/EngineError.h"
#include "OptimizerStateKey.h"

#include <type_traits>

namespace segstudio::engine {
inline namespace training {

namespace {

// Copies live into host memory held by copy, allocating it only when the shape or type changed.
void copyInto(torch::Tensor& copy, const torch::Tensor& live, bool pinned)
{
    if (!live.defined()) {
        copy = torch::Tensor();
        return;
    }
    if (!copy.defined() || copy.sizes() != live.sizes() || copy.scalar_type() != live.scalar_type())
        copy = torch::empty(live.sizes(), torch::TensorOptions().dtype(live.scalar_type()).pinned_memory(pinned));
    copy.copy_(live, /*non_blocking=*/pinned);
}

template <typename State>
State& stateSlot(std::unique_ptr<torch::optim::OptimizerParamState>& slot)
{
    if (!slot || !dynamic_cast<State*>(slot.get()))
        slot = std::make_unique<State>();
    return static_cast<State&>(*slot);
}

// The three state kinds of the optimisers the trainer builds; false for any other.
bool copyState(const torch::optim::OptimizerParamState& live, std::unique_ptr<torch::optim::OptimizerParamState>& slot,
               bool pinned)
{
    torch::Tensor copy;
    if (const auto* sgd = dynamic_cast<const torch::optim::SGDParamState*>(&live)) {
        auto& state = stateSlot<torch::optim::SGDParamState>(slot);
        copy = state.momentum_buffer();
        copyInto(copy, sgd->momentum_buffer(), pinned);
        state.momentum_buffer(copy);
        return true;
    }
    const auto copyAdam = [&](const auto& from, auto& to) {
        to.step(from.step());
        torch::Tensor t = to.exp_avg();
        copyInto(t, from.exp_avg(), pinned);
        to.exp_avg(t);
        t = to.exp_avg_sq();
        copyInto(t, from.exp_avg_sq(), pinned);
        to.exp_avg_sq(t);
        t = to.max_exp_avg_sq();
        copyInto(t, from.max_exp_avg_sq(), pinned);
        to.max_exp_avg_sq(t);
    };
    if (const auto* adamw = dynamic_cast<const torch::optim::AdamWParamState*>(&live)) {
        copyAdam(*adamw, stateSlot<torch::optim::AdamWParamState>(slot));
        return true;
    }
    if (const auto* adam = dynamic_cast<const torch::optim::AdamParamState*>(&live)) {
        copyAdam(*adam, stateSlot<torch::optim::AdamParamState>(slot));
        return true;
    }
    return false;
}

}  // namespace

CheckpointSnapshot::CheckpointSnapshot(std::shared_ptr<SegmentationModelImpl> model,
                                       std::unique_ptr<torch::optim::Optimizer> optimizer, bool pinned)
    : m_model(std::move(model)), m_optimizer(std::move(optimizer)), m_pinned(pinned)
{
    if (!m_pinned)
        return;
    torch::NoGradGuard noGrad;
    for (auto& tensor : m_model->parameters())
        tensor.set_data(tensor.data().pin_memory());
    for (auto& tensor : m_model->buffers())
        tensor.set_data(tensor.pin_memory());
}

CheckpointSnapshot::~CheckpointSnapshot() = default;

bool CheckpointSnapshot::canCopy(const torch::optim::Optimizer& optimizer)
{
    std::unique_ptr<torch::optim::OptimizerParamState> probe;
    for (const auto& entry : optimizer.state())
        if (!copyState(*entry.second, probe, false))
            return false;
    return dynamic_cast<const torch::optim::SGD*>(&optimizer) || dynamic_cast<const torch::optim::Adam*>(&optimizer) ||
           dynamic_cast<const torch::optim::AdamW*>(&optimizer);
}

void CheckpointSnapshot::capture(SegmentationModelImpl& model, const torch::optim::Optimizer* optimizer,
                                 nlohmann::json state, const std::vector<torch::Tensor>* average)
{
    torch::NoGradGuard noGrad;
    copyModel(model);
    m_holdsOptimizer = optimizer != nullptr;
    if (optimizer) {
        if (!m_optimizer)
            throw EngineError("checkpoint snapshot: made without an optimiser, asked to copy one");
        copyOptimizer(*optimizer);
    }
    m_holdsAverage = average != nullptr;
    if (average) {
        m_average.resize(average->size());
        for (std::size_t i = 0; i < average->size(); ++i)
            copyInto(m_average[i], (*average)[i], m_pinned);
    }
    m_state = std::move(state);
    m_cpuRng = at::detail::getDefaultCPUGenerator().get_state();
    // The copies were queued on the device's stream; the background write must see them landed.
    if (m_pinned)
        torch::cuda::synchronize();
}

void CheckpointSnapshot::copyModel(SegmentationModelImpl& live)
{
    const auto liveParameters = live.parameters();
    auto parameters = m_model->parameters();
    const auto liveBuffers = live.buffers();
    auto buffers = m_model->buffers();
    if (liveParameters.size() != parameters.size() || liveBuffers.size() != buffers.size())
        throw EngineError("checkpoint snapshot: the model's tensors differ from the copy's");
    for (std::size_t i = 0; i < parameters.size(); ++i)
        parameters[i].copy_(liveParameters[i], /*non_blocking=*/m_pinned);
    for (std::size_t i = 0; i < buffers.size(); ++i)
        buffers[i].copy_(liveBuffers[i], /*non_blocking=*/m_pinned);
}

void CheckpointSnapshot::copyOptimizer(const torch::optim::Optimizer& live)
{
    using Key = typename std::decay_t<decltype(m_optimizer->state())>::key_type;
    const auto& liveGroups = live.param_groups();
    auto& groups = m_optimizer->param_groups();
    if (liveGroups.size() != groups.size())
        throw EngineError("checkpoint snapshot: the optimiser's parameter groups differ from the copy's");
    for (std::size_t g = 0; g < groups.size(); ++g) {
        groups[g].set_options(liveGroups[g].options().clone());  // the learning rate of this step
        const auto& liveParameters = liveGroups[g].params();
        const auto& parameters = groups[g].params();
        if (liveParameters.size() != parameters.size())
            throw EngineError("checkpoint snapshot: the optimiser's parameters differ from the copy's");
        for (std::size_t i = 0; i < parameters.size(); ++i) {
            const auto key = optimizerStateKey<Key>(parameters[i]);
            const auto found = live.state().find(optimizerStateKey<Key>(liveParameters[i]));
            if (found == live.state().end()) {
                m_optimizer->state().erase(key);  // no step yet for this parameter
                continue;
            }
            if (!copyState(*found->second, m_optimizer->state()[key], m_pinned))
                throw EngineError("checkpoint snapshot: cannot copy this optimiser's state");
        }
    }
}

void CheckpointSnapshot::save(const std::string& path) const
{
    Checkpoint::save(path, *m_model, m_holdsOptimizer ? m_optimizer.get() : nullptr, m_state,
                     m_holdsAverage ? &m_average : nullptr, &m_cpuRng);
}

}  // namespace training
}  // namespace segstudio::engine
