#!/usr/bin/env bash
# The GPU checks of docs/SCALING.md in one pass, for a lent GPU machine whose python3 has a CUDA
# LibTorch 2.x (torch.utils.cmake_prefix_path) but no Debian packages and no network:
#   1. the engine-only build against that LibTorch (configure and build logs kept whole);
#   2. the full CamVid packs rebuilt there from camvid_jpeg_copy.py's compact copy (JPEG images,
#      exact labels) by core/pack's writer (pack_images_from_raw), beside the build;
#   3. bench_engine_train --cuda: SegNet fp32/bf16 images/s, peak memory and MFU at batch 4;
#   4. the reference recipe end to end: `train --recipe --amp bf16` on the whole CamVid train split
#      (100 epochs, validated on val after each), its wall time and val curve;
#   5. the NCCL path at world size 1 against the plain single-device path, on a step-bound run
#      (SegNet bf16 batch 4, whole CamVid epochs, checkpoints at most once a minute);
#   6. if time is left: the PyTorch twin of the step, inference latency, DeepLabV3+ at batch 16;
#   7. only when asked (GPU_CHECKS_STEPS=default): the default model (DeepLabV3+, MobileNetV2)
#      trained on the GPU as a user would start it, bf16 and fp32, and fp32 without cuDNN's
#      algorithm search, with the time each first log line took;
#   8. only when asked (GPU_CHECKS_STEPS=encoders): DeepLabV3+ with each encoder (MobileNetV2,
#      ResNet-18) in bf16 on the crops of camvid_budget.sh, images/s;
#   9. only when asked (GPU_CHECKS_STEPS=budget): `train --time-budget` with the default model on
#      the crops of camvid_budget.sh (GPU_CHECKS_BUDGETS, default "150s 60s", in seconds), each
#      scored by `evaluate` on val at 360x480.
#  10. only when asked (GPU_CHECKS_STEPS=sweep): the recipes of GPU_CHECKS_SWEEP trained side by side,
#      each under GPU_CHECKS_SWEEP_BUDGET seconds on 144x192 crops, each scored by `evaluate` on val.
# GPU_CHECKS_STEPS picks among bench, recipe, nccl, extra, default, encoders, budget, sweep (default: the first four).
# Device time is scarce, so every step has a deadline and the later steps are skipped, not cut
# short, when the earlier ones ran long; the recipe gets what the later must-haves leave it.
#   tests/bench/engine/gpu_checks.sh OUT [DEPS_PREFIX] [COPY_DIR]
# DEPS_PREFIX holds nlohmann-json and CLI11 headers with their CMake configs (include/, share/cmake/);
# COPY_DIR holds train/ and val/ written by `camvid_jpeg_copy.py encode` from packs made by
# `segstudio-train pack` on a full build. At most 8 files land in OUT (what a device call returns).
set -u
out=$(realpath "${1:?usage: gpu_checks.sh OUT [DEPS_PREFIX] [COPY_DIR]}")
deps=$(realpath "${2:-/usr}")
copies=${3:+$(realpath "$3")}
budget=${GPU_CHECKS_SECONDS:-480}
build=${GPU_BUILD_DIR:-/tmp/segstudio-gpu-build}
here=$(cd "$(dirname "$0")" && pwd)
steps=" ${GPU_CHECKS_STEPS:-bench recipe nccl extra} "
wants() { [[ "$steps" == *" $1 "* ]]; }
mkdir -p "$out" /tmp/runs
summary="$out/summary.txt"
note() { echo "== [$SECONDS s] $*" | tee -a "$summary"; }
left() { echo $((budget - SECONDS)); }
step() {  # step FILE SECONDS COMMAND...: runs it under a deadline, output appended to OUT/FILE.txt
    local name=$1 limit=$2; shift 2
    if [ "$(left)" -lt "$limit" ]; then note "skipped $name (${limit} s needed, $(left) s left): $*"; return 1; fi
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

configure=(cmake -S . -B "$build" -G Ninja -DSEGSTUDIO_ENGINE_ONLY=ON -DCMAKE_BUILD_TYPE=Release
           -DCMAKE_PREFIX_PATH="$torch_prefix;$deps")
step configure 90 "${configure[@]}" || step configure 90 "${configure[@]}" -DCUDAToolkit_ROOT=/usr/local/cuda \
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc || { note "configure failed"; exit 1; }
grep -E "SegStudio engine|Torch|CUDA" "$out/configure.txt" | tail -8 >> "$summary"

bench="$build/tests/bench/engine"
packer=""
if [ -n "$copies" ] && step build 60 ninja -C "$build" pack_images_from_raw; then
    ( for split in train val; do  # beside the main build: python decodes, core/pack's writer packs
          python3 "$here/camvid_jpeg_copy.py" decode "$copies/$split" "/tmp/$split.rgb" &&
              "$bench/pack_images_from_raw" "/tmp/$split.skeleton.pack" "/tmp/$split.rgb" "/tmp/$split.pack" &&
              rm -f "/tmp/$split.rgb" "/tmp/$split.skeleton.pack"
      done >> "$out/build.txt" 2>&1 ) &
    packer=$!
fi
step build 150 ninja -C "$build" -k 0 -j"$(nproc)" bench_engine_train segstudio-train bench_inference
grep -c "warning:" "$out/build.txt" | sed 's/^/warnings: /' >> "$summary"
grep -m 20 -E "error:|undefined reference" "$out/build.txt" >> "$summary"

wants bench && [ -x "$bench/bench_engine_train" ] &&
    step bench 60 "$bench/bench_engine_train" --cuda --model segnet --batch 4 --iterations 30 --warmup 3

train="$build/app/segstudio-train/segstudio-train"
if [ -x "$train" ] && [ -n "$packer" ]; then
    wait "$packer"
    note "packs: $(ls -l /tmp/train.pack /tmp/val.pack 2>&1 | tr '\n' ' ')"
    "$train" devices >> "$summary" 2>&1
    packs=(--train-pack /tmp/train.pack --val-pack /tmp/val.pack)
    reserve=${GPU_CHECKS_RESERVE:-100}  # kept for the NCCL comparison below
    recipe_limit=$(( $(left) - reserve )); [ "$recipe_limit" -gt 420 ] && recipe_limit=420
    wants recipe && step train "$recipe_limit" "$train" train "${packs[@]}" --recipe --amp bf16 --device cuda \
        --log-interval 92 --seed 1 -o /tmp/runs/recipe
    cp /tmp/runs/recipe/metrics.jsonl "$out/recipe-metrics.jsonl" 2>/dev/null
    if wants default; then  # the default model as `train` starts it, whole 360x480 images
        echo '{"cudnnBenchmark": false}' > /tmp/no-cudnn-search.json
        mine=("${packs[@]}" --device cuda --epochs 3 --val-epochs 3 --log-interval 10 --seed 1)
        step train 60 "$train" train "${mine[@]}" --amp bf16 -o /tmp/runs/default-bf16
        step train 60 "$train" train "${mine[@]}" --amp none -o /tmp/runs/default-fp32
        step train 60 "$train" train --config /tmp/no-cudnn-search.json "${mine[@]}" --amp none \
            -o /tmp/runs/default-fp32-no-search
    fi
    if wants encoders; then
        for model in deeplabv3plus deeplabv3plus-resnet18; do
            step train 60 "$train" train "${packs[@]}" --model "$model" --device cuda --amp bf16 --epochs 4 \
                --val-epochs 4 --crop-height 180 --crop-width 240 --log-interval 23 --seed 1 -o "/tmp/runs/$model-crops"
        done
    fi
    if wants budget; then  # issue 25: what a time budget buys on a GPU, started as a user would (defaults)
        for b in ${GPU_CHECKS_BUDGETS:-150s 60s}; do
            step train $(( ${b%s} + 45 )) "$train" train "${packs[@]}" --device cuda --time-budget "$b" \
                --crop-height 180 --crop-width 240 --log-interval 50 --seed 1 -o "/tmp/runs/budget-$b" &&
                step evaluate 40 "$train" evaluate -c "/tmp/runs/budget-$b" -p /tmp/val.pack --device cuda --batch 1
            cp "/tmp/runs/budget-$b/metrics.jsonl" "$out/budget-$b-metrics.jsonl" 2>/dev/null
        done
    fi
    if wants sweep; then  # issue 25: recipes side by side under one budget, as a proxy for 30 CPU-minutes
        # GPU_CHECKS_SWEEP: "name|train options;name|train options;...", each run in its own process at
        # once (the GPU time-sliced between them), each scored by evaluate on val at 360x480.
        sweep_budget=${GPU_CHECKS_SWEEP_BUDGET:-240}
        if [ "$(left)" -gt $(( sweep_budget + 90 )) ]; then
            note "sweep: ${sweep_budget} s each: ${GPU_CHECKS_SWEEP:-}"
            ( while sleep 15; do nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader; done ) \
                >> "$out/sweep.txt" 2>&1 &
            sampler=$!
            IFS=';' read -ra recipes <<< "${GPU_CHECKS_SWEEP:-}"
            trainers=()
            for recipe in "${recipes[@]}"; do
                name=${recipe%%|*}; read -ra options <<< "${recipe#*|}"
                timeout $(( sweep_budget + 60 )) "$train" train "${packs[@]}" --device cuda --time-budget "${sweep_budget}s" \
                    --crop-height 144 --crop-width 192 --threads 2 --log-interval 200 "${options[@]}" \
                    -o "/tmp/runs/sweep-$name" > "/tmp/sweep-$name.log" 2>&1 &
                trainers+=($!)
            done
            wait "${trainers[@]}"
            kill "$sampler"
            for recipe in "${recipes[@]}"; do
                name=${recipe%%|*}
                echo "-- $name: ${recipe#*|}" >> "$out/sweep.txt"
                grep -E "plan|stopped|finished|best" "/tmp/runs/sweep-$name/log.txt" | tail -4 >> "$out/sweep.txt" 2>&1
                tail -3 "/tmp/sweep-$name.log" >> "$out/sweep.txt"
                "$train" evaluate -c "/tmp/runs/sweep-$name" -p /tmp/val.pack --device cuda --batch 1 2>&1 |
                    grep -iE "miou|global" >> "$out/sweep.txt"
            done
            note "sweep: done"
        else
            note "skipped sweep ($(left) s left)"
        fi
    fi
    # Step-bound: whole 367-image epochs, one validation at the end, checkpoints at most once a minute.
    common=("${packs[@]}" --model segnet --optimizer sgd --lr 1e-3 --batch 4 --amp bf16 --epochs 3 --val-epochs 3
            --log-interval 23 --seed 1)
    wants nccl && for round in 1 2; do  # alternated, so a slow first start (cuDNN search, caches) hits both
        step train 40 "$train" train "${common[@]}" --device cuda -o "/tmp/runs/plain-$round"
        step train 40 "$train" train "${common[@]}" --gpus 1 -o "/tmp/runs/gpus1-$round"
    done
    for run in /tmp/runs/*; do
        echo "-- $run" >> "$out/runs.txt"
        grep -E "img/s|^val|plan|stopped|finished" "$run/log.txt" >> "$out/runs.txt" 2>&1
        # When each logged step came, from the start (the first includes cuDNN's algorithm search).
        python3 -c 'import json, sys
print("elapsed s at train records:", [round(r["elapsed_s"], 1) for r in map(json.loads, open(sys.argv[1]))
      if r.get("kind") == "train"][:12])' "$run/metrics.jsonl" >> "$out/runs.txt" 2>&1
    done
fi
# The PyTorch twin of the same step on the same GPU, and the rest, if time is left.
wants extra || { note "done"; exit 0; }
twin="$here/segnet_train_throughput.py"
step bench 40 python3 "$twin" --model segnet --device cuda --batch 4 --iterations 30 --warmup 3 --amp bf16 --channels-last
[ -x "$bench/bench_inference" ] && step bench 40 "$bench/bench_inference" --device cuda --runs 20 --warmup 3
[ -x "$bench/bench_engine_train" ] &&
    step bench 40 "$bench/bench_engine_train" --cuda --model deeplabv3plus --batch 16 --iterations 20 --warmup 3 \
        --no-cudnn-benchmark  # as train runs it: with the search it printed nothing in 40 s
note "done"
