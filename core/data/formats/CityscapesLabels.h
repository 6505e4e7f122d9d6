#pragma once

#include "data/labels/LabelClass.h"

#include <array>
#include <cstdint>

namespace segstudio::data {
inline namespace formats {

// Cityscapes' label table (cityscapesScripts' labels.py): the 34 label ids and the 19 training
// classes they map to; every id not listed trains as 255.
struct CityscapesClass {
    int labelId;
    const char* name;
    Rgb color;
};

inline constexpr std::array<CityscapesClass, 19> kCityscapesTrainClasses = {{
    {7, "road", {128, 64, 128}},      {8, "sidewalk", {244, 35, 232}},     {11, "building", {70, 70, 70}},
    {12, "wall", {102, 102, 156}},    {13, "fence", {190, 153, 153}},      {17, "pole", {153, 153, 153}},
    {19, "traffic light", {250, 170, 30}}, {20, "traffic sign", {220, 220, 0}}, {21, "vegetation", {107, 142, 35}},
    {22, "terrain", {152, 251, 152}}, {23, "sky", {70, 130, 180}},         {24, "person", {220, 20, 60}},
    {25, "rider", {255, 0, 0}},       {26, "car", {0, 0, 142}},            {27, "truck", {0, 0, 70}},
    {28, "bus", {0, 60, 100}},        {31, "train", {0, 80, 100}},         {32, "motorcycle", {0, 0, 230}},
    {33, "bicycle", {119, 11, 32}},
}};

}  // namespace formats
}  // namespace segstudio::data
