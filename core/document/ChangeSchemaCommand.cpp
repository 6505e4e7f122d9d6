#include "ChangeSchemaCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

ChangeSchemaCommand::ChangeSchemaCommand(ProjectDocument* document, data::ClassSchema after, const QString& text)
    : QUndoCommand(text), m_before(document->schema()), m_after(std::move(after)), m_document(document)
{
}

void ChangeSchemaCommand::undo()
{
    m_document->applySchema(m_before);
    announce(m_document, false);
}

void ChangeSchemaCommand::redo()
{
    m_document->applySchema(m_after);
    announce(m_document, true);
}

}  // namespace segstudio::document
