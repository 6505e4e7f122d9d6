#pragma once

#include <string>
#include <vector>

namespace segstudio::cli {

// What `segstudio-train train --nproc/--gpus/--devices/--nnodes` asks for on this machine.
struct LaunchPlan {
    std::vector<std::string> devices;  // one worker per entry: "cpu" or "cuda:K"
    int nnodes = 1;
    int nodeRank = 0;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 0;  // 0: a free port (one machine only)
    int timeoutSeconds = 300;
    std::string runDir;  // node 0 locks it for its workers (RunLock); the --resume hint names it
    std::string jobId;   // every rank checks it at the rendezvous; empty: a fresh one (one machine)

    // Any explicit --nproc/--gpus/--devices launches workers, one included: a world of one still
    // forms a process group, so the synchronisation's cost can be measured against a plain run.
    bool wanted() const { return !devices.empty(); }
};

// Starts one worker per device, each this same program with the same arguments and the launch
// variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT, SEGSTUDIO_LAUNCHER), and
// forwards their output line by line: rank 0's as it is on stdout, the others' on stderr behind
// "[rank K] ". Node 0 serves the rendezvous store itself (RendezvousHost) and holds the run
// folder's lock for its workers. A worker that fails, or cannot be started, stops the others.
// SIGINT/SIGTERM, at any moment and as often as it comes, is passed on as SIGTERM: the workers
// agree to stop and rank 0 checkpoints; a worker still starting up simply ends. Workers get
// SIGTERM when the launcher dies (PR_SET_PDEATHSIG): they stop the same way, and none is left.
// Returns the exit code: 0 when every worker finished, 130 when stopped, else the failure's, and
// prints which rank failed and how.
int launchWorkers(const LaunchPlan& plan, const std::vector<std::string>& arguments);

}  // namespace segstudio::cli
