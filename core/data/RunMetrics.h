#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {

// One line of a run's metrics.jsonl (docs/ENGINE.md). Values the trainer wrote as null (NaN) or
// left out are empty; "kind" other than train/val is skipped.
struct MetricsPoint {
    enum class Kind { Train, Val };
    Kind kind = Kind::Train;
    int epoch = 0;
    std::int64_t iteration = 0;
    std::optional<double> loss;
    std::optional<double> accuracy;
    std::optional<double> meanAccuracy;  // val only
    std::optional<double> meanIoU;       // val only
    std::optional<double> learningRate;  // train only
    std::optional<double> elapsedSeconds;
};

// Tails a metrics.jsonl incrementally: each poll() reads from the byte offset where the last one
// stopped and parses only complete new lines (the trainer flushes per line, so a partial last
// line is a line still being written and is read on a later poll).
// Requirements: one thread at a time. The file may not exist yet (poll() returns nothing) and
//   may be replaced by a shorter one (a new run in the same folder): then reading starts over.
// Guarantees: a malformed complete line throws DataError naming the file and the line number
//   ("metrics.jsonl: line 7: ..."); lines before it in the same poll are returned first and the
//   error comes from the next poll(). The offset stays before the bad line, so polling again
//   throws again until the file is fixed or replaced.
class RunMetrics {
public:
    explicit RunMetrics(std::filesystem::path file);

    std::vector<MetricsPoint> poll();
    void reset();  // read from the start again on the next poll()

    const std::filesystem::path& file() const { return m_file; }
    std::uint64_t offset() const { return m_offset; }
    // True when the file shrank since the last poll and reading started over: the caller should
    // drop what it had.
    bool restarted() const { return m_restarted; }

    // Parses one line (without its newline); nullopt for a kind that is neither train nor val.
    // Throws DataError(file, "line N: ...") on malformed JSON or a missing kind.
    static std::optional<MetricsPoint> parseLine(const std::string& line, const std::string& file = {},
                                                 std::uint64_t lineNumber = 0);

private:
    std::filesystem::path m_file;
    std::uint64_t m_offset = 0;
    std::uint64_t m_lineNumber = 0;  // complete lines consumed so far
    bool m_restarted = false;
};

}  // namespace segstudio::data
