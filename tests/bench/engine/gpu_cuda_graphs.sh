#!/usr/bin/env bash
# The engine's CUDA graphs (CudaGraphStep, issue 63 item 2) measured in one device call:
#   tests/bench/engine/gpu_cuda_graphs.sh OUT DEPS_PREFIX COPY_DIR [DEADLINE_S]
# DEPS_PREFIX: nlohmann-json and CLI11 (include/, share/cmake/); COPY_DIR: camvid_jpeg_copy.py's
# train/ and val/. In order, each step skipped when the deadline (default 540 s) is too near:
#   1. the engine-only build against the machine's CUDA LibTorch, the packs rebuilt beside it;
#   2. the same 300 steps with and without graphs (default model, bf16, batch 8, 180x240 crops,
#      one seed): the loss of every 25th step side by side, and whether the run said it captured;
#   3. images/s with graphs at batch 8 and 64, and without at batch 8 (20-s budgets);
#   4. the SegNet recipe (`train --recipe --amp bf16`, SGD, batch 4, whole 360x480 images), 40-s
#      budget: images/s and the time its 100 epochs would take at that pace;
#   5. each one's best batch: the engine with graphs at 128 and 256, at 64 with cuDNN's algorithm
#      search, and the PyTorch twin (torch.compile reduce-overhead) at 256 (20-s budgets).
# GRAPHS_STEPS picks among same, throughput, recipe, best (default: the first three).
# Throughput is the median of a run's log lines after its first two. At most 8 files land in OUT.
set -u -o pipefail
out=$(realpath "${1:?usage: gpu_cuda_graphs.sh OUT DEPS_PREFIX COPY_DIR [DEADLINE_S]}")
deps=$(realpath "${2:?DEPS_PREFIX}")
copies=$(realpath "${3:?COPY_DIR}")
deadline=${4:-540}
steps=" ${GRAPHS_STEPS:-same throughput recipe} "
wants() { [[ "$steps" == *" $1 "* ]]; }
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../../.." && pwd)
build=${GPU_BUILD_DIR:-/tmp/segstudio-graphs-build}
work=/tmp/segstudio-graphs
mkdir -p "$out" "$work/packs" "$work/runs"
log="$out/log.txt"
summary="$out/summary.md"
note() { echo "== [$SECONDS s] $*" | tee -a "$log" >&2; }
left() { echo $((deadline - SECONDS)); }

