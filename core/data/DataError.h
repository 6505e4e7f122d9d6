#pragma once

#include <stdexcept>
#include <string>

namespace segstudio::data {

// The one error type of core/data: every message names the file and the problem, so the UI and
// the CLI can show it as it is.
class DataError : public std::runtime_error {
public:
    DataError(const std::string& file, const std::string& problem)
        : std::runtime_error(file.empty() ? problem : file + ": " + problem), m_file(file), m_problem(problem) {}

    const std::string& file() const { return m_file; }
    const std::string& problem() const { return m_problem; }

private:
    std::string m_file;
    std::string m_problem;
};

}  // namespace segstudio::data
