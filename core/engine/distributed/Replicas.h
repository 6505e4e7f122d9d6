#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace segstudio::engine {
inline namespace distributed { class Communicator; }

inline namespace distributed {
// What the ranks of a data-parallel run agree on, as one process sees it: sums over the ranks,
// whether any rank says yes, rank 0's values, the batch-norm statistics averaged, rank 0's weights
// at the start, and which values differ from rank 0's. Without a communicator (one process) each
// is the identity, with no tensor work: the process is all the ranks there are.
// Requirements: every rank makes the same calls in the same order (each is a collective), on the
// training thread; the communicator outlives it.
// Guarantees: results are on the host (the models' tensors stay where they are) and the same on
// every rank; the values travel through the training device (NCCL reduces CUDA tensors only).
class Replicas {
public:
    Replicas(Communicator* communicator, torch::Device device);

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    bool leader() const { return m_rank == 0; }

    double sum(double value) const;
    // A CPU double tensor summed element by element over the ranks.
    torch::Tensor sum(torch::Tensor values) const;
    bool any(bool flag) const;
    // Rank 0's values, on every rank (the others' are ignored).
    std::vector<double> leaders(const std::vector<double>& values) const;
    // size() rows: row r holds rank r's values (all rows as long as this rank's).
    torch::Tensor rows(const std::vector<double>& mine) const;
    // For each value, how many ranks hold another one than rank 0.
    std::vector<std::int64_t> differingFromLeader(const std::vector<std::int64_t>& values) const;

    // Batch norm's running statistics (floating-point buffers) averaged over the ranks.
    void averageBuffers(torch::nn::Module& model) const;
    // Rank 0's parameters and buffers, copied into every rank's model.
    void broadcastFromLeader(torch::nn::Module& model) const;

private:
    Communicator* m_communicator;
    torch::Device m_device;
    int m_rank = 0;
    int m_size = 1;
};

}  // namespace distributed
}  // namespace segstudio::engine
