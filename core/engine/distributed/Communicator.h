#pragma once

#include "Distributed.h"

#include <torch/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace segstudio::engine {
inline namespace distributed {

// The collectives a data-parallel run needs, over one c10d process group (Gloo on CPUs, NCCL on
// GPUs; ProcessGroupCommunicator.cpp is the only file that includes c10d). Every rank must make
// the same calls in the same order. Operations run on the tensors' device; sums are in place.
// Guarantees: a peer that died or stopped answering makes the pending call throw EngineError
//   within the group's timeout, naming the collective.
class Communicator {
public:
    class Pending {
    public:
        virtual ~Pending() = default;
        virtual void wait() = 0;  // throws EngineError when the collective failed
    };

    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    virtual std::string backend() const = 0;
    virtual std::unique_ptr<Pending> allReduceSum(torch::Tensor tensor) = 0;  // starts it
    virtual void broadcast(std::vector<torch::Tensor> tensors, int root) = 0;
    virtual void barrier() = 0;

    void sum(torch::Tensor tensor) { allReduceSum(std::move(tensor))->wait(); }
};

}  // namespace distributed
}  // namespace segstudio::engine
