#pragma once

#include "pack/PackReader.h"

#include <torch/torch.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace segstudio::engine {
inline namespace input {

// A batch as it sits in host memory: straight copies of pack records, no decoding.
struct HostBatch {
    torch::Tensor images;  // N x H x W x 3 uint8 RGB (undefined: Options::copyImages off)
    torch::Tensor labels;  // N x H x W uint8, 255 = unlabelled (undefined: Options::copyLabels off)
    std::vector<std::int64_t> records;  // the pack records of the batch, in order
    std::int64_t index = 0;  // batch number within its epoch
    std::int64_t size() const { return std::int64_t(records.size()); }
};

// Gathers batches from a memory-mapped pack on a background thread, prefetch batches ahead, into
// pinned memory when the consumer trains on CUDA. The order of an epoch is a permutation drawn
// from (seed, epoch) alone, so a resumed run sees exactly the batches an uninterrupted one would.
// Requirements: the PackReader outlives the loader; start() and next() from one thread.
// Guarantees: next() returns the batches of the started epoch in order, then std::nullopt.
class BatchLoader {
public:
    struct Options {
        int batchSize = 4;
        bool shuffle = true;
        bool dropLast = true;  // training drops a final partial batch, as the recipe does
        std::uint64_t seed = 1;
        bool pinMemory = false;
        int prefetch = 2;
        int rank = 0;  // data parallel: this rank takes every worldSize-th sample of the order
        int worldSize = 1;
        // Pad the order by wrapping around to a multiple of worldSize (PyTorch's
        // DistributedSampler), so every rank has the same number of batches; validation leaves
        // it off, so no image is counted twice.
        bool padToEqual = true;
        torch::Device device{torch::kCPU};  // the training device: pinned buffers belong to its GPU
        // Off when the pack is on the device already (DeviceResidentPack): the batch names its
        // records, and holds the labels only where the host needs them (class-uniform crops).
        bool copyImages = true;
        bool copyLabels = true;
    };

    BatchLoader(const pack::PackReader& reader, Options options);
    ~BatchLoader();
    BatchLoader(const BatchLoader&) = delete;
    BatchLoader& operator=(const BatchLoader&) = delete;

    std::int64_t batchesPerEpoch() const;
    std::vector<std::int64_t> epochOrder(int epoch) const;

    // Starts producing the batches of epoch from batch firstBatch on.
    void start(int epoch, std::int64_t firstBatch = 0);
    std::optional<HostBatch> next();
    void stop();

private:
    void produce(std::vector<std::int64_t> order, std::int64_t firstBatch, std::int64_t batchCount);
    HostBatch gather(const std::vector<std::int64_t>& order, std::int64_t batch) const;

    const pack::PackReader& m_reader;
    Options m_options;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<HostBatch> m_queue;
    bool m_finished = true;
    std::atomic<bool> m_stop{false};
    std::string m_error;
};

}  // namespace input
}  // namespace segstudio::engine
