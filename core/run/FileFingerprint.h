#pragma once

#include <filesystem>
#include <string>

namespace segstudio::run {

// What SegStudio records of a file it wrote, so that a later command can tell its own file from
// one a person changed since (an export's marker, a command's output ledger, an evaluation
// report's): the file's size and modification time in nanoseconds, as one short text
// ("size 1234 mtime 1764375600123456789"), as git's index and rsync's quick check tell a changed
// file. Any edit sets a new modification time, and nothing needs reading back.
// Guarantees: a missing or unreadable file gives an empty text, which matches no recorded one.
std::string fileFingerprint(const std::filesystem::path& file);

}  // namespace segstudio::run
