#pragma once

#include "run/RunLayout.h"

#include <QString>

#include <filesystem>

namespace segstudio::ui::common {

// The widgets name a run by its directory as a QString; these give its files' layout and paths.
inline run::RunLayout layoutOf(const QString& runDir) { return run::RunLayout(runDir.toStdString()); }

inline QString pathOf(const std::filesystem::path& file) { return QString::fromStdString(file.string()); }

}  // namespace segstudio::ui::common
