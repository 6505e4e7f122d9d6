#!/usr/bin/env bash
# Quality per compute on CamVid (issue 10): trains MODEL for EPOCHS on CamVid's 367 training images
# (360x480 packs; extra train options, e.g. random crops, after the epochs) and scores the best
# checkpoint on the 101 validation images at 360x480. EPOCHS is chosen so that the run fills the
# budget at the model's measured images/s; the script prints the wall time it really took.
#   tests/bench/engine/camvid_budget.sh deeplabv3plus 76 --crop-height 180 --crop-width 240
# EPOCHS may be a time budget instead (30m, 2h: train --time-budget plans epochs and validations):
#   tests/bench/engine/camvid_budget.sh deeplabv3plus 30m --crop-height 180 --crop-width 240
# Environment: BUILD (default ./build), CAMVID (default ../shared/datasets/camvid), WORK (default
# /tmp/segstudio-camvid: project, packs and runs are kept there).
set -euo pipefail
model="$1"; epochs="$2"; shift 2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
train="${BUILD:-$root/build}/app/segstudio-train/segstudio-train"
camvid="${CAMVID:-$root/../shared/datasets/camvid}"
work="${WORK:-/tmp/segstudio-camvid}"
mkdir -p "$work"
[ -f "$work/camvid.segstudio" ] || "$train" import segnet "$camvid" -o "$work/camvid.segstudio" >/dev/null
[ -f "$work/train.pack" ] || "$train" pack -P "$work/camvid.segstudio" -s train -o "$work/train.pack" >/dev/null
[ -f "$work/val.pack" ] || "$train" pack -P "$work/camvid.segstudio" -s val -o "$work/val.pack" >/dev/null
run="$work/runs/$model-e$epochs${RUN_SUFFIX:-}"
rm -rf "$run"
mkdir -p "$work/runs"
start=$(date +%s)
# Validation every 8 epochs (and after the last) for the curve; it counts against the budget.
if [[ "$epochs" =~ [smh]$ ]]; then  # a time budget (30m): the trainer plans epochs and validations itself
    length=(--time-budget "$epochs")
else
    length=(--epochs "$epochs" --val-epochs 8)
fi
"$train" train --train-pack "$work/train.pack" --val-pack "$work/val.pack" -o "$run" --model "$model" \
    "${length[@]}" --log-interval 50 --device cpu "$@" > "$run.out" 2>&1
end=$(date +%s)
echo "$model, $epochs epochs, $*: $((end - start)) s of training (validation included)"
grep "img/s" "$run/log.txt" | awk '{ s += $(NF-1); n++ } END { printf "training images/s (mean of the log lines): %.1f\n", s / n }'
grep "^val" "$run/log.txt" | tail -3
t0=$(date +%s.%N)
"$train" evaluate -c "$run" -p "$work/val.pack" --device cpu --batch 1
t1=$(date +%s.%N)
echo "evaluation of 101 images at 360x480, batch 1: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", 101 / (b - a) }') images/s (checkpoint loading included)"
