#include "GradientSync.h"

#include <algorithm>
#include <mutex>

namespace segstudio::engine {
inline namespace distributed {

namespace {

// DistributedDataParallel's reducer, reduced to what this engine needs: parameters in reverse
// order (the order the backward pass produces their gradients) are packed into flat buckets of
// about capBytes; a hook on each parameter copies its gradient into the bucket as soon as
// autograd has it, and the bucket's all-reduce starts asynchronously when its last gradient
// arrived, so communication runs while the backward pass computes the earlier layers.
// finishStep() launches any bucket a parameter without a gradient held back, waits for all and
// writes the means into the parameters' grads. Registration order is only a guess at the order
// gradients come in (a model may register its classifier first); as DDP does, the buckets are
// rebuilt once, after the first step, in the order the gradients really arrived on rank 0.
class BucketedGradientSync : public GradientSync {
public:
    BucketedGradientSync(Communicator& communicator, std::vector<torch::Tensor> parameters, std::size_t capBytes,
                         std::size_t firstCapBytes)
        : m_communicator(communicator), m_parameters(std::move(parameters)), m_capBytes(capBytes), m_firstCapBytes(firstCapBytes)
    {
        std::vector<std::size_t> reverse;
        for (std::size_t k = m_parameters.size(); k-- > 0;)
            reverse.push_back(k);
        buildBuckets(reverse);
        for (std::size_t i = 0; i < m_parameters.size(); ++i)
            m_hooks.push_back(m_parameters[i].register_hook([this, i](const torch::Tensor& grad) { onGradient(i, grad); }));
    }

    ~BucketedGradientSync() override
    {
        for (std::size_t i = 0; i < m_parameters.size(); ++i)
            m_parameters[i].remove_hook(m_hooks[i]);
    }

    void beginStep() override
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_events.clear();
        for (auto& bucket : m_buckets) {
            bucket.ready = 0;
            bucket.pending.reset();
        }
        for (auto& slot : m_slots)
            slot.ready = false;
    }

    void finishStep() override
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            record(Event::Kind::BackwardFinished);
            if (m_accumulating)
                return;
            // A parameter that got no gradient this step (unused) contributes its current grad
            // or zeros, so every rank still launches every bucket.
            for (std::size_t i = 0; i < m_slots.size(); ++i) {
                if (m_slots[i].ready)
                    continue;
                const auto& grad = m_parameters[i].grad();
                slice(i).copy_(grad.defined() ? grad.reshape(-1) : torch::zeros_like(slice(i)));
                markReady(i);
            }
        }
        const double world = double(m_communicator.size());
        for (auto& bucket : m_buckets) {
            bucket.pending->wait();
            bucket.buffer.div_(world);
        }
        for (std::size_t i = 0; i < m_parameters.size(); ++i) {
            auto& parameter = m_parameters[i];
            if (!parameter.grad().defined())
                parameter.mutable_grad() = torch::empty_like(parameter);
            parameter.mutable_grad().copy_(slice(i).view(parameter.sizes()));
        }
        if (!m_rebuilt)
            rebuildInArrivalOrder();
    }

    std::vector<std::size_t> bucketBytes() const override
    {
        std::vector<std::size_t> bytes;
        for (const auto& bucket : m_buckets)
            bytes.push_back(std::size_t(bucket.buffer.numel()) * bucket.buffer.element_size());
        return bytes;
    }

private:
    struct Bucket {
        torch::Tensor buffer;
        std::size_t size = 0;  // parameters in it
        std::size_t ready = 0;
        std::unique_ptr<Communicator::Pending> pending;
    };
    struct Slot {
        std::size_t bucket = 0;
        std::int64_t offset = 0;
        bool ready = false;
    };

