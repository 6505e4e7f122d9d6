#pragma once

#include "paint/LabelPatch.h"

#include <QUndoCommand>

namespace segstudio::ui {

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

private:
    LabelDocument* m_document;
    paint::LabelPatch m_patch;
};

}  // namespace segstudio::ui
