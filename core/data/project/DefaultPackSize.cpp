#include "DefaultPackSize.h"

#include "data/labels/DataError.h"
#include "data/labels/ImageHeader.h"
#include "Project.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace segstudio::data {
inline namespace project {

cv::Size mostCommonImageSize(const Project& project, std::size_t sampled)
{
    const std::size_t count = project.size();
    if (count == 0 || sampled == 0)
        return {};
    const std::size_t taken = std::min(count, sampled);
    std::map<std::pair<int, int>, std::size_t> votes;  // (height, width) -> images
    for (std::size_t i = 0; i < taken; ++i) {
        const std::size_t index = i * count / taken;  // spread over the project, first image included
        try {
            const cv::Size size = readImageSize(project.imagePath(index));
            ++votes[{size.height, size.width}];
        } catch (const DataError&) {
            // A missing or broken image says nothing about the others' size; packing names it.
        }
    }
    if (votes.empty())
        return {};
    const auto winner = std::max_element(votes.begin(), votes.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
    return {winner->first.second, winner->first.first};
}

cv::Size fitLongSide(cv::Size size, int longSide)
{
    if (size.width <= 0 || size.height <= 0)
        return {};
    const int longest = std::max(size.width, size.height);
    if (longest <= longSide)
        return size;
    const double scale = double(longSide) / double(longest);
    const auto even = [](double side) { return std::max(2, int(std::lround(side / 2.0)) * 2); };
    return {even(size.width * scale), even(size.height * scale)};
}

cv::Size defaultPackSize(const Project& project) { return fitLongSide(mostCommonImageSize(project)); }

}  // namespace project
}  // namespace segstudio::data
