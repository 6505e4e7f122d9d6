#pragma once

#include "ChangeSchemaCommand.h"

namespace segstudio::document {

// Renames a class; its id, and so every label map, stays as it is.
class RenameClassCommand : public ChangeSchemaCommand {
public:
    RenameClassCommand(ProjectDocument* document, data::ClassSchema after, const data::LabelClass& renamed);

private:
    void announce(ProjectDocument* document, bool) const override;
    int m_classId;
};

}  // namespace segstudio::document
