#pragma once

#include <optional>
#include <string>

namespace segstudio::data {
inline namespace project {

enum class Split { Unassigned, Train, Val, Test };
enum class LabelStatus { Unlabelled, InProgress, Labelled, Reviewed };

std::string toString(Split split);
std::string toString(LabelStatus status);
std::optional<Split> splitFromString(const std::string& text);
std::optional<LabelStatus> labelStatusFromString(const std::string& text);

// One image of a project. Paths are relative to the project folder, with '/' separators;
// labelMap is relative to the project's label folder.
struct ImageEntry {
    std::string image;
    std::string labelMap;
    Split split = Split::Unassigned;
    LabelStatus status = LabelStatus::Unlabelled;

    bool operator==(const ImageEntry& other) const
    {
        return image == other.image && labelMap == other.labelMap && split == other.split && status == other.status;
    }
};

}  // namespace project
}  // namespace segstudio::data
