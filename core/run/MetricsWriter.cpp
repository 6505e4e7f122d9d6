#include "MetricsWriter.h"

#include "AtomicFile.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace segstudio::run {

MetricsWriter::MetricsWriter(const std::filesystem::path& file) : m_file(std::make_unique<AppendOnlyFile>(file.string())) {}

void MetricsWriter::write(const MetricsRecord& record)
{
    // Non-finite numbers are written as null by toJson(); replace keeps invalid UTF-8 in a
    // reason (an OS message in another locale) from throwing.
    m_file->appendLine(toJson(record).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void MetricsWriter::forgetAfter(std::int64_t lastIteration)
{
    const std::string file = m_file->path();
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error))
        return;  // a device (tests write to /dev/full): nothing to rewrite
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return;
    std::string kept, line;
    bool changed = false;
    while (std::getline(in, line)) {
        const bool complete = !in.eof();
        const auto object = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        const bool later = object.is_object() && object.contains("iteration") && object["iteration"].is_number() &&
                           object["iteration"].get<std::int64_t>() > lastIteration;
        if (!complete || later || object.is_discarded()) {
            changed = true;
            continue;
        }
        kept += line + "\n";
    }
    in.close();
    if (!changed)
        return;
    m_file.reset();
    writeFileAtomically(file, kept);
    m_file = std::make_unique<AppendOnlyFile>(file);
}

}  // namespace segstudio::run
