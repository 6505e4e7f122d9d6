#include "EvaluationReportFiles.h"

#include "run/FileError.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <system_error>
#include <utility>

namespace segstudio::metrics {

void writeEvaluationReport(const EvaluationReport& report, const std::filesystem::path& dir)
{
    std::error_code error;
    const bool existed = std::filesystem::exists(dir, error);
    std::filesystem::create_directories(dir, error);
    if (error)
        throw run::FileError(dir.string(), "cannot create the report folder: " + error.message());
    const std::pair<const char*, std::string> files[] = {
        {"report.json", report.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"},
        {"classes.csv", report.classesCsv()},
        {"images.csv", report.imagesCsv()},
        {"confusion.csv", report.confusionCsv()}};
    std::size_t written = 0;
    try {
        for (const auto& [name, bytes] : files) {
            run::writeFileAtomically(dir / name, bytes);
            ++written;
        }
    } catch (...) {
        // Half a report is no report (a full disk): what this call wrote goes, and the folder
        // too when this call made it; a folder the user gave keeps whatever else it held.
        for (std::size_t n = 0; n < written; ++n)
            std::filesystem::remove(dir / files[n].first, error);
        if (!existed)
            std::filesystem::remove(dir, error);  // only removes it when empty
        throw;
    }
}

EvaluationReport readEvaluationReport(const std::filesystem::path& reportJson)
{
    const std::string text = run::readFile(reportJson);
    try {
        return EvaluationReport::fromJson(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception& error) {
        throw run::FileError(reportJson.string(), std::string("not JSON: ") + error.what());
    } catch (const std::invalid_argument& error) {
        throw run::FileError(reportJson.string(), error.what());
    }
}

}  // namespace segstudio::metrics
