#pragma once

#include "data/ImageEntry.h"

#include <QUndoCommand>

#include <cstddef>
#include <utility>
#include <vector>

namespace segstudio::document {

class ProjectDocument;

// Moves images to a split (train, val, test, unassigned); undo gives each its old split back.
class SetSplitCommand : public QUndoCommand {
public:
    SetSplitCommand(ProjectDocument* document, const std::vector<std::size_t>& indices, data::Split split);
    bool isEmpty() const { return m_old.empty(); }  // every image already had that split

    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::vector<std::pair<std::size_t, data::Split>> m_old;
    data::Split m_split;
};

}  // namespace segstudio::document
