#include "RenameClassCommand.h"

namespace segstudio::document {

RenameClassCommand::RenameClassCommand(ProjectDocument* document, data::ClassSchema after, const data::LabelClass& renamed)
    : ChangeSchemaCommand(document, std::move(after), QObject::tr("Rename class to %1").arg(QString::fromStdString(renamed.name)))
{
}

}  // namespace segstudio::document
