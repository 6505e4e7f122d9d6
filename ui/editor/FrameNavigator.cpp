#include "FrameNavigator.h"

#include "data/project/Project.h"
#include "document/ProjectDocument.h"

namespace segstudio::ui::editor {

FrameNavigator::FrameNavigator(QObject* parent) : QObject(parent) { }

void FrameNavigator::setDocument(document::ProjectDocument* document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_stale = true;
    m_sequence = {};
    if (!document)
        return;
    // Indices shift with every insertion and removal: the sequences are made again when next asked
    // (a batch of thousands of added images costs one rebuild, not one per image).
    const auto stale = [this] { m_stale = true; };
    connect(document, &document::ProjectDocument::imageInserted, this, stale);
    connect(document, &document::ProjectDocument::imageRemoved, this, stale);
    connect(document, &document::ProjectDocument::entriesChanged, this, stale);
}

const data::FrameSequence& FrameNavigator::sequence() const
{
    if (m_stale) {
        m_sequence = m_document ? data::FrameSequence(m_document->project()) : data::FrameSequence();
        m_stale = false;
    }
    return m_sequence;
}

bool FrameNavigator::known(std::size_t index) const { return m_document && index < m_document->size(); }

bool FrameNavigator::inSequence(std::size_t index) const
{
    return known(index) && sequence().sequenceOf(index).size() > 1;
}

std::optional<std::size_t> FrameNavigator::neighbour(std::size_t index, Direction direction) const
{
    if (!known(index))
        return std::nullopt;
    return direction == Direction::Next ? sequence().next(index) : sequence().previous(index);
}

std::vector<std::size_t> FrameNavigator::labelledFrames(std::size_t index, Direction direction) const
{
    std::vector<std::size_t> frames;
    for (auto frame = neighbour(index, direction); frame; frame = neighbour(*frame, direction))
        if (m_document->project().entry(*frame).status != data::LabelStatus::Unlabelled)
            frames.push_back(*frame);
    return frames;
}

}  // namespace segstudio::ui::editor
