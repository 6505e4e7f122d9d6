#pragma once

#include "data/project/ImageEntry.h"

#include <QUndoCommand>

#include <cstddef>
#include <utility>
#include <vector>

namespace segstudio::document {

class ProjectDocument;

// Takes images out of the project (their files and label maps stay on disk); undo puts each entry
// back where it was, split and status included, so the project file comes back byte for byte.
class RemoveImagesCommand : public QUndoCommand {
public:
    // indices: ascending, unique, all valid.
    RemoveImagesCommand(ProjectDocument* document, const std::vector<std::size_t>& indices);

    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::vector<std::pair<std::size_t, data::ImageEntry>> m_removed;  // ascending by index
};

}  // namespace segstudio::document
