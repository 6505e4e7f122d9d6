#include "WorkerLauncher.h"

#include "Commands.h"

#include "engine/runtime/EngineError.h"
#include "engine/distributed/RendezvousHost.h"
#include "run/RunLayout.h"
#include "run/RunLock.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <thread>

extern char** environ;

namespace segstudio::cli {

namespace {

std::atomic<int> g_signals{0};
std::atomic<int> g_afterEpochSignals{0};

extern "C" void onLauncherStopSignal(int) { ++g_signals; }
extern "C" void onLauncherStopAfterEpochSignal(int) { ++g_afterEpochSignals; }

// Installed before anything else, so a stop at any moment of the launch is seen; every later
// signal is counted too (no reset to the default action).
void installSignalHandlers()
{
    struct sigaction action {};
    sigemptyset(&action.sa_mask);
    action.sa_handler = onLauncherStopSignal;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    action.sa_handler = onLauncherStopAfterEpochSignal;  // "stop after this epoch": every rank is told
    ::sigaction(SIGUSR1, &action, nullptr);
    std::signal(SIGPIPE, SIG_IGN);  // a reader that went away must not end the launcher and its run
}

sigset_t stopSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    return set;
}

struct Worker {
    int rank = 0;
    pid_t pid = -1;
    int output = -1;  // read end of its stdout+stderr
    std::string pending;  // a line not finished yet
    bool running = true;
    int status = 0;
    bool unresponsive = false;  // still running after the others timed out waiting for it
};

// A worker's argv and environment, made before fork(): between fork() and exec() the child of a
// process with threads (the rendezvous store's) may only make async-signal-safe calls.
struct WorkerCommand {
    std::vector<std::string> arguments;
    std::vector<std::string> environment;
    std::vector<char*> argv;
    std::vector<char*> envp;
};

WorkerCommand workerCommand(const LaunchPlan& plan, int localRank, int port, const std::string& jobId,
                            const std::vector<std::string>& arguments)
{
    const int local = int(plan.devices.size());
    const int world = local * plan.nnodes;
    std::vector<std::pair<std::string, std::string>> launch{
        {"RANK", std::to_string(plan.nodeRank * local + localRank)},
        {"WORLD_SIZE", std::to_string(world)},
        {"LOCAL_RANK", std::to_string(localRank)},
        {"MASTER_ADDR", plan.masterAddr},
        {"MASTER_PORT", std::to_string(port)},
        {"SEGSTUDIO_LAUNCHER", "1"},
        {"SEGSTUDIO_LAUNCHER_STORE", "1"},  // the store is node 0's launcher's: join it as a client
        {"SEGSTUDIO_JOB_ID", jobId},
        {"SEGSTUDIO_DEVICE", plan.devices[std::size_t(localRank)]}};
    if (world == 1)
        launch.emplace_back("SEGSTUDIO_FORCE_GROUP", "1");  // --gpus 1: the data-parallel path, measurable against the plain one
    // Share the cores (unless the user did): workers on one machine must not each start a thread per core.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    if (!std::getenv("SEGSTUDIO_THREADS"))
        launch.emplace_back("SEGSTUDIO_THREADS", std::to_string(std::max(1u, cores / unsigned(local))));
    WorkerCommand command;
    command.arguments = arguments;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string text = *entry;
        const std::string name = text.substr(0, text.find('='));
        if (std::none_of(launch.begin(), launch.end(), [&](const auto& variable) { return variable.first == name; }))
            command.environment.push_back(text);
    }
    for (const auto& [name, value] : launch)
        command.environment.push_back(name + "=" + value);
    for (auto& argument : command.arguments)
        command.argv.push_back(argument.data());
    command.argv.push_back(nullptr);
    for (auto& variable : command.environment)
        command.envp.push_back(variable.data());
    command.envp.push_back(nullptr);
    return command;
}

void say(const char* text) { [[maybe_unused]] const auto written = ::write(STDERR_FILENO, text, std::strlen(text)); }

[[noreturn]] void becomeWorker(const WorkerCommand& command, pid_t launcher, int outputPipe, const sigset_t& mask)
{
    ::setpgid(0, 0);                     // a terminal's Ctrl+C reaches the launcher alone, which passes it on
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // the launcher's death is a stop request: no orphans, a checkpoint
    if (::getppid() != launcher)
        ::_exit(kExitError);
    ::dup2(outputPipe, STDOUT_FILENO);
    ::dup2(outputPipe, STDERR_FILENO);
    ::close(outputPipe);
    // The launcher's handlers are not the worker's: a SIGTERM that came since fork() is still
    // pending and now ends it by the default action (it has no work to lose yet).
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(SIGINT, &fallback, nullptr);
    ::sigaction(SIGTERM, &fallback, nullptr);
    ::sigaction(SIGUSR1, &fallback, nullptr);
    ::sigprocmask(SIG_SETMASK, &mask, nullptr);
    ::execve("/proc/self/exe", command.argv.data(), command.envp.data());
    say("segstudio-train: cannot start a worker: exec failed\n");
    ::_exit(kExitError);
}

