#pragma once

#include "engine/models/SegmentationModel.h"

#include <nlohmann/json.hpp>

#include <torch/torch.h>

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace segstudio::engine {
inline namespace training { class CheckpointSnapshot; }

inline namespace training {
// Writes checkpoints off the training thread: write() copies what the file will hold to host
// memory (CheckpointSnapshot) and returns; serialising, the checksum and the durable write
// (Checkpoint::save: atomic, fsynced) run on the writer's thread. On a GPU SegNet's 236 MB
// checkpoint held the step up for 1.67 s, 57 s of the 278-s recipe (docs/SCALING.md).
// Guarantees: at most one write in flight (write() first waits for the one before); the files are
// exactly what Checkpoint::save writes; a write's error (a full disk: run::FileError naming the
// file) is rethrown on the training thread by the next write() or wait(), once. An optimiser whose
// state cannot be copied is saved on the calling thread, as before.
class CheckpointWriter {
public:
    using SnapshotFactory = std::function<std::unique_ptr<CheckpointSnapshot>()>;
    // makeSnapshot: called once, on the first write(), on the calling thread.
    // beforeWrite (tests): called on the writer's thread before each background write.
    explicit CheckpointWriter(SnapshotFactory makeSnapshot, std::function<void()> beforeWrite = {});
    ~CheckpointWriter();  // waits for the write in flight; its error, if any, is dropped
    CheckpointWriter(const CheckpointWriter&) = delete;
    CheckpointWriter& operator=(const CheckpointWriter&) = delete;

    void write(const std::string& path, SegmentationModelImpl& model, const torch::optim::Optimizer* optimizer,
               nlohmann::json state, const std::vector<torch::Tensor>* average);
    // Returns when no write is in flight; rethrows the error of the one that failed.
    void wait();
    // Seconds the last finished write took on the writer's thread (0 before the first).
    double lastWriteSeconds() const;

private:
    void startThread();
    void work();
    void waitIdle(std::unique_lock<std::mutex>& lock);

    SnapshotFactory m_makeSnapshot;
    std::function<void()> m_beforeWrite;
    std::unique_ptr<CheckpointSnapshot> m_snapshot;
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::string m_path;  // the write in flight; empty when idle
    bool m_quit = false;
    std::exception_ptr m_error;
    double m_lastWriteSeconds = 0.0;
};

}  // namespace training
}  // namespace segstudio::engine
