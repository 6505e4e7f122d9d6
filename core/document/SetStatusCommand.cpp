#include "SetStatusCommand.h"

namespace segstudio::document {

SetStatusCommand::SetStatusCommand(ProjectDocument* document, const std::vector<std::size_t>& indices,
                                   data::LabelStatus status)
    : EntryFieldCommand(document, indices, status, [](const data::ImageEntry& entry) { return entry.status; },
                        &ProjectDocument::applyStatus)
{
    setText(QObject::tr("Mark %n image(s) %1", nullptr, int(count())).arg(QString::fromStdString(data::toString(status))));
}

}  // namespace segstudio::document
