#pragma once

#include "LabelClass.h"

#include <vector>

namespace segstudio::data {
inline namespace labels {

// A colour far from every colour in `taken` (the largest smallest RGB distance among 64 hues on
// the golden angle), for a class added by hand or made by an importer from a category name.
Rgb distinctColor(const std::vector<Rgb>& taken);

}  // namespace labels
}  // namespace segstudio::data
