#include "ExportDestination.h"

#include "data/labels/DataError.h"
#include "run/FileFingerprint.h"
#include "data/project/ProjectFolders.h"
#include "run/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <iterator>
#include <optional>
#include <set>

namespace segstudio::data {
inline namespace formats {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Absolute, without a trailing "/", symbolic links resolved (a link to a folder is the folder:
// the staging folder goes beside the real one, on its file system).
fs::path normalised(const fs::path& path)
{
    if (path.empty())
        throw DataError({}, "no destination folder given for the export (the path is empty)");
    std::error_code error;
    fs::path p = fs::weakly_canonical(fs::absolute(path), error);
    if (error)
        p = fs::absolute(path).lexically_normal();
    return p.filename().empty() ? p.parent_path() : p;
}

// Everything under folder that is not a folder holding something (files, links, empty folders as
// "name/"), as generic relative paths: what an export wrote, or what replacing it would remove.
std::set<std::string> entriesUnder(const fs::path& folder)
{
    std::set<std::string> entries;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string name = entry.path().lexically_relative(folder).generic_string();
        std::error_code error;
        if (!entry.is_symlink() && entry.is_directory()) {
            if (fs::is_empty(entry.path(), error))
                entries.insert(name + "/");
        } else {
            entries.insert(name);
        }
    }
    return entries;
}

std::optional<json> readMarker(const fs::path& folder)
{
    const fs::path marker = folder / ExportDestination::kMarker;
    std::error_code error;
    if (!fs::is_regular_file(marker, error))
        return std::nullopt;
    try {
        json content = json::parse(run::readFile(marker));
        if (content.is_object() && content.contains("files") && content["files"].is_array())
            return content;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

// Swaps two folders in one step where the file system can (Linux's renameat2), so a kill never
// leaves the destination missing; elsewhere moves the old one aside first.
void exchange(const fs::path& staging, const fs::path& destination)
{
#ifdef RENAME_EXCHANGE
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, destination.c_str(), RENAME_EXCHANGE) == 0)
        return;
#endif
    const fs::path aside = staging.string() + "-old";
    std::error_code error;
    fs::remove_all(aside, error);  // (what a crash between the two renames below left)
    fs::rename(destination, aside, error);
    if (error)
        throw DataError(destination.string(), "cannot replace the earlier export: " + error.message());
    fs::rename(staging, destination, error);
    if (error) {
        std::error_code back;
        fs::rename(aside, destination, back);  // the earlier export stays where it was
        throw DataError(destination.string(), "cannot replace the earlier export: " + error.message());
    }
    fs::rename(aside, staging, error);  // the old export goes where the caller removes it
}

}  // namespace

ExportDestination::ExportDestination(const Project& project, const fs::path& destination, const std::string& format)
    : m_destination(normalised(destination)),
      m_staging(m_destination.parent_path() / ("." + m_destination.filename().string() + ".export-partial")),
      m_format(format),
      m_projectFile(project.file().string()),
      m_claim(m_destination.parent_path() / ("." + m_destination.filename().string() + ".export"))
{
    refuseProjectFolders(project, m_destination, "an export goes into a folder of its own");
    m_created.create(m_destination.parent_path());
    claim();
    checkDestinationIsReplaceable();
    clearStaleStaging();
    std::error_code error;
    if (!fs::create_directory(m_staging, error))
        throw DataError(m_staging.string(), "cannot create the export's staging folder: " +
                                                (error ? error.message() : std::string("it exists")));
    try {
        writeMarker(false);
    } catch (...) {
        fs::remove_all(m_staging, error);  // (no destructor runs for a constructor that throws)
        throw;
    }
}

ExportDestination::~ExportDestination()
{
    if (m_published)
        return;
    std::error_code error;
    fs::remove_all(m_staging, error);  // only what this export wrote: the folder is its own
}

void ExportDestination::claim()
{
    using Result = ProjectLock::Result;
    const Result result = m_claim.acquire();
    if (result == Result::HeldByOther) {
        throw DataError(m_destination.string(), "another export is writing it (" + m_claim.holderText() + ")");
    }
    if (result == Result::NotWritable)
        throw DataError(m_destination.parent_path().string(), "cannot be written: " + m_claim.failure());
}

void ExportDestination::checkDestinationIsReplaceable() const
{
    std::error_code error;
    if (!fs::exists(m_destination, error))
        return;
    if (!fs::is_directory(m_destination, error))
        throw DataError(m_destination.string(), "is a file, not a folder: an export never replaces it");
    const std::set<std::string> present = entriesUnder(m_destination);
    if (present.empty())
        return;
    const auto marker = readMarker(m_destination);
    if (!marker)
        throw DataError(m_destination.string(), "holds " + std::to_string(present.size()) +
                                                    " file(s) that no SegStudio export wrote; export into a new or "
                                                    "empty folder (or one an earlier export made)");
    const std::set<std::string> listed = (*marker)["files"].get<std::set<std::string>>();
    const json fingerprints = marker->value("fingerprints", json::object());  // (none in exports before 2026-11-29)
    for (const std::string& file : present) {
        if (file == kMarker)
            continue;
        const fs::path path = m_destination / fs::path(file).lexically_normal();
        if (listed.count(file) == 0)
            throw DataError(path.string(), "was not written by the export that made this folder: an export never "
                                           "replaces it (move it away, or export into a new folder)");
        if (fingerprints.contains(file) && fingerprints[file] != run::fileFingerprint(path))
            throw DataError(path.string(), "was changed since the export wrote it: an export never replaces an edit "
                                           "(move it away, or export into a new folder)");
    }
}



void ExportDestination::clearStaleStaging() const
{
    std::error_code error;
    if (!fs::exists(m_staging, error))
        return;
    if (!readMarker(m_staging) && !run::holdsOnlyUnfinishedWriteOf(m_staging, kMarker))
        throw DataError(m_staging.string(), "exists and was not made by a SegStudio export; move it away");
    fs::remove_all(m_staging, error);  // a killed export's: its marker says so
    if (error)
        throw DataError(m_staging.string(), "cannot remove what an interrupted export left: " + error.message());
}

void ExportDestination::writeMarker(bool complete) const
{
    std::set<std::string> files;
    if (complete)
        files = entriesUnder(m_staging);
    files.erase(kMarker);
    json fingerprints = json::object();  // so a file edited after the export is not taken for the export's
    for (const std::string& file : files) {
        const fs::path path = m_staging / fs::path(file).lexically_normal();
        std::error_code error;
        if (!fs::is_symlink(path, error) && fs::is_regular_file(path, error))
            fingerprints[file] = run::fileFingerprint(path);
    }
    const json marker = {{"segstudio_export", m_format}, {"project", m_projectFile}, {"complete", complete},
                         {"files", files}, {"fingerprints", fingerprints}};
    run::writeFileAtomically(m_staging / kMarker, marker.dump(2) + "\n", run::Durability::Deferred);
}

void ExportDestination::publish()
{
    checkDestinationIsReplaceable();  // again: the user may have put a file into it meanwhile
    writeMarker(true);
    run::syncFolder(m_staging);
    std::error_code error;
    const bool replacing = fs::exists(m_destination, error) && !fs::is_empty(m_destination, error);
    if (replacing) {
        exchange(m_staging, m_destination);
        fs::remove_all(m_staging, error);  // the earlier export: every file in it was an export's
    } else {
        fs::rename(m_staging, m_destination, error);  // (over an empty folder, or none)
        if (error)
            throw DataError(m_destination.string(), "cannot move the export into place: " + error.message());
    }
    run::syncFolder(m_destination.parent_path());
    m_created.keep();
    m_published = true;
}

}  // namespace formats
}  // namespace segstudio::data
