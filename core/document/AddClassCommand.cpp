#include "AddClassCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

AddClassCommand::AddClassCommand(ProjectDocument* document, data::ClassSchema after, const data::LabelClass& added)
    : ChangeSchemaCommand(document, std::move(after), QObject::tr("Add class %1").arg(QString::fromStdString(added.name))),
      m_classId(added.id)
{
}

void AddClassCommand::announce(ProjectDocument* document, bool forward) const
{
    if (forward)
        emit document->classAdded(m_classId);
    else
        emit document->classRemoved(m_classId);
}

}  // namespace segstudio::document
