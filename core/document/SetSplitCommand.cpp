#include "SetSplitCommand.h"

namespace segstudio::document {

SetSplitCommand::SetSplitCommand(ProjectDocument* document, const std::vector<std::size_t>& indices, data::Split split)
    : EntryFieldCommand(document, indices, split, [](const data::ImageEntry& entry) { return entry.split; },
                        &ProjectDocument::applySplit)
{
    setText(QObject::tr("Move %n image(s) to %1", nullptr, int(count())).arg(QString::fromStdString(data::toString(split))));
}

}  // namespace segstudio::document
