#pragma once

#include "EntryFieldCommand.h"

namespace segstudio::document {

// Moves images to a split (train, val, test, unassigned); undo gives each its old split back.
class SetSplitCommand : public EntryFieldCommand<data::Split> {
public:
    SetSplitCommand(ProjectDocument* document, const std::vector<std::size_t>& indices, data::Split split);
};

}  // namespace segstudio::document
