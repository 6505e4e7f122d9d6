#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace segstudio::data {

// Writes a whole file so that readers see either the old or the new content, never a mix: the
// bytes go to a temp file beside the target, are flushed to disk, and are renamed over it. On any
// failure the temp file is removed, the old file is untouched and DataError names the file.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);
void writeFileAtomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes);

std::string readFile(const std::filesystem::path& path);  // DataError when missing or unreadable

}  // namespace segstudio::data
