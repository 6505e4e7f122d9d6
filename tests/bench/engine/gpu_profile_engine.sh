#!/usr/bin/env bash
# The engine's training step against the PyTorch twin's, GPU kernel time by kind (issue 63: the
# engine's batch-256 step took 65.9 ms where the twin's kernels took 33.2 ms), in one device call:
#   tests/bench/engine/gpu_profile_engine.sh OUT DEPS_PREFIX [BATCH]
# DEPS_PREFIX: nlohmann-json and CLI11 (include/, share/cmake/), as for gpu_cuda_graphs.sh.
#   1. the engine-only build of bench_engine_train against the machine's CUDA LibTorch;
#   2. the engine's bf16 step (default model, 180x240, channels-last, BATCH, default 256): 5 steps
#      after 5 under Kineto, the trace summed by trace_kernels.py;
#   3. the twin's eager step, the same shapes: profile_twin_step.py.
# OUT gets log.txt, summary.md and the engine's trace (engine-trace.json.gz).
set -u -o pipefail
out=$(realpath "${1:?usage: gpu_profile_engine.sh OUT DEPS_PREFIX [BATCH]}")
deps=$(realpath "${2:?DEPS_PREFIX}")
batch=${3:-256}
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../../.." && pwd)
build=${GPU_BUILD_DIR:-/tmp/segstudio-profile-build}
mkdir -p "$out"
log="$out/log.txt"
summary="$out/summary.md"
note() { echo "== [$SECONDS s] $*" | tee -a "$log" >&2; }

{ nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'; } >> "$log" 2>&1
echo "# The engine's step against the twin's, batch $batch, $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%FT%TZ)" > "$summary"

torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
cmake -S "$source_dir" -B "$build" -G Ninja -DSEGSTUDIO_ENGINE_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$deps" > "$out/build.txt" 2>&1 &&
    ninja -C "$build" bench_engine_train >> "$out/build.txt" 2>&1
built=$?
note "build: exit $built, $(grep -c 'warning:' "$out/build.txt") warnings"
[ "$built" -eq 0 ] || { grep -B2 -A12 -m8 'error' "$out/build.txt" >> "$log"; exit 1; }
rm -f "$out/build.txt"

bench=$(find "$build" -name bench_engine_train -type f -perm -u+x | head -1)
"$bench" --cuda --model deeplabv3plus-resnet18-256-s16 --height 180 --width 240 --batch "$batch" --warmup 5 \
    --iterations 5 --profile "$out/engine-trace.json" >> "$log" 2>&1
note "engine profiled: exit $?"
{
    echo "## Engine (bench_engine_train --cuda --profile, bf16)"
    echo '```'
    grep "under the profiler" "$log"
    python3 "$here/trace_kernels.py" "$out/engine-trace.json" --steps 5
    echo '```'
    echo "## PyTorch twin, eager (profile_twin_step.py)"
    echo '```'
    python3 "$here/profile_twin_step.py" --batch "$batch" --steps 5
    echo '```'
} >> "$summary" 2>> "$log"
gzip -9 "$out/engine-trace.json"  # tens of MB of CPU and GPU events: what comes back is limited
note "done"
