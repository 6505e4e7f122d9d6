#pragma once

#include "ProjectDocument.h"

#include <QUndoCommand>

#include <cstddef>
#include <utility>
#include <vector>

namespace segstudio::document {

// Sets one field (split or status) of some images to one value; undo gives each image its own old
// value back. The images that already have the value are left out, so an edit that changes
// nothing is empty (and never pushed).
template <typename Value>
class EntryFieldCommand : public QUndoCommand {
public:
    bool isEmpty() const { return m_old.empty(); }
    void undo() override
    {
        for (const auto& [index, value] : m_old)
            (m_document->*m_apply)(index, value);
    }
    void redo() override
    {
        for (const auto& [index, value] : m_old)
            (m_document->*m_apply)(index, m_value);
    }

protected:
    using Read = Value (*)(const data::ImageEntry&);
    using Apply = void (ProjectDocument::*)(std::size_t, Value);

    EntryFieldCommand(ProjectDocument* document, const std::vector<std::size_t>& indices, Value value, Read read, Apply apply)
        : m_document(document), m_value(value), m_apply(apply)
    {
        for (const std::size_t index : indices) {
            if (index < document->size() && read(document->project().entry(index)) != value)
                m_old.emplace_back(index, read(document->project().entry(index)));
        }
    }
    std::size_t count() const { return m_old.size(); }

private:
    ProjectDocument* m_document;
    std::vector<std::pair<std::size_t, Value>> m_old;
    Value m_value;
    Apply m_apply;
};

}  // namespace segstudio::document
