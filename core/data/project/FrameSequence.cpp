#include "FrameSequence.h"

#include "Project.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace segstudio::data {
inline namespace project {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// More digits than this would overflow int64; such a run is an id or a hash, not a counter.
constexpr std::size_t kMaxFrameDigits = 18;

}  // namespace

FrameSequence::Key FrameSequence::keyOf(const std::string& relativePath)
{
    const std::size_t slash = relativePath.rfind('/');
    const std::size_t nameStart = slash == std::string::npos ? 0 : slash + 1;
    // The extension stays in the sequence's id (frame_0001.png and frame_0001.jpg are two
    // sequences), but its digits (.mp4, .jp2) are no frame number.
    std::size_t stemEnd = relativePath.rfind('.');
    if (stemEnd == std::string::npos || stemEnd <= nameStart)
        stemEnd = relativePath.size();

    std::size_t end = stemEnd;
    while (end > nameStart) {
        if (!isDigit(relativePath[end - 1])) {
            --end;
            continue;
        }
        std::size_t begin = end;
        while (begin > nameStart && isDigit(relativePath[begin - 1]))
            --begin;
        // Digits with letters on both sides are part of a word (Cityscapes' "leftImg8bit").
        const bool inWord =
            begin > nameStart && isLetter(relativePath[begin - 1]) && end < stemEnd && isLetter(relativePath[end]);
        if (!inWord) {
            if (end - begin > kMaxFrameDigits)
                break;
            Key key;
            key.sequence = relativePath.substr(0, begin) + '#' + relativePath.substr(end);
            key.frame = std::stoll(relativePath.substr(begin, end - begin));
            key.valid = true;
            return key;
        }
        end = begin;
    }
    return Key {relativePath, 0, false};
}

FrameSequence::FrameSequence(const std::vector<std::string>& relativePaths)
    : m_sequenceOf(relativePaths.size()), m_positionOf(relativePaths.size())
{
    // Keyed by (id, valid): a name without a number whose path happens to read like another
    // sequence's id ("a#.png") still stays alone.
    std::map<std::pair<std::string, bool>, std::vector<std::tuple<std::int64_t, std::string, std::size_t>>> groups;
    for (std::size_t i = 0; i < relativePaths.size(); ++i) {
        Key key = keyOf(relativePaths[i]);
        const bool valid = key.valid;
        groups[{std::move(key.sequence), valid}].emplace_back(key.frame, relativePaths[i], i);
    }
    m_sequences.reserve(groups.size());
    for (auto& [id, frames] : groups) {
        std::sort(frames.begin(), frames.end());
        std::vector<std::size_t> sequence;
        sequence.reserve(frames.size());
        for (const auto& frame : frames) {
            const std::size_t index = std::get<2>(frame);
            m_sequenceOf[index] = m_sequences.size();
            m_positionOf[index] = sequence.size();
            sequence.push_back(index);
        }
        m_sequences.push_back(std::move(sequence));
    }
}

FrameSequence::FrameSequence(const Project& project)
    : FrameSequence([&project] {
          std::vector<std::string> paths;
          paths.reserve(project.size());
          for (const ImageEntry& entry : project.entries())
              paths.push_back(entry.image);
          return paths;
      }())
{ }

const std::vector<std::size_t>& FrameSequence::sequenceOf(std::size_t index) const
{
    return m_sequences[m_sequenceOf.at(index)];
}

std::optional<std::size_t> FrameSequence::next(std::size_t index) const
{
    const std::vector<std::size_t>& sequence = sequenceOf(index);
    const std::size_t position = m_positionOf[index];
    if (position + 1 >= sequence.size())
        return std::nullopt;
    return sequence[position + 1];
}

std::optional<std::size_t> FrameSequence::previous(std::size_t index) const
{
    const std::vector<std::size_t>& sequence = sequenceOf(index);
    const std::size_t position = m_positionOf[index];
    if (position == 0)
        return std::nullopt;
    return sequence[position - 1];
}

}  // namespace project
}  // namespace segstudio::data
