#include "AddClassCommand.h"

namespace segstudio::document {

AddClassCommand::AddClassCommand(ProjectDocument* document, data::ClassSchema after, const data::LabelClass& added)
    : ChangeSchemaCommand(document, std::move(after), QObject::tr("Add class %1").arg(QString::fromStdString(added.name)))
{
}

}  // namespace segstudio::document
