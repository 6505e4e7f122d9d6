#pragma once

#include <QString>

namespace segstudio::ui::predictions {

// What a predict process's gate decided (`predict --adapt-norm auto` says it in one line before
// the images, whether it observed the images or put a kept adaptation back), as a sentence for a
// person: adapted to the project's images, or as trained, with the shift that decided it.
// Guarantees: empty when the output says nothing of it.
class AdaptationSentence {
public:
    static QString from(const QString& output);
};

}  // namespace segstudio::ui::predictions
