#pragma once

#include "data/ImageEntry.h"

#include <QUndoCommand>

#include <cstddef>
#include <utility>
#include <vector>

namespace segstudio::document {

class ProjectDocument;

// Sets the label status of images (unlabelled, in progress, labelled, reviewed); undo gives each its old one back.
class SetStatusCommand : public QUndoCommand {
public:
    SetStatusCommand(ProjectDocument* document, const std::vector<std::size_t>& indices, data::LabelStatus status);
    bool isEmpty() const { return m_old.empty(); }  // every image already had that status

    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::vector<std::pair<std::size_t, data::LabelStatus>> m_old;
    data::LabelStatus m_status;
};

}  // namespace segstudio::document
