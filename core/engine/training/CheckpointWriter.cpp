#include "CheckpointWriter.h"

#include "engine/models/Checkpoint.h"
#include "CheckpointSnapshot.h"

#include <chrono>

namespace segstudio::engine {
inline namespace training {

CheckpointWriter::CheckpointWriter(SnapshotFactory makeSnapshot, std::function<void()> beforeWrite)
    : m_makeSnapshot(std::move(makeSnapshot)), m_beforeWrite(std::move(beforeWrite))
{
}

CheckpointWriter::~CheckpointWriter()
{
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        waitIdle(lock);
        m_quit = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void CheckpointWriter::write(const std::string& path, SegmentationModelImpl& model,
                             const torch::optim::Optimizer* optimizer, nlohmann::json state,
                             const std::vector<torch::Tensor>* average)
{
    wait();  // one in flight: the snapshot's memory is reused
    if (optimizer && !CheckpointSnapshot::canCopy(*optimizer)) {
        Checkpoint::save(path, model, optimizer, state, average);
        return;
    }
    if (!m_snapshot)
        m_snapshot = m_makeSnapshot();
    m_snapshot->capture(model, optimizer, std::move(state), average);
    startThread();
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_path = path;
    }
    m_changed.notify_all();
}

void CheckpointWriter::wait()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    waitIdle(lock);
    if (m_error)
        std::rethrow_exception(std::exchange(m_error, nullptr));
}

double CheckpointWriter::lastWriteSeconds() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_lastWriteSeconds;
}

void CheckpointWriter::waitIdle(std::unique_lock<std::mutex>& lock)
{
    m_changed.wait(lock, [this] { return m_path.empty(); });
}

void CheckpointWriter::startThread()
{
    if (!m_thread.joinable())
        m_thread = std::thread([this] { work(); });
}

void CheckpointWriter::work()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [this] { return m_quit || !m_path.empty(); });
        if (m_path.empty())
            return;  // quit, nothing in flight
        const std::string path = m_path;
        lock.unlock();
        const auto started = std::chrono::steady_clock::now();
        std::exception_ptr error;
        try {
            if (m_beforeWrite)
                m_beforeWrite();
            m_snapshot->save(path);
        } catch (...) {
            error = std::current_exception();
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        lock.lock();
        m_error = error;
        m_lastWriteSeconds = seconds;
        m_path.clear();
        m_changed.notify_all();
    }
}

}  // namespace training
}  // namespace segstudio::engine
