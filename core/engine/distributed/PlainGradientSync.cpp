#include "GradientSync.h"

namespace segstudio::engine {
inline namespace distributed {

namespace {

// The reference: after the backward pass, all gradients flattened into one buffer, summed over
// the ranks in one all-reduce, divided by the world size and copied back.
class PlainGradientSync : public GradientSync {
public:
    PlainGradientSync(Communicator& communicator, std::vector<torch::Tensor> parameters)
        : m_communicator(communicator), m_parameters(std::move(parameters))
    {
    }

    void beginStep() override { m_events.clear(); }

    void finishStep() override
    {
        record(Event::Kind::BackwardFinished);
        if (m_accumulating || m_parameters.empty())
            return;
        std::vector<torch::Tensor> flat;
        for (auto& parameter : m_parameters)
            flat.push_back(parameter.grad().defined() ? parameter.grad().reshape(-1)
                                                      : torch::zeros({parameter.numel()}, parameter.options()));
        auto buffer = torch::cat(flat);
        record(Event::Kind::BucketLaunched, 0);
        m_communicator.sum(buffer);
        buffer.div_(double(m_communicator.size()));
        std::int64_t offset = 0;
        for (auto& parameter : m_parameters) {
            auto slice = buffer.narrow(0, offset, parameter.numel()).view(parameter.sizes());
            if (!parameter.grad().defined())
                parameter.mutable_grad() = torch::empty_like(parameter);
            parameter.mutable_grad().copy_(slice);
            offset += parameter.numel();
        }
    }

    std::vector<std::size_t> bucketBytes() const override
    {
        std::size_t bytes = 0;
        for (const auto& parameter : m_parameters)
            bytes += std::size_t(parameter.numel()) * parameter.element_size();
        return {bytes};
    }

private:
    Communicator& m_communicator;
    std::vector<torch::Tensor> m_parameters;
};

}  // namespace

std::unique_ptr<GradientSync> makePlainGradientSync(Communicator& communicator, std::vector<torch::Tensor> parameters)
{
    return std::make_unique<PlainGradientSync>(communicator, std::move(parameters));
}

}  // namespace distributed
}  // namespace segstudio::engine
