#include "Replicas.h"

#include "Communicator.h"

namespace segstudio::engine {
inline namespace distributed {

Replicas::Replicas(Communicator* communicator, torch::Device device) : m_communicator(communicator), m_device(device)
{
    if (m_communicator) {
        m_rank = m_communicator->rank();
        m_size = m_communicator->size();
    }
}

double Replicas::sum(double value) const
{
    if (!m_communicator)
        return value;
    auto shared = torch::tensor(value, torch::kDouble).to(m_device);
    m_communicator->sum(shared);
    return shared.cpu().item<double>();
}

torch::Tensor Replicas::sum(torch::Tensor values) const
{
    if (!m_communicator)
        return values;
    values = values.to(m_device);
    m_communicator->sum(values);
    return values.cpu();
}

bool Replicas::any(bool flag) const
{
    return sum(flag ? 1.0 : 0.0) > 0.0;
}

std::vector<double> Replicas::leaders(const std::vector<double>& values) const
{
    if (!m_communicator)
        return values;
    // A sum to which only rank 0 contributes: the others' values are zeros.
    auto shared = torch::tensor(leader() ? values : std::vector<double>(values.size(), 0.0), torch::kDouble);
    shared = sum(shared).contiguous();
    return {shared.data_ptr<double>(), shared.data_ptr<double>() + shared.numel()};
}

torch::Tensor Replicas::rows(const std::vector<double>& mine) const
{
    auto table = torch::zeros({m_size, std::int64_t(mine.size())}, torch::kDouble);
    for (std::size_t column = 0; column < mine.size(); ++column)
        table[m_rank][std::int64_t(column)] = mine[column];
    return sum(table);  // every other row is zero here: the sum gathers them
}

std::vector<std::int64_t> Replicas::differingFromLeader(const std::vector<std::int64_t>& values) const
{
    if (!m_communicator)
        return std::vector<std::int64_t>(values.size(), 0);
    // Every rank compares its values with rank 0's; the sum of the differences counts them.
    const auto mine = torch::tensor(values, torch::kLong).to(m_device);
    auto leaders = mine.clone();
    m_communicator->broadcast({leaders}, 0);
    auto differs = mine.ne(leaders).to(torch::kLong);
    m_communicator->sum(differs);
    differs = differs.cpu().contiguous();
    return {differs.data_ptr<std::int64_t>(), differs.data_ptr<std::int64_t>() + differs.numel()};
}

void Replicas::averageBuffers(torch::nn::Module& model) const
{
    // Batch norm keeps per-replica batch statistics in training; its running statistics are
    // averaged over the ranks before they are used (validation) or saved (checkpoints).
    if (!m_communicator)
        return;
    torch::NoGradGuard noGrad;
    for (auto& buffer : model.buffers()) {
        if (!buffer.is_floating_point())
            continue;  // num_batches_tracked is the same everywhere
        auto contiguous = buffer.contiguous();
        m_communicator->sum(contiguous);
        buffer.copy_(contiguous.div_(double(m_size)));
    }
}

void Replicas::broadcastFromLeader(torch::nn::Module& model) const
{
    if (!m_communicator)
        return;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> state;
    for (auto& parameter : model.parameters())
        state.push_back(parameter.data());
    for (auto& buffer : model.buffers())
        state.push_back(buffer);
    m_communicator->broadcast(state, 0);
}

}  // namespace distributed
}  // namespace segstudio::engine
