#pragma once

#include "remote/RemoteTarget.h"
#include "run/TrainingCrop.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace segstudio::ui::common {

// What the Train dialog sets for a run of segstudio-train. Empty or zero = the engine's default
// (docs/ENGINE.md, "Defaults that learn"): only what the user chose is passed, so the engine's
// defaults stay one list (TrainerArguments::train).
struct TrainSettings {
    bool recipe = false;  // --recipe: SegNet's published CamVid recipe under the fields below
    QString model;        // empty: the engine's default model (models --json marks it)
    // How long: `minutes` of training time when > 0 (--time-budget: the engine plans the epochs
    // and the schedule to end then), else `epochs`. The Train dialog proposes 30 minutes
    // (TrainDialog::presetSettings(EngineDefaults)).
    int minutes = 0;
    int epochs = 100;
    // The pack's size: the project's images and labels are resized to height x width when packed.
    // The Training panel proposes the project's own image size (data::defaultPackSize); this is
    // the size when it has none.
    int height = 180;
    int width = 240;
    int batch = 0;  // images per device and step; 0: the engine's default (--batch not passed)
    // The random training crop (--crop-height/--crop-width), cut from the packed image: a share
    // of each of its sides (cropPercent, 1-99), or a size of its own (cropHeight x cropWidth, both
    // > 0, which wins over the share). None of them: whole images (passed as --crop-share 0: the
    // engine's own default crops). The Train dialog proposes 40 % (presetSettings(EngineDefaults)).
    int cropPercent = 0;
    int cropHeight = 0;
    int cropWidth = 0;
    QString optimizer;       // sgd | adam | adamw
    double learningRate = 0;
    QString schedule;        // none | step | cosine
    QString classWeighting;  // sqrt-median | median | inverse | none
    bool flip = true;
    int translate = 10;  // pixels
    // Brightness, contrast and saturation scaled by factors in [1 - J, 1 + J] (--color-jitter; 0: off).
    // 0.4 made a model trained by day hold at dusk (docs/LABELING.md, issue 61).
    double colorJitter = 0.0;
    int valEpochs = 1;
    QStringList devices;  // empty: the engine's choice; "cpu", or GPUs ("cuda:0", "cuda:1": data parallel)
    // Where it trains: empty for this computer, else a machine over SSH or a SLURM cluster
    // (issue 64.2); `devices` are this computer's and do not go there.
    std::optional<remote::RemoteTarget> where;

    // The crop in pixels for this pack size, never larger than the pack; empty for whole images
    // (no crop, or one as large as the pack). A share follows the engine's rule (run::TrainingCrop).
    QSize crop() const
    {
        if (cropHeight > 0 && cropWidth > 0) {
            const int cropH = std::min(cropHeight, height);
            const int cropW = std::min(cropWidth, width);
            return cropH == height && cropW == width ? QSize() : QSize(cropW, cropH);
        }
        const auto share = run::TrainingCrop::ofShare(height, width, cropPercent / 100.0);
        return share.isWholeImage() ? QSize() : QSize(share.width, share.height);
    }
};

}  // namespace segstudio::ui::common
