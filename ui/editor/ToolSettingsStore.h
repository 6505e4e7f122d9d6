#pragma once

namespace segstudio::ui::editor {

class ToolSettings;

// The tools' settings that are a person's way of working, kept across starts in QSettings: the
// brush's size and shape, the magic wand's tolerance and the superpixels' size. The current
// class and the locks belong to a project and are not kept.
// Requirements: GUI thread (QSettings of the application).
class ToolSettingsStore {
public:
    static void restore(ToolSettings& settings);
    static void keep(const ToolSettings& settings);
    static void forget();  // back to the defaults at the next restore (tests)
};

}  // namespace segstudio::ui::editor
