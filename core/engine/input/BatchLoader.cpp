#include "BatchLoader.h"

#include "engine/runtime/Runtime.h"

#include "engine/runtime/EngineError.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

namespace segstudio::engine {
inline namespace input {

BatchLoader::BatchLoader(const pack::PackReader& reader, Options options)
    : m_reader(reader)
    , m_options(options)
{
    if (m_options.batchSize < 1 || m_options.prefetch < 1)
        throw EngineError("BatchLoader: batch size and prefetch must be positive");
}

BatchLoader::~BatchLoader()
{
    stop();
}

std::int64_t BatchLoader::batchesPerEpoch() const
{
    const std::int64_t samples = std::int64_t(epochOrder(0).size());
    return m_options.dropLast ? samples / m_options.batchSize
                              : (samples + m_options.batchSize - 1) / m_options.batchSize;
}

std::vector<std::int64_t> BatchLoader::epochOrder(int epoch) const
{
    std::vector<std::int64_t> all(m_reader.size());
    std::iota(all.begin(), all.end(), 0);
    if (m_options.shuffle) {
        // Seeded from (seed, epoch) only: the order never depends on how the run got here.
        std::mt19937_64 random(m_options.seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(epoch) + 1);
        for (std::size_t i = all.size(); i > 1; --i)  // Fisher-Yates, identical on every standard library
            std::swap(all[i - 1], all[random() % i]);
    }
    const std::size_t world = std::size_t(m_options.worldSize);
    if (m_options.padToEqual && world > 1 && !all.empty()) {
        const std::size_t samples = all.size();
        for (std::size_t i = 0; all.size() % world != 0; ++i)
            all.push_back(all[i % samples]);
    }
    std::vector<std::int64_t> mine;
    for (std::size_t i = std::size_t(m_options.rank); i < all.size(); i += world)
        mine.push_back(all[i]);
    return mine;
}

void BatchLoader::start(int epoch, std::int64_t firstBatch)
{
    stop();
    m_stop = false;
    m_finished = false;
    m_error.clear();
    m_thread = std::thread(&BatchLoader::produce, this, epochOrder(epoch), firstBatch, batchesPerEpoch());
}

void BatchLoader::produce(std::vector<std::int64_t> order, std::int64_t firstBatch, std::int64_t batchCount)
{
    makeCurrentDevice(m_options.device);
    try {
        for (std::int64_t batch = firstBatch; batch < batchCount && !m_stop; ++batch) {
            HostBatch ready = gather(order, batch);
            std::unique_lock<std::mutex> lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stop || int(m_queue.size()) < m_options.prefetch; });
            if (m_stop)
                break;
            m_queue.push_back(std::move(ready));
            m_changed.notify_all();
        }
    } catch (const std::exception& error) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_error = error.what();
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    m_finished = true;
    m_changed.notify_all();
}

HostBatch BatchLoader::gather(const std::vector<std::int64_t>& order, std::int64_t batch) const
{
    const auto& spec = m_reader.spec();
    const std::int64_t begin = batch * m_options.batchSize;
    const std::int64_t count = std::min<std::int64_t>(m_options.batchSize, std::int64_t(order.size()) - begin);
    const auto options = torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(m_options.pinMemory);
    HostBatch result;
    result.index = batch;
    result.records.assign(order.begin() + begin, order.begin() + begin + count);
    if (m_options.copyImages) {
        result.images = torch::empty({count, spec.height, spec.width, spec.channels}, options);
        auto* images = result.images.data_ptr<std::uint8_t>();
        for (std::int64_t i = 0; i < count; ++i)
            std::memcpy(images + i * spec.imageBytes(), m_reader.image(std::size_t(result.records[i])), spec.imageBytes());
    }
    if (m_options.copyLabels) {
        result.labels = torch::empty({count, spec.height, spec.width}, options);
        auto* labels = result.labels.data_ptr<std::uint8_t>();
        for (std::int64_t i = 0; i < count; ++i)
            std::memcpy(labels + i * spec.labelBytes(), m_reader.label(std::size_t(result.records[i])), spec.labelBytes());
    }
    return result;
}

std::optional<HostBatch> BatchLoader::next()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return !m_queue.empty() || m_finished; });
    if (!m_error.empty())
        throw EngineError(m_reader.path() + ": " + m_error);
    if (m_queue.empty())
        return std::nullopt;
    HostBatch batch = std::move(m_queue.front());
    m_queue.pop_front();
    m_changed.notify_all();
    return batch;
}

void BatchLoader::stop()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
        m_changed.notify_all();
    }
    if (m_thread.joinable())
        m_thread.join();
    m_queue.clear();
}

}  // namespace input
}  // namespace segstudio::engine
