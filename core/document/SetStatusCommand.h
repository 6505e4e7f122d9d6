#pragma once

#include "EntryFieldCommand.h"

namespace segstudio::document {

// Sets the label status of images (unlabelled, in progress, labelled, reviewed); undo gives each
// its old one back.
class SetStatusCommand : public EntryFieldCommand<data::LabelStatus> {
public:
    SetStatusCommand(ProjectDocument* document, const std::vector<std::size_t>& indices, data::LabelStatus status);
};

}  // namespace segstudio::document
