#include "WorkerLauncher.h"

#include "Commands.h"

#include "engine/Distributed.h"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <thread>

namespace segstudio::cli {

namespace {

std::atomic<int> g_signals{0};

void onSignal(int) { ++g_signals; }

std::atomic<int> g_afterEpochSignals{0};
void onStopAfterEpochSignal(int) { ++g_afterEpochSignals; }

struct Worker {
    int rank = 0;
    pid_t pid = -1;
    int output = -1;  // read end of its stdout+stderr
    std::string pending;  // a line not finished yet
    bool running = true;
    int status = 0;
    bool unresponsive = false;  // still running after the others timed out waiting for it
};

[[noreturn]] void becomeWorker(const LaunchPlan& plan, int localRank, int port, const std::vector<std::string>& arguments,
                               pid_t launcher, int outputPipe)
{
    ::setpgid(0, 0);                     // a terminal's Ctrl+C reaches the launcher alone, which passes it on once
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // no orphans when the launcher dies
    if (::getppid() != launcher)
        ::_exit(kExitError);
    ::dup2(outputPipe, STDOUT_FILENO);
    ::dup2(outputPipe, STDERR_FILENO);
    ::close(outputPipe);
    const int local = int(plan.devices.size());
    const int world = local * plan.nnodes;
    ::setenv("RANK", std::to_string(plan.nodeRank * local + localRank).c_str(), 1);
    ::setenv("WORLD_SIZE", std::to_string(world).c_str(), 1);
    ::setenv("LOCAL_RANK", std::to_string(localRank).c_str(), 1);
    ::setenv("MASTER_ADDR", plan.masterAddr.c_str(), 1);
    ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
    ::setenv("SEGSTUDIO_LAUNCHER", "1", 1);
    ::setenv("SEGSTUDIO_DEVICE", plan.devices[std::size_t(localRank)].c_str(), 1);
    if (world == 1)
        ::setenv("SEGSTUDIO_FORCE_GROUP", "1", 1);  // --gpus 1: the data-parallel path, measurable against the plain one
    // Share the cores: workers on one machine must not each start a thread per core.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    ::setenv("SEGSTUDIO_THREADS", std::to_string(std::max(1u, cores / unsigned(local))).c_str(), 0);
    std::vector<char*> argv;
    for (const auto& argument : arguments)
        argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    ::execv("/proc/self/exe", argv.data());
    std::cerr << "segstudio-train: cannot start a worker: " << std::strerror(errno) << std::endl;
    ::_exit(kExitError);
}

void forwardLines(Worker& worker, const char* data, std::size_t size, bool flush)
{
    worker.pending.append(data, size);
    std::size_t start = 0;
    for (std::size_t end; (end = worker.pending.find('\n', start)) != std::string::npos; start = end + 1) {
        const std::string line = worker.pending.substr(start, end - start);
        if (worker.rank == 0)
            std::cout << line << '\n' << std::flush;
        else
            std::cerr << "[rank " << worker.rank << "] " << line << '\n' << std::flush;
    }
    worker.pending.erase(0, start);
    if (flush && !worker.pending.empty())
        forwardLines(worker, "\n", 1, false);
}

std::string describe(int status)
{
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        return "was killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
    }
    if (WEXITSTATUS(status) == kExitDiverged)
        return "stopped the run: its loss became NaN or infinite (exit code 3)";
    return "exited with code " + std::to_string(WEXITSTATUS(status));
}

bool timedOut(int status)
{
    return WIFEXITED(status) && WEXITSTATUS(status) == kExitPeerTimeout;
}

std::string rankList(const std::vector<Worker>& workers, bool (*which)(const Worker&))
{
    std::string text;
    for (const auto& worker : workers)
        if (which(worker))
            text += (text.empty() ? "" : ", ") + std::to_string(worker.rank);
    return text;
}

// Who failed, and how: a rank that failed by itself comes first; when the only failures are
// ranks that timed out waiting, the ones they waited for are those still running at that time.
std::string failureReport(const std::vector<Worker>& workers, const std::string& firstFailure)
{
    if (!firstFailure.empty())
        return firstFailure;
    const auto waited = rankList(workers, [](const Worker& w) { return !w.running && timedOut(w.status); });
    if (waited.empty())
        return {};
    const auto stuck = rankList(workers, [](const Worker& w) { return w.unresponsive; });
    if (stuck.empty())
        return "rank(s) " + waited + " timed out waiting for a rank on another machine (see that machine's launcher)";
    return "rank(s) " + stuck + " stopped responding (hung or stopped): rank(s) " + waited +
           " timed out waiting for it in a collective; it was killed";
}

bool failed(int status)
{
    return WIFSIGNALED(status) || (WEXITSTATUS(status) != kExitOk && WEXITSTATUS(status) != kExitStopped);
}

void signalAll(std::vector<Worker>& workers, int signal)
{
    for (const auto& worker : workers)
        if (worker.running)
            ::kill(worker.pid, signal);
}

}  // namespace

