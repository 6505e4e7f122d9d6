#pragma once

#include "data/labels/ClassSchema.h"

#include <QStringList>

namespace segstudio::ui::project {

// Class schemas a user can start a project with: the built-in presets, and a custom schema made
// from a list of class names (ids 0.., distinct colours, hotkeys 1..9 then 0).
class SchemaPresets {
public:
    static QStringList presetNames();                         // "CamVid (11 classes)", …
    static data::ClassSchema preset(int index);               // index into presetNames()
    static data::ClassSchema fromNames(const QStringList& names);  // throws DataError on an empty or duplicate name
};

}  // namespace segstudio::ui::project
