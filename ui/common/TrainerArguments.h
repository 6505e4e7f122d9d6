#pragma once

#include "TrainSettings.h"

#include <QString>
#include <QStringList>

namespace segstudio::ui::common {

// The command lines of segstudio-train, one builder per subcommand, for every panel that starts
// it (training, live fine-tune, predictions, evaluation). Pure: tests read them without a process.
// The options are the CLI's (docs/ENGINE.md); a panel never spells one itself.
class TrainerArguments {
public:
    // pack: one split of a project into a pack at the given size.
    static QStringList pack(const QString& projectFile, const QString& split, const QString& packFile, int height,
                            int width);
    // train: the run folder's train.pack and val.pack, and only the settings the user chose; a
    // crop as --crop-height/--crop-width in pixels of the pack (TrainSettings::crop()).
    static QStringList train(const QString& runDir, const TrainSettings& settings);
    // train --resume: a stopped run; epochs > 0 sets a new total of epochs, minutes > 0 a new
    // total of training time (a time-budgeted run); give at most one of them.
    static QStringList resume(const QString& runDir, int epochs = 0, int minutes = 0);
    // train from a run's checkpoint with that run's config: the live fine-tune (no validation,
    // a time budget in seconds, the given rate, automatic warm-up).
    static QStringList fineTune(const QString& baseRunDir, const QString& initFrom, const QString& packFile,
                                const QString& runDir, int budgetSeconds, double learningRate,
                                const QString& valPack = QString());
    // predict with confidence maps into a prediction cache folder: a project's split ("val",
    // "all", ...) or the named images of it.
    static QStringList predictSplit(const QString& checkpoint, const QString& cacheFolder, const QString& projectFile,
                                    const QString& split);
    static QStringList predictImages(const QString& checkpoint, const QString& cacheFolder, const QString& projectFile,
                                     const QStringList& images);
    // What predict adds to adapt the model's batch norms to the project's images first (16 of them
    // spread over the project: AdaBN, docs/LABELING.md "its batch norms") where they are of another
    // kind than the run trained on (`--adapt-norm auto`: by their shift at the first batch norm;
    // "Adapt only images of another kind").
    static QStringList adaptation();
    // The same, the adaptation kept in the prediction cache (adaptation.pt) for the next process
    // predicting there, so one image's prediction does not observe 16 images again.
    static QStringList keptAdaptation();
    // evaluate a split into a report folder, filling the prediction cache as it goes (none: empty).
    static QStringList evaluate(const QString& checkpoint, const QString& projectFile, const QString& split,
                                const QString& reportFolder, const QString& cacheFolder);
    // The engine's catalogues as JSON: "models" or "devices".
    static QStringList catalogue(const QString& what);
};

}  // namespace segstudio::ui::common
