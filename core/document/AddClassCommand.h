#pragma once

#include "ChangeSchemaCommand.h"

namespace segstudio::document {

// Adds a class; undo removes it again (no label map can hold its id before it exists).
class AddClassCommand : public ChangeSchemaCommand {
public:
    AddClassCommand(ProjectDocument* document, data::ClassSchema after, const data::LabelClass& added);

private:
    void announce(ProjectDocument* document, bool forward) const override;
    int m_classId;
};

}  // namespace segstudio::document
