#pragma once

#include <map>
#include <string>

namespace segstudio::engine {
inline namespace runtime {

// Where this process stands in a data-parallel run, as its launcher said: segstudio-train's own
// (--nproc, --gpus), torchrun, SLURM's srun or mpirun. Never read from config.json or a
// checkpoint: a resumed process is whatever rank its launch makes it.
struct WorldInfo {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;  // the device index on this machine
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    std::string launcher = "none";  // segstudio | torchrun | slurm | mpi | none
    // torchrun's agent serves the rendezvous store itself (TORCHELASTIC_USE_AGENT_STORE), and so
    // does segstudio-train's launcher (SEGSTUDIO_LAUNCHER_STORE): join it as a client under
    // /worker/attempt_<restartCount>.
    bool agentStore = false;
    int restartCount = 0;
    // segstudio-train's launcher forms a process group even for one worker (--gpus 1), so the
    // data-parallel path can be measured against the plain one.
    bool forceGroup = false;
    // The job this rank belongs to, checked by every rank at the rendezvous so that a rank of
    // another job on the same port is refused (torchrun's --rdzv-id): SEGSTUDIO_JOB_ID (the
    // launcher's), else TORCHELASTIC_RUN_ID, else SLURM_JOB_ID; empty when no launcher names one.
    std::string jobId;

    bool distributed() const { return worldSize > 1 || forceGroup; }
};

// Reads the launch variables from `environment` (name -> value): RANK, WORLD_SIZE, LOCAL_RANK,
// MASTER_ADDR, MASTER_PORT (segstudio-train's workers and torchrun); SLURM_PROCID, SLURM_NTASKS,
// SLURM_LOCALID; OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK or PMI_RANK/PMI_SIZE; the job id (above). Without MASTER_ADDR,
// a SLURM job's master is the first host of SLURM_JOB_NODELIST (SLURM_NODELIST). Throws EngineError
// naming the variable when a value is not a number or out of range.
WorldInfo worldFromEnvironment(const std::map<std::string, std::string>& environment);
WorldInfo worldFromEnvironment();  // this process's environment

// The first host of a SLURM node list: "gpu[03-05,09],cpu1" -> "gpu03".
std::string firstHostOfNodeList(const std::string& nodeList);

// The device of one rank: "auto" and "cuda" become cuda:<localRank> when CUDA is there (else
// cpu); an explicit device stays. The backend follows the device: NCCL on CUDA, Gloo on CPU.
std::string deviceForRank(const std::string& requested, int localRank);
std::string backendForDevice(const std::string& device);

// A TCP port nobody listens on at `address` now (the kernel's pick), for a rendezvous on one
// machine; 29500 when none can be had.
int freeTcpPort(const std::string& address = "127.0.0.1");

}  // namespace runtime
}  // namespace segstudio::engine
