#include "ImageEntry.h"

#include <array>
#include <utility>

namespace segstudio::data {
inline namespace project {

namespace {

constexpr std::array<std::pair<Split, const char*>, 4> kSplitNames{{
    {Split::Unassigned, "unassigned"}, {Split::Train, "train"}, {Split::Val, "val"}, {Split::Test, "test"}}};
constexpr std::array<std::pair<LabelStatus, const char*>, 4> kStatusNames{{{LabelStatus::Unlabelled, "unlabelled"},
                                                                           {LabelStatus::InProgress, "in-progress"},
                                                                           {LabelStatus::Labelled, "labelled"},
                                                                           {LabelStatus::Reviewed, "reviewed"}}};

template <typename Enum, std::size_t N>
std::string nameOf(const std::array<std::pair<Enum, const char*>, N>& names, Enum value)
{
    for (const auto& [candidate, name] : names)
        if (candidate == value)
            return name;
    return {};
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, const char*>, N>& names, const std::string& text)
{
    for (const auto& [candidate, name] : names)
        if (text == name)
            return candidate;
    return std::nullopt;
}

}  // namespace

std::string toString(Split split) { return nameOf(kSplitNames, split); }
std::string toString(LabelStatus status) { return nameOf(kStatusNames, status); }
std::optional<Split> splitFromString(const std::string& text) { return valueOf(kSplitNames, text); }
std::optional<LabelStatus> labelStatusFromString(const std::string& text) { return valueOf(kStatusNames, text); }

}  // namespace project
}  // namespace segstudio::data
