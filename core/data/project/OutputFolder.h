#pragma once

#include "ProjectLock.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::run { class AppendOnlyFile; }

namespace segstudio::data {
inline namespace project {
class Project;

// A folder a command fills file by file (predict's maps and overlays, evaluate's predictions and
// report), where it may replace only a file that SegStudio wrote there and nobody changed since:
// a folder of the user's PNGs, or the project's label maps, are never written over.
// A ledger in the folder (.segstudio-outputs.jsonl, one JSON line per entry) records each name
// before its file is written (reserve) and the file's fingerprint once it is in place (written), so
// a command killed between the two leaves a name the next one recognises as its own. A name is
// free when no file has it, or when the ledger holds it with the fingerprint the file still has,
// or pending (reserved by a command that was killed before it recorded the file). A command that
// ends without writing a name it reserved gives the name its earlier record back.
// Requirements: one OutputFolder per folder at a time: the folder is claimed (flock on
//   .segstudio-outputs.lock inside it) for the object's life, and a second is refused naming the holder.
// Guarantees: the constructor and reserve() throw DataError naming the folder or the first file
//   that is not free, before any file of the command is written.
class OutputFolder {
public:
    // project: when given, the folder may not hold the project file, its label folder or images,
    // nor lie in the label folder. `what` names the outputs in messages ("predictions").
    OutputFolder(const std::filesystem::path& folder, const Project* project, const std::string& what);
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;

    const std::filesystem::path& path() const { return m_folder; }
    void reserve(const std::vector<std::string>& names);
    // Again just before writing them (a command may run for minutes after reserve()): a file put
    // there, or changed, since is the user's. DataError naming it.
    void requireFree(const std::vector<std::string>& names) const;
    void written(const std::string& name);  // after the file `name` is in place
    void written(const std::vector<std::string>& names);  // those of them that are in place
    // Records the named files as this folder's own, as they are now: for a folder SegStudio
    // filled before it kept a ledger (a run's prediction cache), recognised by its caller.
    void adopt(const std::vector<std::string>& names);

    static constexpr const char* kLedger = ".segstudio-outputs.jsonl";

private:
    void claim(const std::string& what);
    void readLedger();
    bool isFree(const std::string& name) const;
    void append(const std::string& name, const std::optional<std::string>& fingerprint);
    void giveBackUnwritten() noexcept;

    std::filesystem::path m_folder;
    ProjectLock m_claim;
    // Each name the ledger holds, with its file's fingerprint once written (nullopt: pending).
    std::map<std::string, std::optional<std::string>> m_ledger;
    // The names this object reserved and has not written yet, with their records before.
    std::map<std::string, std::optional<std::string>> m_reserved;
    std::unique_ptr<run::AppendOnlyFile> m_ledgerFile;  // opened at the first entry
};

}  // namespace project
}  // namespace segstudio::data
