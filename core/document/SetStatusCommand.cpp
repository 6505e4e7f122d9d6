#include "SetStatusCommand.h"

#include "ProjectDocument.h"

namespace segstudio::document {

SetStatusCommand::SetStatusCommand(ProjectDocument* document, const std::vector<std::size_t>& indices,
                                   data::LabelStatus status)
    : m_document(document), m_status(status)
{
    for (const std::size_t index : indices) {
        if (index < document->size() && document->project().entry(index).status != status)
            m_old.emplace_back(index, document->project().entry(index).status);
    }
    setText(QObject::tr("Mark %n image(s) %1", nullptr, int(m_old.size())).arg(QString::fromStdString(data::toString(status))));
}

void SetStatusCommand::undo()
{
    for (const auto& [index, status] : m_old)
        m_document->applyStatus(index, status);
}

void SetStatusCommand::redo()
{
    for (const auto& [index, status] : m_old)
        m_document->applyStatus(index, m_status);
}

}  // namespace segstudio::document
