#pragma once

#include <string>

namespace segstudio::run {

// A text file that only grows, one whole line per append, written straight to the kernel (no
// stdio buffer), so a reader tailing it sees complete lines as soon as append() returns.
// Guarantees: a failed write (a full disk included) throws FileError naming the file and the
// system's reason; nothing is silently dropped.
class AppendOnlyFile {
public:
    explicit AppendOnlyFile(std::string path);  // FileError when it cannot be opened
    ~AppendOnlyFile();
    AppendOnlyFile(const AppendOnlyFile&) = delete;
    AppendOnlyFile& operator=(const AppendOnlyFile&) = delete;

    const std::string& path() const { return m_path; }
    void appendLine(const std::string& line);  // adds the newline

private:
    std::string m_path;
    int m_fd = -1;
};

}  // namespace segstudio::run
