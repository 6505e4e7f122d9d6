#include "MetricsLog.h"

#include <nlohmann/json.hpp>

namespace segstudio::engine {

void MetricsLog::append(const nlohmann::json& record)
{
    // NaN is not JSON; dump() writes it as null, which readers treat as "no value".
    m_file.appendLine(record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace segstudio::engine
