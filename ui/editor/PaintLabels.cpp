#include "PaintLabels.h"

#include "LabelDocument.h"

namespace segstudio::ui::editor {

PaintLabels::PaintLabels(LabelDocument* document, paint::LabelPatch patch, const QString& text)
    : QUndoCommand(text), m_document(document), m_patch(std::move(patch))
{
}

void PaintLabels::remap(quint64 step, const std::array<std::uint8_t, 256>& table)
{
    m_beforeRemap.emplace(step, m_patch);
    m_patch.remap(table);
}

void PaintLabels::unremap(quint64 step)
{
    const auto kept = m_beforeRemap.find(step);
    if (kept == m_beforeRemap.end())
        return;  // pushed after the step: its ids are already the step's
    m_patch = std::move(kept->second);
    m_beforeRemap.erase(kept);
}

void PaintLabels::undo() { m_document->applyPatch(m_patch, false); }
void PaintLabels::redo() { m_document->applyPatch(m_patch, true); }

}  // namespace segstudio::ui::editor
