#include "RecolourClassCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

RecolourClassCommand::RecolourClassCommand(ProjectDocument* document, data::ClassSchema after,
                                           const data::LabelClass& recoloured)
    : ChangeSchemaCommand(document, std::move(after), QObject::tr("Recolour class %1").arg(QString::fromStdString(recoloured.name))),
      m_classId(recoloured.id)
{
}

bool RecolourClassCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const RecolourClassCommand*>(other);
    if (next->m_classId != m_classId)
        return false;
    m_after = next->m_after;
    return true;
}

void RecolourClassCommand::announce(ProjectDocument* document, bool) const { emit document->classChanged(m_classId); }

}  // namespace segstudio::document
