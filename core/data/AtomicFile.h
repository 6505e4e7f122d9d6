#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace segstudio::data {

// Immediate: the file is on disk when the call returns (fsync of the file and its folder, ~10-20 ms
// here): for a user's edits. Deferred: only the atomic rename; the caller makes a whole batch of new
// files durable with one syncFolder() at the end (bulk import and export write thousands).
enum class Durability { Immediate, Deferred };

// Writes a whole file so that readers see either the old or the new content, never a mix: the
// bytes go to a temp file beside the target and are renamed over it. On any failure the temp file
// is removed, the old file is untouched and DataError names the file.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes,
                         Durability durability = Durability::Immediate);
void writeFileAtomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes,
                         Durability durability = Durability::Immediate);

// Flushes everything written to the file system that holds `folder` (syncfs).
void syncFolder(const std::filesystem::path& folder);

std::string readFile(const std::filesystem::path& path);  // DataError when missing or unreadable

}  // namespace segstudio::data
