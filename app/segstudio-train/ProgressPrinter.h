#pragma once

#include <cstddef>
#include <functional>
#include <iostream>

namespace segstudio::cli {

// The progress callback of long data commands (import, export, stats): "what done/total" on
// stderr, rewritten in place every 25 items, so stdout stays the command's answer (JSON, tables).
inline std::function<bool(std::size_t, std::size_t)> progressPrinter(const char* what)
{
    return [what](std::size_t done, std::size_t total) {
        if (done == total || done % 25 == 0)
            std::cerr << "\r" << what << " " << done << "/" << total << (done == total ? "\n" : "") << std::flush;
        return true;  // never cancels
    };
}

}  // namespace segstudio::cli
