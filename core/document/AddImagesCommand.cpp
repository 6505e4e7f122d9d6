#include "AddImagesCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

AddImagesCommand::AddImagesCommand(ProjectDocument* document, std::vector<data::ImageEntry> entries)
    : QUndoCommand(QObject::tr("Add %n image(s)", nullptr, int(entries.size()))), m_document(document),
      m_entries(std::move(entries))
{
}

void AddImagesCommand::undo()
{
    m_document->beginEntryChanges();
    for (std::size_t n = m_entries.size(); n-- > 0;)
        m_document->removeEntry(m_first + n);
    m_document->endEntryChanges();
}

void AddImagesCommand::redo()
{
    m_first = m_document->size();
    m_document->beginEntryChanges();
    for (std::size_t n = 0; n < m_entries.size(); ++n)
        m_document->insertEntry(m_first + n, m_entries[n]);
    m_document->endEntryChanges();
}

}  // namespace segstudio::document
