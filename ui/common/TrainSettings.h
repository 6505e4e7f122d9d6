#pragma once

#include <QString>
#include <QStringList>

namespace segstudio::ui {

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
    int height = 180;
    int width = 240;
    int batch = 4;
    QString optimizer;       // sgd | adam | adamw
    double learningRate = 0;
    QString schedule;        // none | step | cosine
    QString classWeighting;  // sqrt-median | median | inverse | none
    bool flip = true;
    int translate = 10;  // pixels
    int valEpochs = 1;
    QStringList devices;  // empty: the engine's choice; "cpu", or GPUs ("cuda:0", "cuda:1": data parallel)
};

}  // namespace segstudio::ui