    // Rank 0's arrival order for everyone: all ranks must bucket alike.
    void rebuildInArrivalOrder()
    {
        m_rebuilt = true;
        std::vector<std::int64_t> order(m_arrival.begin(), m_arrival.end());
        for (std::size_t k = m_parameters.size(); k-- > 0;)
            if (std::find(m_arrival.begin(), m_arrival.end(), k) == m_arrival.end())
                order.push_back(std::int64_t(k));
        auto shared = torch::tensor(order, torch::kLong);
        if (m_parameters.front().is_cuda())
            shared = shared.to(m_parameters.front().device());
        m_communicator.broadcast({shared}, 0);
        shared = shared.cpu();
        std::vector<std::size_t> agreed;
        for (std::int64_t k = 0; k < shared.numel(); ++k)
            agreed.push_back(std::size_t(shared[k].item<std::int64_t>()));
        m_buckets.clear();
        buildBuckets(agreed);
    }

    // Parameters in `order` fill buckets; a bucket closes before a parameter that would take it
    // past its cap (a parameter larger than the cap gets a bucket of its own).
    void buildBuckets(const std::vector<std::size_t>& order)
    {
        m_slots.assign(m_parameters.size(), Slot{});
        std::int64_t elements = 0;
        std::size_t bytes = 0;
        std::size_t count = 0;
        for (const std::size_t k : order) {
            const std::size_t parameterBytes = std::size_t(m_parameters[k].numel()) * m_parameters[k].element_size();
            const std::size_t cap = m_buckets.empty() ? m_firstCapBytes : m_capBytes;
            if (count > 0 && bytes + parameterBytes > cap) {
                closeBucket(elements, count);
                elements = 0;
                bytes = 0;
                count = 0;
            }
            m_slots[k] = {m_buckets.size(), elements, false};
            elements += m_parameters[k].numel();
            bytes += parameterBytes;
            ++count;
        }
        if (count > 0)
            closeBucket(elements, count);
    }

    void closeBucket(std::int64_t elements, std::size_t count)
    {
        Bucket bucket;
        bucket.buffer = torch::zeros({elements}, m_parameters.front().options().requires_grad(false));
        bucket.size = count;
        m_buckets.push_back(std::move(bucket));
    }

    torch::Tensor slice(std::size_t i)
    {
        const auto& parameter = m_parameters[i];
        return m_buckets[m_slots[i].bucket].buffer.narrow(0, m_slots[i].offset, parameter.numel());
    }

    void onGradient(std::size_t i, const torch::Tensor& grad)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_accumulating || m_slots[i].ready)
            return;
        // The hook sees the gradient before it is added to .grad: include what earlier
        // micro-batches accumulated there.
        torch::NoGradGuard noGrad;
        auto target = slice(i);
        target.copy_(grad.reshape(-1));
        const auto& accumulated = m_parameters[i].grad();
        if (accumulated.defined())
            target.add_(accumulated.reshape(-1));
        if (!m_rebuilt)
            m_arrival.push_back(i);
        markReady(i);
    }

    void markReady(std::size_t i)
    {
        m_slots[i].ready = true;
        Bucket& bucket = m_buckets[m_slots[i].bucket];
        if (++bucket.ready == bucket.size) {
            record(Event::Kind::BucketLaunched, int(m_slots[i].bucket));
            bucket.pending = m_communicator.allReduceSum(bucket.buffer);
        }
    }

    Communicator& m_communicator;
    std::vector<torch::Tensor> m_parameters;
    std::vector<unsigned> m_hooks;
    std::vector<Bucket> m_buckets;
    std::vector<Slot> m_slots;
    std::size_t m_capBytes;
    std::size_t m_firstCapBytes;
    std::vector<std::size_t> m_arrival;  // parameter indices as their gradients came, first step
    bool m_rebuilt = false;
    std::mutex m_mutex;
};

}  // namespace

std::unique_ptr<GradientSync> makeBucketedGradientSync(Communicator& communicator, std::vector<torch::Tensor> parameters,
                                                       std::size_t capBytes, std::size_t firstCapBytes)
{
    return std::make_unique<BucketedGradientSync>(communicator, std::move(parameters), capBytes, firstCapBytes);
}

}  // namespace distributed
}  // namespace segstudio::engine
