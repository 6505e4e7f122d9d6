#pragma once

#include <filesystem>
#include <optional>

namespace segstudio::run {

// The files of a run folder, named in one place (docs/ENGINE.md, "Run folder"):
//   config.json          the training configuration (written at start and on resume)
//   metrics.jsonl        one JSON record per line (MetricsRecord): run, state, train, val, system
//   log.txt              what the trainer printed
//   checkpoints/last.pt  written at the end of epochs and on stop; --resume continues from it
//   checkpoints/best.pt  the best validation mIoU so far
//   train.pack, val.pack the packed splits, when the GUI started the run
//   trainer.lock         flock()ed by the trainer that writes the folder (RunLock), naming it
class RunLayout {
public:
    explicit RunLayout(std::filesystem::path runDir) : m_dir(std::move(runDir)) {}

    const std::filesystem::path& dir() const { return m_dir; }
    std::filesystem::path configFile() const { return m_dir / "config.json"; }
    std::filesystem::path metricsFile() const { return m_dir / "metrics.jsonl"; }
    std::filesystem::path logFile() const { return m_dir / "log.txt"; }
    std::filesystem::path checkpointsFolder() const { return m_dir / "checkpoints"; }
    std::filesystem::path lastCheckpoint() const { return checkpointsFolder() / "last.pt"; }
    std::filesystem::path bestCheckpoint() const { return checkpointsFolder() / "best.pt"; }
    std::filesystem::path trainPack() const { return m_dir / "train.pack"; }
    std::filesystem::path valPack() const { return m_dir / "val.pack"; }
    std::filesystem::path lockFile() const { return m_dir / "trainer.lock"; }

    // A run stands for its best checkpoint, or its last one when it never validated.
    std::filesystem::path checkpointToUse() const;
    // A checkpoint file stands for itself, a run folder for checkpointToUse().
    static std::filesystem::path resolveCheckpoint(const std::filesystem::path& fileOrRunDir);
    bool canResume() const;  // it holds checkpoints/last.pt
    // What a new run must not write beside, so that `train -o` never overwrites or mixes with a
    // person's files: the first entry of the folder that is not the layout's own (the packs the
    // Train dialog put there, the lock, an empty checkpoints/, or what a run killed before its
    // first checkpoint left: a config.json that is a SegStudio training configuration, a
    // metrics.jsonl of SegStudio's records, its log.txt). nullopt for a new or empty folder.
    std::optional<std::filesystem::path> foreignEntry() const;

private:
    std::filesystem::path m_dir;
};

}  // namespace segstudio::run
