#pragma once

#include "data/project/ImageEntry.h"

#include <QUndoCommand>

#include <vector>

namespace segstudio::document {

class ProjectDocument;

// Appends images to the project (their label maps named already, uniquely); undo removes exactly
// those entries again. The image files are never touched.
class AddImagesCommand : public QUndoCommand {
public:
    AddImagesCommand(ProjectDocument* document, std::vector<data::ImageEntry> entries);

    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::vector<data::ImageEntry> m_entries;
    std::size_t m_first = 0;  // where the first one went
};

}  // namespace segstudio::document
