#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>

namespace segstudio::engine {
inline namespace training {

// Where a run stands, as its checkpoint's state records it (issue 65.1, out of Trainer): the next
// batch of which epoch, the steps done, the last validated epoch, the best validation and the
// training time so far, and the world size that split the epochs into batches.
// Guarantees: read(write(p)) == p at the same world size; at another world size the position in
// the epoch is the same number of samples (rounded down: a few may be seen twice, none skipped);
// a state from before a key was kept reads its default (the last validated epoch: the last
// multiple of the validation period). nlohmann::json::exception for a damaged state.
struct SavedPosition {
    int epoch = 0;                 // the epoch the next batch belongs to (0-based)
    std::int64_t batchInEpoch = 0;
    std::int64_t iteration = 0;    // steps done
    int lastValidatedEpoch = 0;
    double bestMeanIoU = -1.0;
    double elapsedSeconds = 0.0;

    static SavedPosition read(const nlohmann::json& state, int world, int valEpochs);
    void write(nlohmann::json& state, int world) const;
};

}  // namespace training
}  // namespace segstudio::engine
