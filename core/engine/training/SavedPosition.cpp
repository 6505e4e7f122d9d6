#include "SavedPosition.h"

#include <algorithm>

namespace segstudio::engine {
inline namespace training {

SavedPosition SavedPosition::read(const nlohmann::json& state, int world, int valEpochs)
{
    SavedPosition position;
    position.epoch = state.at("epoch").get<int>();
    // A resume goes on counting from the last validation (a run stopped every few epochs must
    // still validate); a checkpoint from before the count was kept: the last multiple.
    position.lastValidatedEpoch =
        state.value("lastValidatedEpoch", position.epoch - position.epoch % std::max(1, valEpochs));
    position.batchInEpoch = state.at("batchInEpoch").get<std::int64_t>();
    // Another world size splits an epoch into another number of batches: continue after the
    // same number of samples (rounded down: a few may be seen twice, none skipped).
    const int savedWorld = state.value("worldSize", 1);
    if (savedWorld != world)
        position.batchInEpoch = position.batchInEpoch * savedWorld / std::max(1, world);
    position.iteration = state.at("iteration").get<std::int64_t>();
    position.bestMeanIoU = state.value("bestMeanIoU", -1.0);
    position.elapsedSeconds = state.value("elapsedSeconds", 0.0);
    return position;
}

void SavedPosition::write(nlohmann::json& state, int world) const
{
    state["epoch"] = epoch;
    state["batchInEpoch"] = batchInEpoch;
    state["worldSize"] = world;
    state["iteration"] = iteration;
    state["lastValidatedEpoch"] = lastValidatedEpoch;
    state["bestMeanIoU"] = bestMeanIoU;
    state["elapsedSeconds"] = elapsedSeconds;
}

}  // namespace training
}  // namespace segstudio::engine
