#pragma once

#include <string>

namespace segstudio::engine {

// Writes content to path through PATH.tmp in the same folder, fsync and a rename, so a reader (or
// a crash) never sees a half-written file. On any failure (a full disk included) PATH.tmp is
// removed, the previous file at path is left as it was, and EngineError names path and the
// system's reason ("No space left on device").
void writeFileAtomically(const std::string& path, const std::string& content);

}  // namespace segstudio::engine
