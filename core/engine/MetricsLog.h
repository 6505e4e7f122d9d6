#pragma once

#include "AppendOnlyFile.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace segstudio::engine {

// Appends one JSON object per line to RUN_DIR/metrics.jsonl, so a watcher (the UI's live plots)
// can tail the file while training runs. Opened in append mode: a resumed run continues the same
// file. A failed write throws EngineError naming the file (AppendOnlyFile).
// Requirements: one writer per file.
class MetricsLog {
public:
    explicit MetricsLog(const std::string& path) : m_file(path) {}

    void append(const nlohmann::json& record);

private:
    AppendOnlyFile m_file;
};

}  // namespace segstudio::engine
