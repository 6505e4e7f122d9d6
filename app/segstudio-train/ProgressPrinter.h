#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <ostream>

#include <unistd.h>

namespace segstudio::cli {

// The progress callback of long data commands (import, export, stats, pack): "what done/total".
// On a terminal the line is rewritten in place every 25 items; into a file or a pipe (a log, the
// GUI) it is a plain line every few seconds and at the end, so a log never becomes one very long
// line of carriage returns. Data commands print it on stderr, so stdout stays their answer.
inline std::function<bool(std::size_t, std::size_t)> progressPrinter(const char* what, std::ostream& out,
                                                                      bool terminal)
{
    using Clock = std::chrono::steady_clock;
    auto lastLine = std::make_shared<Clock::time_point>(Clock::now());
    return [what, &out, terminal, lastLine](std::size_t done, std::size_t total) {
        if (terminal) {
            if (done == total || done % 25 == 0)
                out << "\r" << what << " " << done << "/" << total << (done == total ? "\n" : "") << std::flush;
        } else if (done == total || Clock::now() - *lastLine >= std::chrono::seconds(3)) {
            *lastLine = Clock::now();
            out << what << " " << done << "/" << total << "\n" << std::flush;
        }
        return true;  // never cancels
    };
}

inline std::function<bool(std::size_t, std::size_t)> progressPrinter(const char* what)
{
    return progressPrinter(what, std::cerr, ::isatty(STDERR_FILENO) == 1);
}

}  // namespace segstudio::cli
