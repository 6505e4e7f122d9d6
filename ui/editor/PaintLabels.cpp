#include "PaintLabels.h"

#include "LabelDocument.h"

namespace segstudio::ui {

PaintLabels::PaintLabels(LabelDocument* document, paint::LabelPatch patch, const QString& text)
    : QUndoCommand(text), m_document(document), m_patch(std::move(patch))
{
}

void PaintLabels::undo() { m_document->applyPatch(m_patch, false); }
void PaintLabels::redo() { m_document->applyPatch(m_patch, true); }

}  // namespace segstudio::ui
