#pragma once

#include <stdexcept>
#include <string>

namespace segstudio::run {

// A file that cannot be read or written, or whose content is not what it should be. The message
// names the file and the problem ("runs/a/metrics.jsonl: cannot write (No space left on device)"),
// so every layer can show it as it is. core/data's DataError is this type.
class FileError : public std::runtime_error {
public:
    FileError(const std::string& file, const std::string& problem)
        : std::runtime_error(file.empty() ? problem : file + ": " + problem), m_file(file), m_problem(problem) {}

    const std::string& file() const { return m_file; }
    const std::string& problem() const { return m_problem; }

private:
    std::string m_file;
    std::string m_problem;
};

}  // namespace segstudio::run
