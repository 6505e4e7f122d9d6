#pragma once

#include "ChangeSchemaCommand.h"

namespace segstudio::document {

// Gives a class another colour. Label maps keep their ids (the palette in a map's PNG follows on
// its next save). Consecutive recolours of one class merge into one undo step, as a colour
// dialog tried a few times is one decision.
class RecolourClassCommand : public ChangeSchemaCommand {
public:
    RecolourClassCommand(ProjectDocument* document, data::ClassSchema after, const data::LabelClass& recoloured);

    int id() const override { return kId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    void announce(ProjectDocument* document, bool) const override;

    static constexpr int kId = 0x5e6c;
    int m_classId;
};

}  // namespace segstudio::document
