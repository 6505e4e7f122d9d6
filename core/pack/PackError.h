#pragma once

#include <stdexcept>
#include <string>

namespace segstudio::pack {

// Thrown for any pack that cannot be written or trusted; the message names the file and the problem.
class PackError : public std::runtime_error {
public:
    PackError(const std::string& path, const std::string& problem)
        : std::runtime_error(path + ": " + problem), m_path(path) {}

    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

}  // namespace segstudio::pack