{ nvidia-smi -L; nproc; python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'; } >> "$log" 2>&1
echo "# CUDA graphs, $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%FT%TZ)" > "$summary"

# --- 1. Build, packs beside it --------------------------------------------------------------------
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
(
    for split in train val; do
        python3 "$here/camvid_jpeg_copy.py" decode "$copies/$split" "$work/packs/$split.rgb" || exit 1
    done
) > "$work/decode.txt" 2>&1 &
decoder=$!
started=$SECONDS
cmake -S "$source_dir" -B "$build" -G Ninja -DSEGSTUDIO_ENGINE_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$deps" > "$work/build.txt" 2>&1 &&
    ninja -C "$build" segstudio-train pack_images_from_raw >> "$work/build.txt" 2>&1
built=$?
grep -E "warning|error|SegStudio engine" "$work/build.txt" | head -60 >> "$log"
note "build: exit $built, $((SECONDS - started)) s, $(grep -c 'warning:' "$work/build.txt") warnings"
echo "- engine-only build: exit $built, $((SECONDS - started)) s, $(grep -c 'warning:' "$work/build.txt") warnings" >> "$summary"
if [ "$built" -ne 0 ]; then  # what the build said, then the rest measured without graphs
    grep -B2 -A12 -m8 'error' "$work/build.txt" >> "$log"
    cmake -DSEGSTUDIO_CUDA_GRAPHS=OFF "$build" >> "$work/build.txt" 2>&1 &&
        ninja -C "$build" segstudio-train pack_images_from_raw >> "$work/build.txt" 2>&1 || { tail -60 "$work/build.txt" >> "$log"; exit 1; }
    note "rebuilt without CUDA graphs"
    echo "- **the graphs did not compile**: rebuilt with -DSEGSTUDIO_CUDA_GRAPHS=OFF" >> "$summary"
fi
wait "$decoder" || { cat "$work/decode.txt" >> "$log"; note "decode failed"; exit 1; }
for split in train val; do
    "$build/tests/bench/engine/pack_images_from_raw" "$work/packs/$split.skeleton.pack" "$work/packs/$split.rgb" \
        "$work/packs/$split.pack" >> "$log" 2>&1 || { note "pack $split failed"; exit 1; }
    rm -f "$work/packs/$split.rgb"
done
engine="$build/app/segstudio-train/segstudio-train"
packs=(--train-pack "$work/packs/train.pack" --val-pack "$work/packs/val.pack")
model=(--model deeplabv3plus-resnet18-256-s16 --amp bf16 --device cuda --crop-height 180 --crop-width 240 --seed 1)

# Median img/s of a run's log lines after its first two.
pace() { grep -oE '[0-9.]+ img/s' "$1" | awk 'NR > 2 { print $1 }' | sort -n |
         awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }
run() {  # NAME SECONDS_LIMIT ARGS...
    local name=$1 limit=$2
    shift 2
    if [ "$(left)" -lt $((limit + 10)) ]; then note "$name: skipped, $(left) s left"; return 1; fi
    local started=$SECONDS
    timeout -k 10 "$limit" "$engine" train "${packs[@]}" -o "$work/runs/$name" "$@" > "$work/$name.txt" 2>&1
    local rc=$?
    note "$name: exit $rc, $((SECONDS - started)) s, $(pace "$work/$name.txt") img/s; $(grep -m2 'CUDA graphs' "$work/$name.txt" | tr '\n' ' ')"
    { grep -vE '^train  epoch' "$work/$name.txt" | head -40; grep -E '^train  epoch' "$work/$name.txt" | tail -3; } >> "$log"
    return 0
}

# --- 2. The same steps with and without graphs ---------------------------------------------------
same=(--batch 8 --lr 5e-3 --max-iterations 300 --log-interval 25 --val-epochs 1000000)
wants same && run same-graphs 90 "${model[@]}" "${same[@]}"
wants same && run same-eager 90 "${model[@]}" "${same[@]}" --no-cuda-graphs
wants same && {
    echo
    echo "## The same 300 steps (bf16, batch 8): loss with graphs / without"
    echo
    paste <(grep -oE 'iter [0-9]+: loss [0-9.na]+' "$work/same-graphs.txt") \
          <(grep -oE 'loss [0-9.na]+' "$work/same-eager.txt") | sed 's/^/    /'
    echo
    grep -E 'val  ' "$work/same-graphs.txt" "$work/same-eager.txt" | sed 's/^/    /'
} >> "$summary"

# --- 3. Throughput --------------------------------------------------------------------------------
wants throughput && echo -e "\n## Images/s (180x240, bf16, median log line)\n" >> "$summary"
wants throughput && for spec in "graphs-b8 8 5e-3" "graphs-b64 64 1.414e-2" "eager-b8 8 5e-3 --no-cuda-graphs" "eager-b64 64 1.414e-2 --no-cuda-graphs"; do
    set -- $spec
    name=$1 batch=$2 lr=$3
    shift 3
    run "$name" 60 "${model[@]}" --batch "$batch" --lr "$lr" --time-budget 20s --log-interval 20 --val-epochs 1000000 "$@" &&
        echo "- $name: $(pace "$work/$name.txt") img/s" >> "$summary"
done

# --- 4. The SegNet recipe -------------------------------------------------------------------------
if wants recipe && run recipe 90 --recipe --amp bf16 --device cuda --time-budget 40s --log-interval 20 --val-epochs 1000000; then
    ips=$(pace "$work/recipe.txt")
    echo -e "\n## SegNet recipe (bf16, batch 4, 360x480)\n\n- $ips img/s; 100 epochs of 367 images at that pace: $(awk -v r="$ips" 'BEGIN { if (r > 0) printf "%.0f s", 36700 / r; else print "-" }')" >> "$summary"
fi
wants recipe && run recipe-eager 90 --recipe --amp bf16 --device cuda --time-budget 25s --log-interval 20 --val-epochs 1000000 --no-cuda-graphs &&
    echo "- without graphs: $(pace "$work/recipe-eager.txt") img/s" >> "$summary"
# --- 5. Each one's best batch -------------------------------------------------------------------
if wants best; then
    echo -e "\n## Best batch (180x240, bf16, 20-s budgets)\n" >> "$summary"
    for spec in "graphs-b256 256 2.828e-2" "graphs-b128 128 2e-2" "graphs-b64-search 64 1.414e-2 --cudnn-benchmark"; do
        set -- $spec
        name=$1 batch=$2 lr=$3
        shift 3
        run "$name" 75 "${model[@]}" --batch "$batch" --lr "$lr" --time-budget 20s --log-interval 10 --val-epochs 1000000 "$@" &&
            echo "- $name: $(pace "$work/$name.txt") img/s; $(grep -m1 '^val ' "$work/$name.txt")" >> "$summary"
    done
    if [ "$(left)" -gt 120 ]; then
        timeout -k 10 $(($(left) - 10)) python3 "$here/pytorch_twin.py" "${packs[@]}" --time-budget 20 --batch 256 \
            --lr 2.828e-2 --crop-height 180 --crop-width 240 --log-interval 10 --seed 1 --cuda-graphs > "$work/twin-b256.txt" 2>&1
        note "twin-b256: exit $?"
        tail -5 "$work/twin-b256.txt" >> "$log"
        echo "- twin-b256 (reduce-overhead): $(tail -1 "$work/twin-b256.txt" | grep -oE '"(images_per_s|val_miou|compile_s|peak_memory_allocated_gib)": [0-9.]+' | tr '\n' ' ')" >> "$summary"
    fi
fi
note "done"
cat "$summary" >> "$log"
