// LD_PRELOAD shim for test_RunSafetyCli: fork() number SEGSTUDIO_TEST_FORK_FAILS_AT of a process
// (and every later one) fails with EAGAIN, as a real fork() does when the user's process limit
// (RLIMIT_NPROC) or a cgroup's pids.max is reached. Those limits cannot be aimed at one particular
// fork of a process that also starts threads (they count threads too), and a root CI ignores the
// first; the launcher sees the very same failure from the C library either way.
#include <dlfcn.h>

#include <cerrno>
#include <cstdlib>
#include <unistd.h>

extern "C" pid_t fork()
{
    static int calls = 0;
    const char* failAt = std::getenv("SEGSTUDIO_TEST_FORK_FAILS_AT");
    if (failAt && ++calls >= std::atoi(failAt)) {
        errno = EAGAIN;
        return -1;
    }
    using Fork = pid_t (*)();
    static const auto real = reinterpret_cast<Fork>(dlsym(RTLD_NEXT, "fork"));
    return real();
}
