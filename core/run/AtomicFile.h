#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace segstudio::run {

// Immediate: the file is on disk when the call returns (fsync of the file and its folder, ~10-20 ms
// here): for a user's edits. Deferred: only the atomic rename; the caller makes a whole batch of new
// files durable with one syncFolder() at the end (bulk import and export write thousands).
// Staged: the file goes into a folder that only this writer uses and that is synced and renamed
// into place as a whole (an import's staging folder): written in place, no temp file and no
// rename, which halves the directory operations of writing 20,000 label maps.
enum class Durability { Immediate, Deferred, Staged };

// The one atomic write of SegStudio (projects, label maps, checkpoints, run configs): readers see
// either the old or the new content, never a mix. The bytes go to PATH.tmp beside the target and
// are renamed over it.
// Requirements: one writer per file at a time (each file has one owner: the project lock, the
//   trainer's rank 0).
// Guarantees: on any failure PATH.tmp is removed, the old file is untouched and FileError names
//   the file and the system's reason ("No space left on device").
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes,
                         Durability durability = Durability::Immediate);
void writeFileAtomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes,
                         Durability durability = Durability::Immediate);
void writeFileAtomically(const std::filesystem::path& path, const char* bytes, std::size_t size,
                         Durability durability = Durability::Immediate);

// Flushes everything written to the file system that holds `folder` (syncfs).
void syncFolder(const std::filesystem::path& folder);

std::string readFile(const std::filesystem::path& path);  // FileError when missing or unreadable

// Whether `folder` holds nothing but what writeFileAtomically(folder / fileName) leaves when it is
// killed before its rename (its temporary file), or nothing at all: how a command recognises the
// start of its own staging folder, made before the marker that names it was in place.
bool holdsOnlyUnfinishedWriteOf(const std::filesystem::path& folder, const std::string& fileName);

}  // namespace segstudio::run
