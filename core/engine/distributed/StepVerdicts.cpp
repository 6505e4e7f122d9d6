#include "StepVerdicts.h"

#include "Communicator.h"

#include <c10/core/Event.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include <thread>

namespace segstudio::engine {
inline namespace distributed {

struct StepVerdicts::Pending {
    std::int64_t iteration = 0;
    std::int64_t position = 0;
    torch::Tensor loss;
    torch::Tensor flags;   // [non-finite, stop] summed over the ranks, on the device
    torch::Tensor copied;  // their copy in page-locked host memory (CUDA)
    std::unique_ptr<c10::Event> landed;  // recorded after the copy (CUDA)
};

StepVerdicts::StepVerdicts(torch::Device device, Communicator* communicator, std::optional<int> lag)
    : m_device(device), m_communicator(communicator), m_lag(lag.value_or(device.is_cuda() ? 1 : 0))
{
}

StepVerdicts::~StepVerdicts() = default;

void StepVerdicts::post(std::int64_t iteration, std::int64_t position, const torch::Tensor& loss, bool stopAsked)
{
    auto pending = std::make_unique<Pending>();
    pending->iteration = iteration;
    pending->position = position;
    pending->loss = loss;
    pending->flags = torch::stack({loss.isfinite().logical_not().to(torch::kDouble),
                                   torch::full({}, stopAsked ? 1.0 : 0.0, loss.options().dtype(torch::kDouble))});
    if (m_communicator)
        m_communicator->sum(pending->flags);  // NCCL: ordered on the stream, the host goes on
    if (m_device.is_cuda()) {
        pending->copied = torch::empty({2}, torch::TensorOptions().dtype(torch::kDouble).pinned_memory(true));
        pending->copied.copy_(pending->flags, /*non_blocking=*/true);
        const c10::impl::VirtualGuardImpl guard(m_device.type());
        pending->landed = std::make_unique<c10::Event>(m_device.type());
        pending->landed->record(guard.getStream(m_device));
    }
    m_pending.push_back(std::move(pending));
}

std::optional<StepVerdicts::Verdict> StepVerdicts::take()
{
    if (int(m_pending.size()) <= m_lag)
        return std::nullopt;
    return drain();
}

std::optional<StepVerdicts::Verdict> StepVerdicts::drain()
{
    if (m_pending.empty())
        return std::nullopt;
    auto pending = std::move(m_pending.front());
    m_pending.pop_front();
    return land(*pending);
}

StepVerdicts::Verdict StepVerdicts::land(Pending& pending)
{
    torch::Tensor flags;
    if (pending.landed) {
        // LibTorch 1.13's c10::Event has no synchronize(); the copy is two numbers, queued a step ago.
        while (!pending.landed->query())
            std::this_thread::yield();
        flags = pending.copied;
    } else {
        flags = pending.flags.cpu();
    }
    const auto values = flags.accessor<double, 1>();
    return {pending.iteration, pending.position, values[0] > 0, values[1] > 0, pending.loss};
}

}  // namespace distributed
}  // namespace segstudio::engine
