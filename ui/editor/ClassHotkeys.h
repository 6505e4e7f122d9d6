#pragma once

#include "data/labels/ClassSchema.h"

#include <QKeySequence>
#include <QString>

#include <optional>

namespace segstudio::ui::editor {

// The keys that choose the class to paint with: 1…9, 0 for the first ten classes of the list and
// Shift+1…Shift+0 for the 11th to the 20th, so that an 11-class schema such as CamVid's has a key
// for every class (its 11th, Bicyclist, had none). A class whose schema hotkey names one of these
// keys ("3", "Shift+2") takes that key over from the class at its place in the list.
// Pure: the editor's shortcuts and the classes panel's Key column both ask here, so they agree.
class ClassHotkeys {
public:
    static constexpr int kSlots = 20;

    static QKeySequence key(int slot);  // slot 0..kSlots-1
    static QString keyText(int slot);   // "1", …, "0", "Shift+1", …: as a schema hotkey spells it
    // The class a key selects in this schema; none when the schema is shorter than the slot.
    static std::optional<int> classOf(const data::ClassSchema& schema, int slot);
    // The key that selects a class (the first, should two), empty when none does.
    static QString keyOf(const data::ClassSchema& schema, int classId);
};

}  // namespace segstudio::ui::editor
