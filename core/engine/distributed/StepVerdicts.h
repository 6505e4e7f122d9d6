#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

namespace c10 {
struct Event;
}

namespace segstudio::engine {
inline namespace distributed { class Communicator; }

inline namespace distributed {
// The decisions that end a step or the run, agreed by every rank: a non-finite loss anywhere, a
// stop asked anywhere. Each step posts its flags as a device tensor (summed over the ranks); the
// host reads them one step late on a GPU, so the CPU queues step t+1 while the GPU still runs
// step t, instead of waiting for the device at every step (the engine ran the GPU 43 % busy:
// issue 48). On a CPU the flags are read at once (there is nothing to overlap).
// Every rank takes the same verdicts at the same steps, so they part ways at no collective.
// Requirements: one thread; post() then take() in step order.
class StepVerdicts {
public:
    struct Verdict {
        std::int64_t iteration = 0;  // the step's number (finished steps before it)
        std::int64_t position = 0;   // its place in the run's data (Trainer: epoch x batches + batch)
        bool nonFinite = false;      // its loss was NaN/infinite on some rank
        bool stop = false;           // some rank was asked to stop
        torch::Tensor loss;          // the step's mean loss on this rank (0-dim, on the device)
    };

    // lag: steps a verdict may stay unread (0: read at once); the default is 1 on a CUDA device.
    StepVerdicts(torch::Device device, Communicator* communicator, std::optional<int> lag = std::nullopt);
    ~StepVerdicts();

    // Posts a step's flags: its loss (0-dim, on the device) is checked there, stopAsked is this
    // rank's stop request.
    void post(std::int64_t iteration, std::int64_t position, const torch::Tensor& loss, bool stopAsked);
    // The oldest verdict once more than `lag` are unread (waiting for it to land), else none.
    std::optional<Verdict> take();
    // The oldest unread verdict whatever the lag (before a checkpoint, a validation, the end).
    std::optional<Verdict> drain();
    bool empty() const { return m_pending.empty(); }

private:
    struct Pending;
    Verdict land(Pending& pending);

    torch::Device m_device;
    Communicator* m_communicator;
    int m_lag;
    std::deque<std::unique_ptr<Pending>> m_pending;
};

}  // namespace distributed
}  // namespace segstudio::engine
