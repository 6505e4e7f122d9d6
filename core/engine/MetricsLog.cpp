#include "MetricsLog.h"

#include "EngineError.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>

namespace segstudio::engine {

MetricsLog::MetricsLog(const std::string& path)
    : m_path(path)
    , m_file(std::fopen(path.c_str(), "a"))
{
    if (!m_file)
        throw EngineError(path + ": cannot open for appending (" + std::strerror(errno) + ")");
}

MetricsLog::~MetricsLog()
{
    if (m_file)
        std::fclose(m_file);
}

void MetricsLog::append(const nlohmann::json& record)
{
    // NaN is not JSON; dump() writes it as null, which readers treat as "no value".
    const std::string line = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (std::fwrite(line.data(), 1, line.size(), m_file) != line.size() || std::fflush(m_file) != 0)
        throw EngineError(m_path + ": write failed (" + std::strerror(errno) + ")");
}

}  // namespace segstudio::engine
