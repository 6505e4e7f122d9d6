#pragma once

#include "paint/LabelPatch.h"

#include <QUndoCommand>

#include <array>
#include <cstdint>
#include <map>

namespace segstudio::ui::editor {

class LabelDocument;

// Any pixel edit of a label map (stroke, fill, superpixels, GrabCut, fill unlabelled): the
// before/after of the changed tiles only. Undo and redo swap them through
// LabelDocument::applyPatch().
class PaintLabels : public QUndoCommand {
public:
    PaintLabels(LabelDocument* document, paint::LabelPatch patch, const QString& text);

    void undo() override;
    void redo() override;
    const paint::LabelPatch& patch() const { return m_patch; }

    // A class merge/delete of the project (step) maps this edit's ids too, so undoing it never
    // brings back an id the schema no longer has; undoing the step gives the patch back.
    void remap(quint64 step, const std::array<std::uint8_t, 256>& table);
    void unremap(quint64 step);

private:
    LabelDocument* m_document;
    paint::LabelPatch m_patch;
    std::map<quint64, paint::LabelPatch> m_beforeRemap;
};

}  // namespace segstudio::ui::editor
