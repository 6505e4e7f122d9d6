#include "RemoveImagesCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

RemoveImagesCommand::RemoveImagesCommand(ProjectDocument* document, const std::vector<std::size_t>& indices)
    : QUndoCommand(QObject::tr("Remove %n image(s)", nullptr, int(indices.size()))), m_document(document)
{
    for (const std::size_t index : indices)
        m_removed.emplace_back(index, document->project().entry(index));
}

void RemoveImagesCommand::undo()
{
    m_document->beginEntryChanges();
    // Ascending: each entry goes back to the index it had, the ones before it being back already.
    for (const auto& [index, entry] : m_removed)
        m_document->insertEntry(index, entry);
    m_document->endEntryChanges();
}

void RemoveImagesCommand::redo()
{
    m_document->beginEntryChanges();
    // Descending, so the indices still to remove do not shift.
    for (auto it = m_removed.rbegin(); it != m_removed.rend(); ++it)
        m_document->removeEntry(it->first);
    m_document->endEntryChanges();
}

}  // namespace segstudio::document
