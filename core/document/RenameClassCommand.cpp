#include "RenameClassCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

RenameClassCommand::RenameClassCommand(ProjectDocument* document, data::ClassSchema after, const data::LabelClass& renamed)
    : ChangeSchemaCommand(document, std::move(after), QObject::tr("Rename class to %1").arg(QString::fromStdString(renamed.name))),
      m_classId(renamed.id)
{
}

void RenameClassCommand::announce(ProjectDocument* document, bool) const { emit document->classChanged(m_classId); }

}  // namespace segstudio::document
