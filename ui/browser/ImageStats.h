#pragma once

#include <QString>
#include <bitset>

namespace segstudio::ui::browser {

// What the browser knows about one image beyond the project file: how much of it is labelled,
// which classes its label map contains, and why it cannot be used (empty when it can). Computed
// in the background by LabelStatsLoader; `ready` is false until then.
struct ImageStats {
    bool ready = false;
    double labelledFraction = 0.0;
    std::bitset<256> classes;
    QString problem;
};

}  // namespace segstudio::ui::browser
