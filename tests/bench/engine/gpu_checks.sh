#!/usr/bin/env bash
# The GPU checks of docs/SCALING.md in one pass, for a lent GPU machine whose python3 has a CUDA
# LibTorch 2.x (torch.utils.cmake_prefix_path) but no Debian packages and no network:
#   1. the engine-only build against that LibTorch (configure and build logs kept whole);
#   2. bench_engine_train --cuda: SegNet fp32/bf16 images/s, peak memory and MFU at batch 4 (the
#      recipe) and 16, DeepLabV3+ (the default model) at 16; bench_inference on CUDA;
#   3. the NCCL path at world size 1 against the plain single-device path: the same SegNet run
#      (bf16, batch 4) with and without --gpus 1, timed from the trainer's own log.
# Device time is scarce, so every step has a deadline and the later steps are skipped, not cut
# short, when the earlier ones ran long.
#   tests/bench/engine/gpu_checks.sh OUT [DEPS_PREFIX] [PACK_DIR]
# DEPS_PREFIX holds nlohmann-json and CLI11 headers with their CMake configs (include/, share/cmake/);
# PACK_DIR holds train.pack(.gz) and val.pack(.gz) made by `segstudio-train pack` on a full build.
set -u
out=$(realpath "${1:?usage: gpu_checks.sh OUT [DEPS_PREFIX] [PACK_DIR]}")
deps=$(realpath "${2:-/usr}")
packs=${3:-}
budget=${GPU_CHECKS_SECONDS:-480}
build=${GPU_BUILD_DIR:-/tmp/segstudio-gpu-build}
mkdir -p "$out"
summary="$out/summary.txt"
note() { echo "== [$SECONDS s] $*" | tee -a "$summary"; }
left() { echo $((budget - SECONDS)); }
step() {  # step NAME SECONDS COMMAND...: runs it under a deadline, output appended to OUT/NAME.txt
    local name=$1 limit=$2; shift 2
    if [ "$(left)" -lt "$limit" ]; then note "skipped $name (${limit} s needed, $(left) s left)"; return 1; fi
    note "$name: $*"
    timeout "$limit" "$@" >> "$out/$name.txt" 2>&1
    local rc=$?
    note "$name: exit $rc"
    return $rc
}

export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi -L; nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv; nproc
  g++ --version | head -1; cmake --version | head -1; ninja --version
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.utils.cmake_prefix_path)'
} >> "$summary" 2>&1
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')

if [ -n "$packs" ]; then  # unpacked beside the build, not waited for
    ( for f in "$packs"/*.pack.gz; do [ -e "$f" ] && gunzip -c "$f" > "/tmp/$(basename "$f" .gz)"; done ) &
    unpack=$!
fi

configure=(cmake -S . -B "$build" -G Ninja -DSEGSTUDIO_ENGINE_ONLY=ON -DCMAKE_BUILD_TYPE=Release
           -DCMAKE_PREFIX_PATH="$torch_prefix;$deps")
step configure 90 "${configure[@]}" || step configure 90 "${configure[@]}" -DCUDAToolkit_ROOT=/usr/local/cuda \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc || { note "configure failed"; exit 1; }
grep -E "SegStudio engine|Torch|CUDA" "$out/configure.txt" | tail -8 >> "$summary"
step build 150 ninja -C "$build" -k 0 -j"$(nproc)" bench_engine_train segstudio-train bench_inference
grep -c "warning:" "$out/build.txt" | sed 's/^/warnings: /' >> "$summary"
grep -m 20 -E "error:|undefined reference" "$out/build.txt" >> "$summary"

bench="$build/tests/bench/engine"
if [ -x "$bench/bench_engine_train" ]; then
    step bench 60 "$bench/bench_engine_train" --cuda --model segnet --batch 4 --iterations 30 --warmup 3
    step bench 60 "$bench/bench_engine_train" --cuda --model segnet --batch 16 --iterations 15 --warmup 3
    step bench 40 "$bench/bench_engine_train" --cuda --model deeplabv3plus --batch 16 --iterations 20 --warmup 3
fi
# The PyTorch twin of the same step on the same GPU: the reference, and where its time goes.
twin=tests/bench/engine/segnet_train_throughput.py
step twin 40 python3 "$twin" --model segnet --device cuda --batch 4 --iterations 30 --warmup 3
step twin 40 python3 "$twin" --model segnet --device cuda --batch 4 --iterations 30 --warmup 3 --amp bf16 --channels-last
step twin 40 python3 "$twin" --model segnet --device cuda --batch 4 --iterations 10 --warmup 3 --amp bf16 --channels-last --profile
[ -x "$bench/bench_inference" ] && step bench 40 "$bench/bench_inference" --device cuda --runs 20 --warmup 3

train="$build/app/segstudio-train/segstudio-train"
if [ -x "$train" ] && [ -n "$packs" ]; then
    wait "$unpack"
    "$train" devices >> "$summary" 2>&1
    common=(--train-pack /tmp/train.pack --val-pack /tmp/val.pack --model segnet --optimizer sgd --lr 1e-3
            --batch 4 --amp bf16 --epochs 12 --val-epochs 12 --log-interval 12 --seed 1)
    for round in $(seq "${GPU_TRAIN_ROUNDS:-2}"); do  # alternated, so a slow first start (cuDNN search, caches) hits both
        step train 45 "$train" train "${common[@]}" --device cuda -o "/tmp/runs/plain-$round"
        step train 45 "$train" train "${common[@]}" --gpus 1 -o "/tmp/runs/gpus1-$round"
    done
    step train 45 "$train" train "${common[@]}" --device cuda --batch 16 -o /tmp/runs/plain-batch16
    for run in /tmp/runs/*; do
        echo "-- $run" >> "$out/runs.txt"
        grep -E "img/s|^val|planned|stopped|finished" "$run/log.txt" >> "$out/runs.txt" 2>&1
    done
fi
note "done"
