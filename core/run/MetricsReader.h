#pragma once

#include "MetricsRecord.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::run {

// The one reader of metrics.jsonl: tails it incrementally, also while another process (or
// another machine, through a shared folder) is writing it. Each poll() reads on from the byte
// where the last one stopped and parses complete lines only: a partial last line is a line still
// being written and is read on a later poll.
// Requirements: one thread at a time (any thread: the GUI polls on a worker). The file may not
//   exist yet (poll() returns nothing).
// Guarantees:
//   - A complete line that is not a record (torn by a crash, edited by hand) is skipped; a
//     warning naming the file and the line ("metrics.jsonl: line 7: not valid JSON (...);
//     skipped") waits in takeWarnings(). Later lines are read as usual.
//   - A file that was replaced (another inode) or shrank (a new run in the same folder, a resume
//     that dropped redone iterations) is read again from the start, and restarted() says so: the
//     caller drops what it had.
//   - One poll() reads at most maxBytes (and at least one whole line), so a huge file is taken in
//     bounded steps; atEnd() says whether it has caught up.
class MetricsReader {
public:
    explicit MetricsReader(std::filesystem::path file);

    std::vector<MetricsRecord> poll(std::size_t maxBytes = kDefaultChunk);
    void reset();  // read from the start again on the next poll()

    const std::filesystem::path& file() const { return m_file; }
    std::uint64_t offset() const { return m_offset; }
    bool restarted() const { return m_restarted; }
    bool atEnd() const { return m_atEnd; }
    std::vector<std::string> takeWarnings();

    // Parses one line (without its newline); nullopt for a kind this version does not know.
    // Throws FileError(file, "line N: ...") for a line that is not a record.
    static std::optional<MetricsRecord> parseLine(const std::string& line, const std::string& file = {},
                                                  std::uint64_t lineNumber = 0);
    // Every record of a file at once (a finished run, a CSV export); corrupt lines are skipped.
    static std::vector<MetricsRecord> readAll(const std::filesystem::path& file, std::vector<std::string>* warnings = nullptr);

    static constexpr std::size_t kDefaultChunk = std::size_t(8) << 20;

private:
    bool fileWasReplaced(std::uint64_t size, std::uint64_t inode) const;

    std::filesystem::path m_file;
    std::uint64_t m_offset = 0;
    std::uint64_t m_lineNumber = 0;  // complete lines consumed so far
    std::uint64_t m_inode = 0;
    bool m_restarted = false;
    bool m_atEnd = true;
    std::vector<std::string> m_warnings;
};

}  // namespace segstudio::run
