#include "EvaluationReportFiles.h"

#include "run/FileError.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <system_error>

namespace segstudio::metrics {

void writeEvaluationReport(const EvaluationReport& report, const std::filesystem::path& dir)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
        throw run::FileError(dir.string(), "cannot create the report folder: " + error.message());
    run::writeFileAtomically(dir / "report.json",
                             report.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    run::writeFileAtomically(dir / "classes.csv", report.classesCsv());
    run::writeFileAtomically(dir / "images.csv", report.imagesCsv());
    run::writeFileAtomically(dir / "confusion.csv", report.confusionCsv());
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
