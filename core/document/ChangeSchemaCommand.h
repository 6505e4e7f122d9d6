#pragma once

#include "data/labels/ClassSchema.h"

#include <QUndoCommand>

namespace segstudio::document {

class ProjectDocument;

// A change of the class list that touches no label map (add, rename, recolour): the schema before
// and after. The pixel history of the open image is not affected, because no id changes meaning.
class ChangeSchemaCommand : public QUndoCommand {
public:
    ChangeSchemaCommand(ProjectDocument* document, data::ClassSchema after, const QString& text);

    void undo() override;
    void redo() override;

protected:
    // Tells the views which class changed, after the schema did (forward: redo).
    virtual void announce(ProjectDocument* document, bool forward) const = 0;

    data::ClassSchema m_before;
    data::ClassSchema m_after;

private:
    ProjectDocument* m_document;
};

}  // namespace segstudio::document