Worker notStarted(int rank)
{
    Worker worker;
    worker.rank = rank;
    worker.running = false;
    return worker;
}

// fork() with the stop signals blocked, so none reaches the child while it still runs the
// launcher's handlers (it would count it in its copy of the counter, and lose it at exec).
// Returns the worker, pid -1 and errno set when it could not be started.
Worker spawnWorker(const WorkerCommand& command, int rank)
{
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0)  // no worker inherits another's pipe
        return notStarted(rank);
    const sigset_t block = stopSignals();
    sigset_t previous;
    ::sigprocmask(SIG_BLOCK, &block, &previous);
    const pid_t launcher = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        becomeWorker(command, launcher, pipeFds[1], previous);
    }
    const int forkError = errno;
    ::sigprocmask(SIG_SETMASK, &previous, nullptr);
    ::close(pipeFds[1]);
    if (pid < 0) {
        ::close(pipeFds[0]);
        errno = forkError;
        return notStarted(rank);
    }
    Worker worker;
    worker.rank = rank;
    worker.pid = pid;
    worker.output = pipeFds[0];
    return worker;
}

std::string freshJobId()
{
    std::random_device random;
    const std::uint64_t value = (std::uint64_t(random()) << 32) ^ random();
    char text[24];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
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

// A worker that ends by SIGTERM after the launcher was asked to stop has stopped as asked (it
// was still starting up, with nothing to save): no failure.
bool failed(int status, bool stopping)
{
    if (WIFSIGNALED(status))
        return !(stopping && WTERMSIG(status) == SIGTERM);
    return WEXITSTATUS(status) != kExitOk && WEXITSTATUS(status) != kExitStopped;
}

void signalAll(std::vector<Worker>& workers, int signal)
{
    for (const auto& worker : workers)
        if (worker.running)
            ::kill(worker.pid, signal);
}

using Clock = std::chrono::steady_clock;

// What the launcher watches while its workers run.
struct Launch {
    explicit Launch(const LaunchPlan& launchPlan) : plan(launchPlan) {}

    const LaunchPlan& plan;
    std::vector<Worker> workers;
    std::string failure;  // the first rank that failed by itself (not by timing out waiting)
    int failureCode = kExitOk;
    int signalsSeen = 0;
    Clock::time_point killDeadline = Clock::time_point::max();
    Clock::time_point unresponsiveDeadline = Clock::time_point::max();

    bool stopping() const { return signalsSeen > 0; }
};

// Starts one worker per local device; a stop request or a worker that cannot be started ends the
// launch (the ones started are then stopped by the caller's loop).
void spawnAll(Launch& launch, int port, const std::string& jobId, const std::vector<std::string>& arguments)
{
    const int local = int(launch.plan.devices.size());
    for (int localRank = 0; localRank < local && g_signals == 0; ++localRank) {
        const int rank = launch.plan.nodeRank * local + localRank;
        const WorkerCommand command = workerCommand(launch.plan, localRank, port, jobId, arguments);
        Worker worker = spawnWorker(command, rank);
        if (worker.pid < 0) {
            launch.failure = "cannot start the worker of rank " + std::to_string(rank) + ": " + std::strerror(errno);
            launch.failureCode = kExitError;
            return;
        }
        launch.workers.push_back(std::move(worker));
    }
}

void readOutput(Launch& launch)
{
    std::vector<pollfd> fds;
    for (const auto& worker : launch.workers)
        if (worker.output >= 0)
            fds.push_back({worker.output, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 100);
    for (auto& worker : launch.workers) {
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
}

// The others would fail in their next collective anyway: stop them now, and kill whoever does
// not stop within the collective timeout.
void stopTheOthers(Launch& launch)
{
    if (launch.killDeadline != Clock::time_point::max())
        return;
    signalAll(launch.workers, SIGTERM);
    launch.killDeadline = Clock::now() + std::chrono::seconds(launch.plan.timeoutSeconds + 10);
}

void reap(Launch& launch)
{
    for (auto& worker : launch.workers) {
        if (!worker.running || ::waitpid(worker.pid, &worker.status, WNOHANG) != worker.pid)
            continue;
        worker.running = false;
        if (!failed(worker.status, launch.stopping()))
            continue;
        if (worker.unresponsive)
            continue;  // killed here for not responding: reported as that, not as a failure of its own
        if (timedOut(worker.status)) {
            // It waited a whole collective timeout for someone: whoever still runs a moment
            // later is that someone (a healthy rank ends within moments of a peer's exit).
            launch.unresponsiveDeadline = std::min(launch.unresponsiveDeadline, Clock::now() + std::chrono::seconds(3));
        } else if (launch.failure.empty()) {
            launch.failure = "rank " + std::to_string(worker.rank) + " (pid " + std::to_string(worker.pid) + ") " +
                             describe(worker.status);
            launch.failureCode = WIFEXITED(worker.status) ? WEXITSTATUS(worker.status) : kExitError;
        }
        stopTheOthers(launch);
    }
}

void forwardSignals(Launch& launch)
{
    if (g_afterEpochSignals.exchange(0) > 0)
        signalAll(launch.workers, SIGUSR1);
    // Every stop request is passed on as SIGTERM, never as SIGKILL: a second one (a GUI's Stop,
    // then its window closed) comes while rank 0 writes the checkpoint the first asked for.
    if (g_signals > launch.signalsSeen) {
        launch.signalsSeen = g_signals;
        signalAll(launch.workers, SIGTERM);
    }
}

void enforceDeadlines(Launch& launch)
{
    if (Clock::now() > launch.unresponsiveDeadline) {
        for (auto& worker : launch.workers)
            worker.unresponsive = worker.unresponsive || worker.running;
        signalAll(launch.workers, SIGCONT);  // a stopped process takes no signal but SIGKILL and SIGCONT
        signalAll(launch.workers, SIGKILL);
        launch.unresponsiveDeadline = Clock::time_point::max();
    }
    if (Clock::now() > launch.killDeadline)
        signalAll(launch.workers, SIGKILL);
}

bool anyRunning(const Launch& launch)
{
    return std::any_of(launch.workers.begin(), launch.workers.end(),
                       [](const Worker& w) { return w.running || w.output >= 0; });
}

// The hint to resume only where there is something to resume from (not after a failed start).
std::string resumeHint(const LaunchPlan& plan)
{
    if (plan.runDir.empty() || !run::RunLayout(plan.runDir).canResume())
        return {};
    return " Continue from the last checkpoint with train --resume " + plan.runDir;
}

int exitCode(const Launch& launch)
{
    const std::string report = failureReport(launch.workers, launch.failure);
    if (!report.empty()) {
        std::cerr << "segstudio-train: " << report << "; the other ranks were stopped." << resumeHint(launch.plan)
                  << std::endl;
        if (launch.failure.empty())
            return kExitPeerTimeout;
        return launch.failureCode == kExitOk || launch.failureCode == kExitStopped ? kExitError : launch.failureCode;
    }
    const auto exited = [&](int code) {
        return std::count_if(launch.workers.begin(), launch.workers.end(),
                             [&](const Worker& w) { return WIFEXITED(w.status) && WEXITSTATUS(w.status) == code; });
    };
    if (exited(kExitOk) == std::ptrdiff_t(launch.workers.size()) && !launch.workers.empty())
        return kExitOk;
    if (launch.stopping() && exited(kExitStopped) == 0)
        std::cerr << "segstudio-train: stopped while the workers were starting; no training step was taken" << std::endl;
    return kExitStopped;
}

std::unique_ptr<run::RunLock> lockRunFolder(const LaunchPlan& plan)
{
    // Node 0 writes the run folder: its launcher holds the lock for its workers, from before the
    // first one starts until the last one ended (rank 0 adopts it, so a killed launcher leaves it
    // held by rank 0 while it writes its checkpoint).
    if (plan.nodeRank != 0 || plan.runDir.empty())
        return nullptr;
    std::error_code error;
    std::filesystem::create_directories(plan.runDir, error);
    if (error)
        throw engine::EngineError(plan.runDir + ": cannot create the run directory (" + error.message() + ")");
    auto lock = std::make_unique<run::RunLock>(plan.runDir);
    lock->shareWithChildren();
    return lock;
}

}  // namespace

int launchWorkers(const LaunchPlan& plan, const std::vector<std::string>& arguments)
{
    installSignalHandlers();
    const auto lock = lockRunFolder(plan);
    // Node 0's launcher serves the rendezvous: the port is held from the moment it is chosen.
    std::unique_ptr<engine::RendezvousHost> host;
    if (plan.nodeRank == 0)
        host = std::make_unique<engine::RendezvousHost>(plan.masterAddr, plan.masterPort,
                                                        std::chrono::seconds(plan.timeoutSeconds));
    const int port = host ? host->port() : plan.masterPort;
    Launch launch{plan};
    spawnAll(launch, port, plan.jobId.empty() ? freshJobId() : plan.jobId, arguments);
    std::cerr << "segstudio-train: " << launch.workers.size() << " worker(s) on this machine, world of "
              << plan.devices.size() * std::size_t(plan.nnodes) << ", rendezvous at " << plan.masterAddr << ":" << port
              << std::endl;
    if (!launch.failure.empty())
        stopTheOthers(launch);
    while (anyRunning(launch)) {
        readOutput(launch);
        reap(launch);
        forwardSignals(launch);
        enforceDeadlines(launch);
    }
    forwardSignals(launch);  // a stop that came during the launch, with no worker left to tell
    return exitCode(launch);
}

}  // namespace segstudio::cli
