#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdio>
#include <string>

namespace segstudio::engine {

// Appends one JSON object per line to RUN_DIR/metrics.jsonl and flushes each line, so a watcher
// (the UI's live plots) can tail the file while training runs. Opened in append mode: a resumed
// run continues the same file.
// Requirements: one writer per file.
class MetricsLog {
public:
    explicit MetricsLog(const std::string& path);
    ~MetricsLog();
    MetricsLog(const MetricsLog&) = delete;
    MetricsLog& operator=(const MetricsLog&) = delete;

    void append(const nlohmann::json& record);

private:
    std::string m_path;
    std::FILE* m_file = nullptr;
};

}  // namespace segstudio::engine
