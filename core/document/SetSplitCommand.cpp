#include "SetSplitCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

SetSplitCommand::SetSplitCommand(ProjectDocument* document, const std::vector<std::size_t>& indices, data::Split split)
    : m_document(document), m_split(split)
{
    for (const std::size_t index : indices) {
        if (index < document->size() && document->project().entry(index).split != split)
            m_old.emplace_back(index, document->project().entry(index).split);
    }
    setText(QObject::tr("Move %n image(s) to %1", nullptr, int(m_old.size())).arg(QString::fromStdString(data::toString(split))));
}

void SetSplitCommand::undo()
{
    for (const auto& [index, split] : m_old)
        m_document->applySplit(index, split);
}

void SetSplitCommand::redo()
{
    for (const auto& [index, split] : m_old)
        m_document->applySplit(index, m_split);
}

}  // namespace segstudio::document
