#include "EvaluationReportFiles.h"

#include "run/FileError.h"
#include "run/AtomicFile.h"
#include "run/FileFingerprint.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace segstudio::metrics {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kMarker = ".segstudio-report.json";
const char* const kReportFiles[] = {"report.json", "classes.csv", "images.csv", "confusion.csv"};

bool isReportFile(const std::string& name)
{
    for (const char* file : kReportFiles)
        if (name == file || name == std::string(file) + ".tmp")  // (.tmp: a kill mid-write)
            return true;
    return name == kMarker || name == std::string(kMarker) + ".tmp";
}

// The marker: {"writing": true} while the files are written, then their fingerprints.
std::optional<json> readMarker(const fs::path& dir)
{
    std::error_code error;
    if (!fs::is_regular_file(dir / kMarker, error))
        return std::nullopt;
    const json marker = json::parse(run::readFile(dir / kMarker), nullptr, /*allow_exceptions=*/false);
    return marker.is_object() ? std::optional<json>(marker) : std::nullopt;
}

}  // namespace

void checkReportFolder(const fs::path& dir)
{
    std::error_code error;
    if (!fs::is_directory(dir, error))
        return;
    const auto marker = readMarker(dir);
    const bool writing = marker && marker->value("writing", false);
    const json fingerprints = marker ? marker->value("fingerprints", json::object()) : json::object();
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!isReportFile(name) || entry.is_symlink() || entry.is_directory())
            throw run::FileError(entry.path().string(), "is not a file of an evaluation report: a report goes into a new or "
                                                        "empty folder, or one an earlier report made");
        if (writing || name == kMarker || !fingerprints.contains(name))
            continue;
        if (fingerprints[name] != run::fileFingerprint(entry.path()))
            throw run::FileError(entry.path().string(), "was changed since the report was written: never replaced (move "
                                                        "it away, or write the report into a new folder)");
    }
    if (!marker && !fs::is_empty(dir, error) && !fs::exists(dir / "report.json", error))
        throw run::FileError(dir.string(), "holds files of a report's names but no report.json: not a SegStudio report, "
                                           "never replaced (write the report into a new folder)");
    if (!marker && fs::exists(dir / "report.json", error))
        try {  // a folder of before the marker: is it a report?
            readEvaluationReport(dir / "report.json");
        } catch (const run::FileError&) {
            throw run::FileError((dir / "report.json").string(), "is not a SegStudio evaluation report: never replaced "
                                                                 "(move it away, or write the report into a new folder)");
        }
}

namespace {

void writeMarker(const fs::path& dir, bool writing)
{
    json marker = {{"writing", writing}};
    if (!writing) {
        json fingerprints = json::object();
        for (const char* file : kReportFiles)
            fingerprints[file] = run::fileFingerprint(dir / file);
        marker["fingerprints"] = fingerprints;
    }
    run::writeFileAtomically(dir / kMarker, marker.dump(2) + "\n");
}

}  // namespace

void writeEvaluationReport(const EvaluationReport& report, const std::filesystem::path& dir)
{
    std::error_code error;
    const bool existed = std::filesystem::exists(dir, error);
    if (existed && !fs::is_directory(dir, error))
        throw run::FileError(dir.string(), "is a file, not a folder: the report needs a folder");
    checkReportFolder(dir);
    std::filesystem::create_directories(dir, error);
    if (error)
        throw run::FileError(dir.string(), "cannot create the report folder: " + error.message());
    const std::string texts[] = {report.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                                 report.classesCsv(), report.imagesCsv(), report.confusionCsv()};
    writeMarker(dir, /*writing=*/true);
    std::size_t written = 0;
    try {
        for (const char* name : kReportFiles) {
            run::writeFileAtomically(dir / name, texts[written]);
            ++written;
        }
        writeMarker(dir, /*writing=*/false);
    } catch (...) {
        // Half a report is no report (a full disk): what this call wrote goes, and the folder
        // too when this call made it; a folder the user gave keeps whatever else it held.
        for (std::size_t n = 0; n < written; ++n)
            std::filesystem::remove(dir / kReportFiles[n], error);
        std::filesystem::remove(dir / kMarker, error);
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
