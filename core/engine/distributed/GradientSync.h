#pragma once

#include "Communicator.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

namespace segstudio::engine {
inline namespace distributed {

// Averages the parameters' gradients over the ranks of a data-parallel run, as
// DistributedDataParallel does. Two implementations with one contract, so they can stand in for
// each other and be tested against each other: PlainGradientSync (one all-reduce after the
// backward pass) and BucketedGradientSync (all-reduces launched during the backward pass).
// Use: beginStep(), loss.backward(), finishStep(); then every parameter's grad holds the mean over
// ranks. With setAccumulating(true) the hooks stay quiet (micro-batches before the last one).
// Requirements: every rank calls with the same parameters in the same order.
class GradientSync {
public:
    struct Event {
        enum class Kind { BucketLaunched, BackwardFinished };
        Kind kind;
        int bucket = -1;
        std::chrono::steady_clock::time_point at;
    };

    virtual ~GradientSync() = default;
    virtual void beginStep() = 0;
    virtual void finishStep() = 0;
    virtual void setAccumulating(bool accumulating) { m_accumulating = accumulating; }
    const std::vector<Event>& events() const { return m_events; }  // of the last step
    virtual std::vector<std::size_t> bucketBytes() const = 0;

protected:
    void record(Event::Kind kind, int bucket = -1)
    {
        m_events.push_back({kind, bucket, std::chrono::steady_clock::now()});
    }

    std::vector<Event> m_events;
    bool m_accumulating = false;
};

// DDP's defaults: 25 MB buckets, the first one 1 MB so communication starts early.
constexpr std::size_t kBucketCapBytes = 25u << 20;
constexpr std::size_t kFirstBucketCapBytes = 1u << 20;

std::unique_ptr<GradientSync> makePlainGradientSync(Communicator& communicator, std::vector<torch::Tensor> parameters);
std::unique_ptr<GradientSync> makeBucketedGradientSync(Communicator& communicator, std::vector<torch::Tensor> parameters,
                                                       std::size_t capBytes = kBucketCapBytes,
                                                       std::size_t firstCapBytes = kFirstBucketCapBytes);

}  // namespace distributed
}  // namespace segstudio::engine