int launchWorkers(const LaunchPlan& plan, const std::vector<std::string>& arguments)
{
    const int port = plan.masterPort > 0 ? plan.masterPort : engine::freeTcpPort(plan.masterAddr);
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGUSR1, onStopAfterEpochSignal);  // "stop after this epoch": every rank is told
    std::vector<Worker> workers(plan.devices.size());
    const pid_t launcher = ::getpid();
    for (int local = 0; local < int(workers.size()); ++local) {
        int pipeFds[2];
        if (::pipe(pipeFds) != 0) {
            std::cerr << "segstudio-train: cannot create a pipe: " << std::strerror(errno) << std::endl;
            signalAll(workers, SIGKILL);
            return kExitError;
        }
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::close(pipeFds[0]);
            becomeWorker(plan, local, port, arguments, launcher, pipeFds[1]);
        }
        ::close(pipeFds[1]);
        workers[std::size_t(local)] = {plan.nodeRank * int(workers.size()) + local, pid, pipeFds[0], {}, pid > 0, 0};
    }
    std::cerr << "segstudio-train: " << workers.size() << " worker(s) on this machine, world of "
              << workers.size() * std::size_t(plan.nnodes) << ", rendezvous at " << plan.masterAddr << ":" << port
              << std::endl;

    std::string failure;  // the first rank that failed by itself (not by timing out waiting)
    int failureCode = kExitOk;
    int signalsSeen = 0;
    auto killDeadline = std::chrono::steady_clock::time_point::max();
    auto unresponsiveDeadline = std::chrono::steady_clock::time_point::max();
    for (;;) {
        std::vector<pollfd> fds;
        for (const auto& worker : workers)
            if (worker.output >= 0)
                fds.push_back({worker.output, POLLIN, 0});
        if (fds.empty() && std::none_of(workers.begin(), workers.end(), [](const Worker& w) { return w.running; }))
            break;
        ::poll(fds.data(), fds.size(), 100);
        for (auto& worker : workers) {
            if (worker.output < 0)
                continue;
            char buffer[4096];
            pollfd one{worker.output, POLLIN, 0};
            while (::poll(&one, 1, 0) > 0) {
                const ssize_t got = ::read(worker.output, buffer, sizeof buffer);
                if (got <= 0) {
                    forwardLines(worker, "", 0, true);
                    ::close(worker.output);
                    worker.output = -1;
                    break;
                }
                forwardLines(worker, buffer, std::size_t(got), false);
            }
        }
        for (auto& worker : workers) {
            if (!worker.running || ::waitpid(worker.pid, &worker.status, WNOHANG) != worker.pid)
                continue;
            worker.running = false;
            if (!failed(worker.status))
                continue;
            if (worker.unresponsive)
                continue;  // killed here for not responding: reported as that, not as a failure of its own
            if (timedOut(worker.status)) {
                // It waited a whole collective timeout for someone: whoever still runs a moment
                // later is that someone (a healthy rank ends within moments of a peer's exit).
                unresponsiveDeadline = std::min(unresponsiveDeadline, std::chrono::steady_clock::now() + std::chrono::seconds(3));
            } else if (failure.empty()) {
                failure = "rank " + std::to_string(worker.rank) + " (pid " + std::to_string(worker.pid) + ") " +
                          describe(worker.status);
                failureCode = WIFEXITED(worker.status) ? WEXITSTATUS(worker.status) : kExitError;
            }
            if (killDeadline == std::chrono::steady_clock::time_point::max()) {
                // The others would fail in their next collective anyway; stop them now, and kill
                // whoever does not stop within the collective timeout.
                signalAll(workers, SIGTERM);
                killDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(plan.timeoutSeconds + 10);
            }
        }
        if (g_afterEpochSignals.exchange(0) > 0)
            signalAll(workers, SIGUSR1);
        if (g_signals > signalsSeen) {
            signalsSeen = g_signals;
            signalAll(workers, signalsSeen == 1 ? SIGTERM : SIGKILL);
        }
        if (std::chrono::steady_clock::now() > unresponsiveDeadline) {
            for (auto& worker : workers)
                worker.unresponsive = worker.unresponsive || worker.running;
            signalAll(workers, SIGCONT);  // a stopped process takes no signal but SIGKILL and SIGCONT
            signalAll(workers, SIGKILL);
            unresponsiveDeadline = std::chrono::steady_clock::time_point::max();
        }
        if (std::chrono::steady_clock::now() > killDeadline)
            signalAll(workers, SIGKILL);
    }
    const std::string report = failureReport(workers, failure);
    if (!report.empty()) {
        std::cerr << "segstudio-train: " << report << "; the other ranks were stopped. Continue from the last "
                  << "checkpoint with train --resume RUN_DIR" << std::endl;
        if (failure.empty())
            return kExitPeerTimeout;
        return failureCode == kExitOk || failureCode == kExitStopped ? kExitError : failureCode;
    }
    const bool stopped = std::any_of(workers.begin(), workers.end(), [](const Worker& w) {
        return WIFEXITED(w.status) && WEXITSTATUS(w.status) == kExitStopped;
    });
    return stopped ? kExitStopped : kExitOk;
}

}  // namespace segstudio::cli
