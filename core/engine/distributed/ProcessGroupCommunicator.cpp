// The one translation unit that includes c10d: its headers change between LibTorch 1.13 and 2.x
// (ProcessGroupGloo derives from ProcessGroup in 1.13 and from Backend in 2.x), so the group is
// held by its concrete type through a template and only Communicator leaves this file.
#include "Communicator.h"
#include "RouteToMaster.h"

#include "engine/runtime/EngineError.h"

#if SEGSTUDIO_HAVE_C10D
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif
#if SEGSTUDIO_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#if SEGSTUDIO_HAVE_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <cstdlib>

namespace segstudio::engine {
inline namespace distributed {

#if SEGSTUDIO_HAVE_C10D
namespace {

template <typename Work>
class PendingWork : public Communicator::Pending {
public:
    PendingWork(c10::intrusive_ptr<Work> work, std::string what) : m_work(std::move(work)), m_what(std::move(what)) {}

    void wait() override
    {
        try {
            m_work->wait();
        } catch (const std::exception& error) {
            const std::string text = error.what();
            // Gloo says "Timed out waiting ...ms", NCCL's blocking wait "... timed out" / "Timeout".
            if (text.find("imed out") != std::string::npos || text.find("imeout") != std::string::npos)
                throw CollectiveTimeout(m_what + " timed out waiting for another rank (hung, stopped or unreachable): " +
                                        text);
            throw EngineError(m_what + " failed: " + text + " (another rank stopped or is unreachable; see its output)");
        }
    }

private:
    c10::intrusive_ptr<Work> m_work;
    std::string m_what;
};

template <typename Group>
class GroupCommunicator : public Communicator {
public:
    GroupCommunicator(c10::intrusive_ptr<Group> group, std::string backend, c10::intrusive_ptr<c10d::Store> store)
        : m_group(std::move(group)), m_backend(std::move(backend)), m_store(std::move(store))
    {
    }

    int rank() const override { return m_group->getRank(); }
    int size() const override { return m_group->getSize(); }
    std::string backend() const override { return m_backend; }

    std::unique_ptr<Pending> allReduceSum(torch::Tensor tensor) override
    {
        std::vector<at::Tensor> tensors{std::move(tensor)};
        return pending(m_group->allreduce(tensors, c10d::AllreduceOptions()), "all-reduce");
    }

    void broadcast(std::vector<torch::Tensor> tensors, int root) override
    {
        for (auto& tensor : tensors) {
            std::vector<at::Tensor> one{tensor};
            c10d::BroadcastOptions options;
            options.rootRank = root;
            pending(m_group->broadcast(one, options), "broadcast")->wait();
        }
    }

    void barrier() override { pending(m_group->barrier(c10d::BarrierOptions()), "barrier")->wait(); }

private:
    template <typename Work>
    std::unique_ptr<Pending> pending(c10::intrusive_ptr<Work> work, const char* what)
    {
        return std::make_unique<PendingWork<Work>>(std::move(work), std::string(what) + " over " + m_backend);
    }

    c10::intrusive_ptr<Group> m_group;
    std::string m_backend;
    c10::intrusive_ptr<c10d::Store> m_store;  // the group keeps a reference too; held for clarity
};

std::string address(const WorldInfo& world) { return world.masterAddr + ":" + std::to_string(world.masterPort); }

std::string text(const std::vector<std::uint8_t>& bytes) { return std::string(bytes.begin(), bytes.end()); }
std::vector<std::uint8_t> bytes(const std::string& text) { return std::vector<std::uint8_t>(text.begin(), text.end()); }

// Every rank checks that the store it reached belongs to its own job (torchrun's --rdzv-id):
// without it a rank of another run on the same port joins this run and trains in it. Rank 0
// claims the store for its job (compare-and-set: a store already claimed keeps its claim), the
// others wait for the claim and compare.
void requireSameJob(c10d::Store& store, const WorldInfo& world)
{
    const std::string key = "segstudio/job_id";
    const std::string mine = "job:" + world.jobId;  // never empty: an unset key reads as empty
    std::string owner = world.rank == 0 ? text(store.compareSet(key, {}, bytes(mine))) : text(store.get(key));
    if (owner == mine) {
        if (world.rank == 0)
            store.set(key, bytes(mine));  // the same value again: set() wakes the ranks waiting in get()
        return;
    }
    const auto name = [](const std::string& id) { return id.size() > 4 ? "'" + id.substr(4) + "'" : std::string("unnamed"); };
    throw EngineError("rendezvous at " + address(world) + " belongs to another job (" + name(owner) + "), not to this one (" +
                      name(mine) + "): two runs use the same --master port; give each run its own port (all nodes of one run "
                      "must name the same job: --job-id)");
}

c10::intrusive_ptr<c10d::Store> rendezvous(const WorldInfo& world, std::chrono::milliseconds timeout)
{
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(world.masterPort);
    // Under torchrun's agent the agent already serves the store on MASTER_PORT: every rank is a
    // client there, in the agent's per-attempt namespace (as torch.distributed does).
    options.isServer = world.rank == 0 && !world.agentStore;
    options.numWorkers = static_cast<std::size_t>(world.worldSize);
    options.waitWorkers = !world.agentStore;
    options.timeout = timeout;
    try {
        c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<c10d::TCPStore>(world.masterAddr, options);
        if (world.agentStore)
            store = c10::make_intrusive<c10d::PrefixStore>("/worker/attempt_" + std::to_string(world.restartCount), store);
        requireSameJob(*store, world);
        // A world-size check of its own: a rank launched for another size must not join.
        const std::string sizeKey = "segstudio/world_size_of_rank0";
        const std::string mySize = std::to_string(world.worldSize);
        if (world.rank == 0)
            store->set(sizeKey, std::vector<std::uint8_t>(mySize.begin(), mySize.end()));
        const auto value = store->get(sizeKey);
        const std::string text(value.begin(), value.end());
        if (text != mySize)
            throw EngineError("rank " + std::to_string(world.rank) + " was launched for a world of " +
                              std::to_string(world.worldSize) + " but rank 0 at " + address(world) + " for " + text);
        return c10::make_intrusive<c10d::PrefixStore>("segstudio", store);
    } catch (const EngineError&) {
        throw;
    } catch (const std::exception& error) {
        throw EngineError("rendezvous at " + address(world) + " failed" +
                          (world.rank == 0 ? " (is the port in use?)" : " (is rank 0 running and reachable?)") + ": " +
                          error.what());
    }
}

#if SEGSTUDIO_HAVE_GLOO
std::shared_ptr<::gloo::transport::Device> glooDevice(const WorldInfo& world)
{
    if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME"))
        return c10d::ProcessGroupGloo::createDeviceForInterface(interface);
    // Not the host name's address (Gloo's default): on many machines that is a loopback address
    // the other hosts cannot reach (found with two hosts in network namespaces, issue 64). A
    // master on loopback (one machine) is reached from loopback.
    const std::string route = routeToMaster(world.masterAddr, world.masterPort);
    if (!route.empty())
        return c10d::ProcessGroupGloo::createDeviceForHostname(route);
    return c10d::ProcessGroupGloo::createDefaultDevice();
}
#endif

}  // namespace
#endif

bool processGroupAvailable(const std::string& backend)
{
    if (backend == "gloo")
        return SEGSTUDIO_HAVE_GLOO != 0;
    if (backend == "nccl")
        return SEGSTUDIO_HAVE_NCCL != 0;
    return false;
}

std::shared_ptr<Communicator> connectProcessGroup(const WorldInfo& world, const std::string& backend,
                                                  std::chrono::milliseconds timeout)
{
    if (!processGroupAvailable(backend))
        throw EngineError("this build of SegStudio has no c10d " + backend +
                          " backend (its LibTorch lacks it; docs/ENGINE.md says how to build with it)");
#if SEGSTUDIO_HAVE_C10D
    auto store = rendezvous(world, timeout);
    try {
#if SEGSTUDIO_HAVE_GLOO
        if (backend == "gloo") {
            auto options = c10d::ProcessGroupGloo::Options::create(timeout);
            options->devices.push_back(glooDevice(world));
            auto group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, world.rank, world.worldSize, options);
            return std::make_shared<GroupCommunicator<c10d::ProcessGroupGloo>>(group, backend, store);
        }
#endif
#if SEGSTUDIO_HAVE_NCCL
        if (backend == "nccl") {
            // Without blocking wait a failed or hung peer surfaces as a watchdog abort, not as an
            // error from wait(): ask for the error (LibTorch 2.x name, then 1.13's).
            setenv("TORCH_NCCL_BLOCKING_WAIT", "1", /*overwrite=*/0);
            setenv("NCCL_BLOCKING_WAIT", "1", /*overwrite=*/0);
            auto options = c10d::ProcessGroupNCCL::Options::create();
            options->timeout = timeout;
            auto group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, world.rank, world.worldSize, options);
            return std::make_shared<GroupCommunicator<c10d::ProcessGroupNCCL>>(group, backend, store);
        }
#endif
    } catch (const std::exception& error) {
        throw EngineError("cannot join the " + backend + " process group of " + std::to_string(world.worldSize) +
                          " ranks at " + address(world) + ": " + error.what());
    }
#endif
    throw EngineError("no c10d " + backend + " backend in this build");
}

}  // namespace distributed
}  // namespace segstudio::engine
