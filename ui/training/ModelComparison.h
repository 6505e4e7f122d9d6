#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace segstudio::ui::training {

// Whether a new model may take over predictions and Smart Click from the one in use without the
// user choosing it: only when both were validated on the same images (the same validation pack,
// by its checksum) and the new one scored a higher best mean IoU there. Anything else (a run
// without validation, another validation set, a lower score) keeps the model in use, and the
// verdict says why in one line for the status bar.
// Requirements: none (reads only the run folders' metrics.jsonl, config.json and the header of
//   their validation pack; a few milliseconds).
class ModelComparison {
public:
    struct Score {
        double bestMeanIoU = 0.0;
        std::uint64_t valPackChecksum = 0;  // the pack's stored checksum: which images
        std::size_t valImages = 0;
    };
    enum class Outcome { Better, NotBetter, NotComparable };
    struct Verdict {
        Outcome outcome = Outcome::NotComparable;
        QString text;  // "runs/b validated 0.712 against 0.700 of runs/a on the same 101 images"
    };

    // The run's best validation and what it was validated on; nullopt when it never validated
    // or its validation pack is gone or unreadable.
    static std::optional<Score> scoreOf(const QString& runDir);
    // The validation pack the run names in config.json, else the Train dialog's <run>/val.pack;
    // empty when the run had none or it is gone.
    static QString valPackOf(const QString& runDir);
    // Of runs listed newest first: the one with the highest best validation mIoU (a project
    // opened with no model chosen yet), the newest when none validated; empty for no runs.
    static QString bestOf(const QStringList& runDirs);
    static Verdict compare(const QString& inUseName, const std::optional<Score>& inUse, const QString& candidateName,
                           const std::optional<Score>& candidate);
};

}  // namespace segstudio::ui::training
