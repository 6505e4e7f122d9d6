#pragma once

#include <stdexcept>
#include <string>

namespace segstudio::pack {

// Thrown for any pack that cannot be written or trusted; the message names the file and the problem.
class PackError : public std::runtime_error {
public:
    PackError(const std::string& path, const std::string& problem)
        : std::runtime_error(path + ": " + problem), m_path(path), m_problem(problem) {}

    const std::string& path() const { return m_path; }
    // The problem without the path, for a wrapper that names the file itself: what() already
    // begins with it, and "path: " + what() names it twice.
    const std::string& problem() const { return m_problem; }

private:
    std::string m_path;
    std::string m_problem;
};

}  // namespace segstudio::pack
