#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace segstudio::data {
inline namespace project { class Project; }

inline namespace project {
// Which images of a project are frames of one video sequence, told from their paths alone: a
// frame's name is its sequence's name with a frame number in it. CamVid's `0016E5_07959.png`,
// Cityscapes' `aachen_000123_000019_leftImg8bit.png` (city and sequence, then the frame), counters
// such as `frame_0001.png`, `img0007.jpg` or `00042.png` all read this way: the number is the last
// run of digits that is not inside a word (the 8 of `leftImg8bit` is not), and the sequence is the
// folder plus the name with that number taken out, so `frame_9` and `frame_10` are one sequence
// and the left and right frames of a stereo pair (`left_0001`, `right_0001`) two.
// A name without such a number is no frame: the image is a sequence of its own.
// Requirements: paths relative to the project folder with '/' separators (as ImageEntry keeps them).
// Guarantees: every index of the list is in exactly one sequence; a sequence lists its images by
//   frame number (the path breaks a tie), and the sequences come in the order of their ids, so the
//   same list always gives the same sequences.
class FrameSequence {
public:
    struct Key {
        std::string sequence;  // folder/name-with-'#'-for-the-number; the path itself when !valid
        std::int64_t frame = 0;  // 0 when !valid
        bool valid = false;  // the name holds a frame number
    };

    static Key keyOf(const std::string& relativePath);

    FrameSequence() = default;
    explicit FrameSequence(const std::vector<std::string>& relativePaths);
    explicit FrameSequence(const Project& project);

    // Every sequence, each as indices into the list it was built from, in frame order.
    const std::vector<std::vector<std::size_t>>& sequences() const { return m_sequences; }
    // The sequence an image belongs to (itself alone when it is no frame).
    const std::vector<std::size_t>& sequenceOf(std::size_t index) const;
    // The image of the frame after / before it in its sequence; nullopt at either end.
    std::optional<std::size_t> next(std::size_t index) const;
    std::optional<std::size_t> previous(std::size_t index) const;

private:
    std::vector<std::vector<std::size_t>> m_sequences;
    std::vector<std::size_t> m_sequenceOf;  // per image: its sequence in m_sequences
    std::vector<std::size_t> m_positionOf;  // per image: its place in that sequence
};

}  // namespace project
}  // namespace segstudio::data
