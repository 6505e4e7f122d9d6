#!/usr/bin/env bash
# packaging/Layers.cmake rejects a room reaching a room it must not (issue 26): a training ->
# predictions link, a training -> predictions include (also through "../"), and accepts the
# legal tree (training including common, the shell including both). In core's sub-rooms (issue 52)
# it rejects engine/models including engine/training and data/labels including data/project.
# Usage: test_layers.sh <packaging/Layers.cmake> <tests/packaging/layers>
set -euo pipefail
layers="$1"
project="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tree() {  # a ui/ tree of one file per room and a core/ tree of two sub-rooms each, including what they may
  rm -rf "$work/ui" "$work/core"
  mkdir -p "$work/core/engine/models" "$work/core/engine/training" "$work/core/data/labels" "$work/core/data/project"
  printf '#include "engine/runtime/EngineError.h"\n#include "SegmentationModel.h"\n' > "$work/core/engine/models/SegNet.cpp"
  printf '#include "engine/models/SegNet.h"\n#include "engine/inference/Validation.h"\n' > "$work/core/engine/training/Trainer.cpp"
  printf '#include "run/AtomicFile.h"\n#include "ImageIO.h"\n' > "$work/core/data/labels/LabelMapIO.cpp"
  printf '#include "data/labels/LabelMapIO.h"\n' > "$work/core/data/project/Project.cpp"
  for room in common project browser training predictions shell; do mkdir -p "$work/ui/$room"; done
  printf '#include "common/TrainerProcess.h"\n#include <QString>\n' > "$work/ui/training/TrainingDock.cpp"
  printf '#include "common/TrainerProcess.h"\n' > "$work/ui/predictions/PredictionsDock.cpp"
  printf '#include "training/TrainingDock.h"\n#include "predictions/PredictionsDock.h"\n' > "$work/ui/shell/MainWindow.cpp"
}

configure() {  # configure CASE; prints the output, returns cmake's status
  rm -rf "$work/build"
  cmake -S "$project" -B "$work/build" -DLAYERS_FILE="$layers" -DSEGSTUDIO_UI_DIR="$work/ui" -DSEGSTUDIO_CORE_DIR="$work/core" -DCASE="$1" > "$work/out" 2>&1
}

expect_rejected() {  # CASE WHAT
  if configure "$1"; then
    echo "FAIL: $2 was accepted"; cat "$work/out"; exit 1
  fi
  grep -q "Layering:" "$work/out" || { echo "FAIL: $2 failed without the layering message"; cat "$work/out"; exit 1; }
  echo "ok: $2 rejected: $(grep -m1 -o 'Layering:.*' "$work/out")"
}

tree
configure legal || { echo "FAIL: the legal tree was rejected"; cat "$work/out"; exit 1; }
echo "ok: the legal tree configures"

expect_rejected training-links-predictions "a training -> predictions link"

printf '#include "predictions/PredictionsDock.h"\n' >> "$work/ui/training/TrainingDock.cpp"
expect_rejected legal "a training -> predictions include"

tree
printf '#include "../predictions/PredictionsDock.h"\n' >> "$work/ui/training/TrainingDock.cpp"
expect_rejected legal "a training -> predictions include through ../"

tree
printf '#include "training/RunWatcher.h"\n' >> "$work/ui/predictions/PredictionsDock.cpp"
expect_rejected legal "a predictions -> training include"

tree
printf '#include "shell/MainWindow.h"\n' >> "$work/ui/common/TrainerProcess.cpp"
expect_rejected legal "a common -> shell include"

tree
printf '#include "engine/training/TrainConfig.h"\n' >> "$work/core/engine/models/SegNet.cpp"
expect_rejected legal "an engine/models -> engine/training include"

tree
printf '#include "../training/TrainConfig.h"\n' >> "$work/core/engine/models/SegNet.cpp"
expect_rejected legal "an engine/models -> engine/training include through ../"

tree
printf '#include "data/project/Project.h"\n' >> "$work/core/data/labels/LabelMapIO.cpp"
expect_rejected legal "a data/labels -> data/project include"
