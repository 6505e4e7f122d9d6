#pragma once

#include "AppendOnlyFile.h"
#include "MetricsRecord.h"

#include <cstdint>
#include <filesystem>
#include <memory>

namespace segstudio::run {

// The one writer of metrics.jsonl: one record per line, each line in the kernel when write()
// returns, so a watcher tailing the file (the GUI, another machine on a shared folder) sees whole
// records at once. Opened for appending: a resumed run continues the same file.
// Requirements: one writer per file (rank 0 of a run).
// Guarantees: a failed write (a full disk included) throws FileError naming the file.
class MetricsWriter {
public:
    explicit MetricsWriter(const std::filesystem::path& file);

    void write(const MetricsRecord& record);
    const std::string& path() const { return m_file->path(); }

    // Before a resume from a checkpoint at lastIteration: drops the records of later iterations
    // (a killed or crashed run logged steps it will now train again) and a torn last line, so
    // the resumed run continues one clean curve. Reopens the file when it rewrote it.
    void forgetAfter(std::int64_t lastIteration);

private:
    std::unique_ptr<AppendOnlyFile> m_file;
};

}  // namespace segstudio::run
