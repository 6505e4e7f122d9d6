#pragma once

#include <string>

namespace segstudio::engine {

// Writes content to path through a temp file in the same folder and a rename, so a reader (or a
// crash) never sees a half-written file. Throws EngineError naming the file.
void writeFileAtomically(const std::string& path, const std::string& content);

// Renames tempPath over path (same folder); throws EngineError naming path.
void replaceFile(const std::string& tempPath, const std::string& path);

}  // namespace segstudio::engine
