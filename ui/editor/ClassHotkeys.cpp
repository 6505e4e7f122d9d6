#include "ClassHotkeys.h"

namespace segstudio::ui::editor {

namespace {

Qt::Key digitKey(int slot) { return Qt::Key(Qt::Key_0 + (slot % 10 + 1) % 10); }

bool shifted(int slot) { return slot >= 10; }

}  // namespace

QKeySequence ClassHotkeys::key(int slot)
{
    return QKeySequence(QKeyCombination(shifted(slot) ? Qt::ShiftModifier : Qt::NoModifier, digitKey(slot)));
}

QString ClassHotkeys::keyText(int slot) { return key(slot).toString(QKeySequence::PortableText); }

std::optional<int> ClassHotkeys::classOf(const data::ClassSchema& schema, int slot)
{
    if (slot < 0 || slot >= kSlots)
        return std::nullopt;
    const QString text = keyText(slot);
    const auto& classes = schema.classes();
    for (const data::LabelClass& c : classes)
        if (QString::fromStdString(c.hotkey).compare(text, Qt::CaseInsensitive) == 0)
            return c.id;
    if (static_cast<std::size_t>(slot) < classes.size())
        return classes[static_cast<std::size_t>(slot)].id;
    return std::nullopt;
}

QString ClassHotkeys::keyOf(const data::ClassSchema& schema, int classId)
{
    // A class at place 1 with hotkey "5" has both keys: the one the schema gave it is shown.
    const data::LabelClass* labelClass = schema.find(classId);
    const QString own = labelClass ? QString::fromStdString(labelClass->hotkey) : QString();
    QString first;
    for (int slot = 0; slot < kSlots; ++slot) {
        if (classOf(schema, slot) != classId)
            continue;
        if (keyText(slot).compare(own, Qt::CaseInsensitive) == 0)
            return keyText(slot);
        if (first.isEmpty())
            first = keyText(slot);
    }
    return first;
}

}  // namespace segstudio::ui::editor
