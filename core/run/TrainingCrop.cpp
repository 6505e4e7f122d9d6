#include "TrainingCrop.h"

#include <algorithm>
#include <cmath>

namespace segstudio::run {

namespace {

// Half up, as a person rounds 40 % of 365 (146): the epsilon keeps 0.4 * 365 = 145.99999... there.
int shareOf(int side, double share) { return int(std::floor(side * share + 0.5 + 1e-9)); }

bool mostOf(int crop, int side) { return crop * 5 >= side * 4; }

}  // namespace

TrainingCrop TrainingCrop::ofShare(int imageHeight, int imageWidth, double share)
{
    if (!(share > 0.0 && share < 1.0) || imageHeight <= 0 || imageWidth <= 0)
        return {};
    const bool landscape = imageWidth >= imageHeight;
    const int smallestHeight = landscape ? kSmallestShortSide : kSmallestLongSide;
    const int smallestWidth = landscape ? kSmallestLongSide : kSmallestShortSide;
    const int height = std::max(shareOf(imageHeight, share), smallestHeight);
    const int width = std::max(shareOf(imageWidth, share), smallestWidth);
    if (mostOf(height, imageHeight) || mostOf(width, imageWidth))
        return {};
    return {height, width};
}

}  // namespace segstudio::run
