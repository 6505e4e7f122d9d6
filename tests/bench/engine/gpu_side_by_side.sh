#!/usr/bin/env bash
# The engine and its PyTorch twin side by side on one GPU (issue 48 item 4), for one device call:
#   tests/bench/engine/gpu_side_by_side.sh BUILD_DIR CAMVID_DIR OUT_DIR [options]
# BUILD_DIR holds a built segstudio-train (the engine-only build against the machine's CUDA LibTorch,
# docs/SCALING.md); CAMVID_DIR holds train.pack and val.pack (360x480), or the train/ and val/ folders
# of `camvid_jpeg_copy.py encode` (rebuilt here by `decode` + pack_images_from_raw, as gpu_checks.sh
# does), or SegNet's CamVid folder (train/, trainannot/, ...: imported and packed at 360x480 by
# segstudio-train, which needs a full build with OpenCV).
# Four runs, one after the other, each for the same time budget of training on 180x240 crops:
#   engine-b8   segstudio-train train, the default model and recipe, --amp bf16, batch 8, lr 5e-3
#   twin-b8     pytorch_twin.py, the same model and recipe in PyTorch, batch 8, lr 5e-3
#   engine-bN   the engine at --big-batch N (default 64), lr 5e-3 x sqrt(N / 8) unless --big-lr
#   twin-bN     the twin at the same batch and lr
# Both validate once, at the end, on the whole val pack (the engine with --val-epochs 1000000, so
# its planner keeps one validation inside the budget). While each runs, nvidia-smi samples the GPU
# once a second; the busy share is the samples at >= 90 % utilisation over all samples taken while
# it trained. MFU = training images/s x 3 x forward FLOPs of a crop (ConvLayout's count:
# convolutions only, a multiply-add is 2 FLOPs, the backward pass 2x the forward) / the card's dense
# bf16 peak (989 TFLOP/s for the H100 SXM and the H200, as docs/SCALING.md; --peak-tflops).
# Options:
#   --budget S        seconds of training per run (default 120)
#   --deadline S      this script must end within S seconds of its start: the budgets shrink (both
#                     runs of a pair alike) to what fits; 0 = no deadline (default)
#   --big-batch N     the second pair's batch (default 64)
#   --big-lr LR       its learning rate (default 5e-3 x sqrt(N / 8))
#   --twin-mode M     eager | compile | cuda-graphs (default; torch.compile mode="reduce-overhead",
#                     compiled before the clock starts, eager if compiling fails)
#   --crop-height H --crop-width W   (default 180 240)
#   --log-interval N  (default 50, both)
#   --peak-tflops T   (default: from the GPU's name)
#   --seed N          (default 1)
# Writes to OUT_DIR at most 8 files (what a device call brings back): side_by_side.md (the table),
# results.jsonl (one JSON object per run: the twin's own line and the engine's figures from its
# metrics.jsonl, each with the GPU samples' summary), engine-metrics.jsonl (both engine runs'
# metrics.jsonl, one after the other; each begins with its "run" record), smi-RUN.csv (the samples
# of each run) and log.txt (every command and its output). Work files: $SIDE_WORK (/tmp/segstudio-side).
# SIDE_GPU_INDEX: the nvidia-smi index of the GPU the runs use (0); SIDE_TWIN_EXTRA: more twin options;
# SIDE_ENGINE_DEVICE / SIDE_ENGINE_AMP: the engine's --device and --amp (cuda, bf16), to try the
# script without a GPU (with a stand-in nvidia-smi on the PATH and SIDE_TWIN_EXTRA="--device cpu --amp none").
set -u -o pipefail
export LC_ALL=C PYTHONUNBUFFERED=1

usage() { sed -n '2,4p' "$0" >&2; exit 2; }
[ $# -ge 3 ] || usage
build=$(realpath "$1") || usage
camvid=$(realpath "$2") || usage
mkdir -p "$3" || exit 1
out=$(realpath "$3")
shift 3
budget=120 deadline=0 big_batch=64 big_lr="" twin_mode=cuda-graphs crop_h=180 crop_w=240 log_interval=50
peak="" seed=1
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "$1 needs a value" >&2; usage; }
    case $1 in
        --budget) budget=$2 ;;
        --deadline) deadline=$2 ;;
        --big-batch) big_batch=$2 ;;
        --big-lr) big_lr=$2 ;;
        --twin-mode) twin_mode=$2 ;;
        --crop-height) crop_h=$2 ;;
        --crop-width) crop_w=$2 ;;
        --log-interval) log_interval=$2 ;;
        --peak-tflops) peak=$2 ;;
        --seed) seed=$2 ;;
        *) echo "unknown option $1" >&2; usage ;;
    esac
    shift 2
done
for number in "$budget" "$deadline" "$big_batch" "$crop_h" "$crop_w" "$log_interval" "$seed"; do
    [[ "$number" =~ ^[0-9]+$ ]] || { echo "not a whole number: $number" >&2; exit 2; }
done
case $twin_mode in
    eager) twin_flags=() ; twin_extra=60 ;;
    compile) twin_flags=(--compile) ; twin_extra=240 ;;
    cuda-graphs) twin_flags=(--cuda-graphs) ; twin_extra=240 ;;
    *) echo "--twin-mode: eager, compile or cuda-graphs, not $twin_mode" >&2; exit 2 ;;
esac
[ -n "$big_lr" ] || big_lr=$(awk -v b="$big_batch" 'BEGIN { printf "%.6g", 5e-3 * sqrt(b / 8) }')

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
twin="$here/pytorch_twin.py"
engine="$build/app/segstudio-train/segstudio-train"
model=deeplabv3plus-resnet18-256-s16
work=${SIDE_WORK:-/tmp/segstudio-side}
gpu_index=${SIDE_GPU_INDEX:-0}
log="$out/log.txt"
manifest="$work/manifest.tsv"
mkdir -p "$work/runs" "$work/packs"
: > "$manifest"
note() { echo "== [$SECONDS s] $*" | tee -a "$log" >&2; }
die() { note "stopped: $*"; exit 1; }
# Each line of a command's output with the wall-clock time it arrived (the engine flushes every line).
stamp() { while IFS= read -r line; do printf '%s %s\n' "${EPOCHREALTIME:-$(date +%s.%N)}" "$line"; done; }

[ -x "$engine" ] || die "$engine: no segstudio-train in BUILD_DIR (build it first: docs/SCALING.md)"
command -v nvidia-smi > /dev/null || die "no nvidia-smi: this needs an NVIDIA GPU"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv; nproc
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())'
} >> "$log" 2>&1
gpu_name=$(nvidia-smi -i "$gpu_index" --query-gpu=name --format=csv,noheader | head -1)
note "GPU: $gpu_name; budget ${budget} s per run; big batch $big_batch at lr $big_lr; twin $twin_mode"

# --- Packs -------------------------------------------------------------------------------------
if [ -f "$camvid/train.pack" ] && [ -f "$camvid/val.pack" ]; then
    train_pack=$camvid/train.pack val_pack=$camvid/val.pack
else
    train_pack=$work/packs/train.pack val_pack=$work/packs/val.pack
    if [ -f "$train_pack" ] && [ -f "$val_pack" ]; then
        note "packs: kept from an earlier run in $work/packs"
    elif [ -f "$camvid/train/skeleton.pack.gz" ] && [ -f "$camvid/val/skeleton.pack.gz" ]; then
        packer="$build/tests/bench/engine/pack_images_from_raw"
        [ -x "$packer" ] || ninja -C "$build" pack_images_from_raw >> "$log" 2>&1 || die "cannot build pack_images_from_raw"
        for split in train val; do
            note "packs: $split from the JPEG copy in $camvid/$split"
            if ! { python3 "$here/camvid_jpeg_copy.py" decode "$camvid/$split" "$work/packs/$split.rgb" &&
                   "$packer" "$work/packs/$split.skeleton.pack" "$work/packs/$split.rgb" "$work/packs/$split.pack"; } \
                   >> "$log" 2>&1; then
                rm -f "$work/packs/$split.pack"
                die "could not rebuild the $split pack"
            fi
            rm -f "$work/packs/$split.rgb" "$work/packs/$split.skeleton.pack"
        done
    elif [ -d "$camvid/trainannot" ]; then
        note "packs: importing SegNet's CamVid from $camvid and packing it at 360x480"
        project=$work/packs/camvid.segstudio
        if ! { { [ -f "$project" ] || "$engine" import segnet "$camvid" -o "$project"; } &&
               "$engine" pack -P "$project" -s train -o "$train_pack" --height 360 --width 480 &&
               "$engine" pack -P "$project" -s val -o "$val_pack" --height 360 --width 480; } >> "$log" 2>&1; then
            rm -f "$train_pack" "$val_pack"
            die "packing failed (an engine-only build cannot pack: carry packs or camvid_jpeg_copy.py's copy)"
        fi
    else
        die "$camvid holds neither train.pack + val.pack, nor camvid_jpeg_copy.py's train/ + val/, nor SegNet's CamVid"
    fi
fi
note "packs: $(stat -L -c '%n %s bytes;' "$train_pack" "$val_pack" | tr '\n' ' ')"
describe=$(python3 "$twin" --describe --train-pack "$train_pack" --crop-height "$crop_h" --crop-width "$crop_w" 2>> "$log") ||
    die "pytorch_twin.py --describe failed"
note "model: $describe"

# --- Runs --------------------------------------------------------------------------------------
sampler=""
start_sampler() {  # FILE: nvidia-smi's own loop, line-buffered so that stopping it loses no sample
    echo "# started_unix=${EPOCHREALTIME}; nvidia-smi -i $gpu_index --query-gpu=timestamp,utilization.gpu,memory.used -lms 1000" > "$1"
    local buffered=()
    command -v stdbuf > /dev/null && buffered=(stdbuf -oL)
    "${buffered[@]}" nvidia-smi -i "$gpu_index" --query-gpu=timestamp,utilization.gpu,memory.used \
        --format=csv,noheader,nounits -lms 1000 >> "$1" 2>&1 &
    sampler=$!
}
stop_sampler() {
    [ -n "$sampler" ] && kill "$sampler" 2> /dev/null
    [ -n "$sampler" ] && wait "$sampler" 2> /dev/null
    sampler=""
}
trap 'stop_sampler' EXIT

engine_extra=60   # seconds a run may take beyond its budget before `timeout` ends it
# Seconds a run takes beyond its budget (start-up, pack upload, compile, validation): guessed for the
# first pair, then measured.
engine_overhead=25
if [ "$twin_mode" = eager ]; then twin_overhead=40; else twin_overhead=90; fi

# A run's time limit: its budget, its overhead and a margin, and never past the deadline (less 15 s
# for the summary), so that a run that hangs still leaves the table of the others.
run_limit() {  # BUDGET OVERHEAD EXTRA
    local limit=$(($1 + $2 + $3))
    if [ "$deadline" -gt 0 ] && [ $((deadline - SECONDS - 15)) -lt "$limit" ]; then
        limit=$((deadline - SECONDS - 15))
        [ "$limit" -gt 1 ] || limit=1
    fi
    echo "$limit"
}

run_engine() {  # NAME BATCH LR BUDGET
    local name=$1 batch=$2 lr=$3 b=$4 dir="$work/runs/$1" started=$SECONDS
    rm -rf "$dir"
    local command=("$engine" train --train-pack "$train_pack" --val-pack "$val_pack" -o "$dir" --model "$model"
                   --device "${SIDE_ENGINE_DEVICE:-cuda}" --amp "${SIDE_ENGINE_AMP:-bf16}" --data-on-device auto --time-budget "${b}s" --crop-height "$crop_h"
                   --crop-width "$crop_w" --batch "$batch" --lr "$lr" --log-interval "$log_interval"
                   --val-epochs 1000000 --seed "$seed")
    note "$name: ${command[*]}"
    start_sampler "$out/smi-$name.csv"
    timeout -k 15 "$(run_limit "$b" "$engine_overhead" "$engine_extra")" "${command[@]}" 2>&1 | stamp > "$work/$name.log"
    local rc=${PIPESTATUS[0]}
    stop_sampler
    local wall=$((SECONDS - started))
    note "$name: exit $rc, ${wall} s"
    { sed 's/^[0-9.]* //' "$work/$name.log" | grep -vE '^train  epoch'
      grep -E '^[0-9.]+ train  epoch' "$work/$name.log" | tail -3 | sed 's/^[0-9.]* //'; } >> "$log"
    printf 'engine\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$batch" "$lr" "$b" "$rc" "$wall" >> "$manifest"
    [ "$rc" -eq 0 ] && engine_overhead=$(( wall - b > 10 ? wall - b : 10 ))
    return 0
}

run_twin() {  # NAME BATCH LR BUDGET
    local name=$1 batch=$2 lr=$3 b=$4 started=$SECONDS
    local command=(python3 "$twin" --train-pack "$train_pack" --val-pack "$val_pack" --time-budget "$b"
                   --batch "$batch" --lr "$lr" --crop-height "$crop_h" --crop-width "$crop_w"
                   --log-interval "$log_interval" --seed "$seed" "${twin_flags[@]}")
    [ -n "$peak" ] && command+=(--peak-tflops "$peak")
    read -ra extra <<< "${SIDE_TWIN_EXTRA:-}"  # e.g. "--device cpu --amp none" to try the script without a GPU
    command+=("${extra[@]}")
    note "$name: ${command[*]}"
    start_sampler "$out/smi-$name.csv"
    timeout -k 15 "$(run_limit "$b" "$twin_overhead" "$twin_extra")" "${command[@]}" > "$work/$name.json" 2> "$work/$name.log"
    local rc=$?
    stop_sampler
    local wall=$((SECONDS - started))
    note "$name: exit $rc, ${wall} s"
    { grep -vE '^step ' "$work/$name.log"; grep -E '^step ' "$work/$name.log" | tail -3; cat "$work/$name.json"; } >> "$log"
    printf 'twin\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$batch" "$lr" "$b" "$rc" "$wall" >> "$manifest"
    [ "$rc" -eq 0 ] && twin_overhead=$(( wall - b > 10 ? wall - b : 10 ))
    return 0
}

# The budget of a pair: the one asked for, or what is left of the deadline shared by the pairs to come.
pair_budget() {  # PAIRS_LEFT
    local b=$budget
    if [ "$deadline" -gt 0 ]; then
        local fit=$(( ((deadline - SECONDS) / $1 - engine_overhead - twin_overhead) / 2 ))
        if [ "$fit" -lt "$b" ]; then
            b=$fit
            note "the deadline leaves ${b} s per run for this pair (engine overhead ~${engine_overhead} s, twin ~${twin_overhead} s)"
        fi
    fi
    echo "$b"
}

least=$(( budget < 20 ? budget : 20 ))  # a deadline may shorten the runs, to 20 s at the least
b=$(pair_budget 2)
[ "$b" -ge "$least" ] || die "too little time left for a pair of runs (${b} s each)"
run_engine engine-b8 8 5e-3 "$b"
run_twin twin-b8 8 5e-3 "$b"
b=$(pair_budget 1)
if [ "$b" -ge "$least" ]; then
    run_engine "engine-b$big_batch" "$big_batch" "$big_lr" "$b"
    run_twin "twin-b$big_batch" "$big_batch" "$big_lr" "$b"
else
    note "skipped the batch-$big_batch pair: ${b} s per run left"
fi
awk -F '\t' '$1 == "engine" { print $2 }' "$manifest" | while read -r name; do
    cat "$work/runs/$name/metrics.jsonl" 2> /dev/null
done > "$out/engine-metrics.jsonl"

# --- Summary -----------------------------------------------------------------------------------
python3 - "$manifest" "$work" "$out" "$train_pack" "$crop_h" "$crop_w" "$gpu_name" "${peak:-0}" "$model" \
    "$twin_mode" "$here" >> "$log" 2>&1 <<'PYTHON'
import datetime, json, math, os, re, statistics, sys

manifest, work, out, train_pack, crop_h, crop_w, gpu, peak, model, twin_mode, here = sys.argv[1:]
sys.path.insert(0, here)
import pytorch_twin as twin  # the FLOP count and the peaks, without training anything

pack = twin.Pack(train_pack, load=False)
crop = (min(int(crop_h), pack.height), min(int(crop_w), pack.width))
gflops = twin.forward_flops(twin.conv_specs(pack.classes), *crop) / 1e9
peak = float(peak) or twin.peak_bf16_tflops(gpu)


def finite(value):
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


def samples(path):
    """(unix time or None, utilisation %, memory MiB) of each parsable nvidia-smi line."""
    rows = []
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return rows
    for line in lines:
        parts = [p.strip() for p in line.split(",")]
        if line.startswith("#") or len(parts) < 3:
            continue
        try:
            utilisation, memory = float(parts[1]), float(parts[2])
        except ValueError:
            continue
        try:
            when = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        except ValueError:
            when = None
        rows.append((when, utilisation, memory))
    return rows


def gpu_figures(path, start, end):
    rows = samples(path)
    inside = [r for r in rows if start is not None and r[0] is not None and start <= r[0] <= end]
    window = "training"
    if len(inside) < 2:  # no window or no timestamps: the whole run, said so
        inside, window = rows, "whole run"
    if not inside:
        return {"gpu_samples": 0}
    return {"gpu_samples": len(inside), "gpu_window": window,
            "gpu_busy_share": round(sum(1 for r in inside if r[1] >= 90) / len(inside), 3),
            "gpu_util_mean": round(statistics.mean(r[1] for r in inside), 1),
            "memory_used_max_mib": max(r[2] for r in inside)}


def engine_run(name, batch):
    records = []
    try:
        for line in open(os.path.join(work, "runs", name, "metrics.jsonl")):
            try:
                records.append(json.loads(line))
            except ValueError:
                pass
    except OSError:
        pass
    trains = [r for r in records if r.get("kind") == "train" and r.get("elapsed_s") is not None]
    vals = [r for r in records if r.get("kind") == "val"]
    plans = [r for r in records if r.get("kind") == "plan"]
    states = [r for r in records if r.get("kind") == "state"]
    run = next((r for r in records if r.get("kind") == "run"), {})
    steps = max((r.get("iteration", 0) for r in records), default=0)
    result = {"framework": "segstudio-engine", "model": run.get("model"), "device": run.get("device"),
              "steps": steps, "first_plan_steps": plans[0].get("total_iterations") if plans else None,
              "state": states[-1].get("state") if states else None,
              "reason": states[-1].get("reason") if states else None}
    per_epoch = run.get("iterations_per_epoch") or 0
    result["epochs"] = steps / per_epoch if per_epoch else None
    if len(trains) >= 2 and trains[-1]["elapsed_s"] > trains[0]["elapsed_s"]:
        first, last = trains[0], trains[-1]
        result["images_per_s"] = round((last["iteration"] - first["iteration"]) * batch /
                                       (last["elapsed_s"] - first["elapsed_s"]), 2)
    elif trains:
        result["images_per_s"] = trains[-1].get("images_per_s")
    rates = [r["images_per_s"] for r in trains[1:] if r.get("images_per_s") is not None]
    result["images_per_s_median_of_log_lines"] = round(statistics.median(rates), 2) if rates else None
    result["train_s"] = trains[-1]["elapsed_s"] if trains else None
    if vals:
        v = vals[-1]
        result.update({"val_miou": finite(v.get("mean_iou")), "val_global_accuracy": finite(v.get("accuracy")),
                       "val_mean_accuracy": finite(v.get("mean_accuracy")), "val_loss": finite(v.get("loss")),
                       "class_iou": v.get("class_iou")})
    # The training window, from the stamped output: "training ..." to the last "train  epoch" line.
    start = end = None
    try:
        for line in open(os.path.join(work, name + ".log")):
            stamp, _, text = line.rstrip("\n").partition(" ")
            if re.match(r"training \S+ on ", text) and start is None:
                start = float(stamp)
            elif text.startswith("train  epoch"):
                end = float(stamp)
            elif text.startswith("data: "):
                result["data"] = text[6:]
    except (OSError, ValueError):
        pass
    return result, start, end


def twin_run(name):
    result = {"framework": "pytorch-twin"}
    try:
        lines = [l for l in open(os.path.join(work, name + ".json")) if l.startswith("{")]
        result.update(json.loads(lines[-1]))
    except (OSError, ValueError, IndexError):
        pass
    return result, result.get("train_start_unix"), result.get("train_end_unix")


results = []
for row in open(manifest):
    kind, name, batch, lr, budget, rc, wall = row.rstrip("\n").split("\t")
    batch = int(batch)
    if kind == "engine":
        result, start, end = engine_run(name, batch)
    else:
        result, start, end = twin_run(name)
    result.update({"run": name, "batch": batch, "lr": float(lr), "time_budget_s": float(budget),
                   "exit_code": int(rc), "wall_s": int(wall), "gpu": gpu, "crop": list(crop),
                   "forward_gflops_per_image": round(gflops, 4), "peak_tflops": peak})
    result.update(gpu_figures(os.path.join(out, f"smi-{name}.csv"), start, end))
    ips = result.get("images_per_s")
    result["mfu"] = round(ips * 3 * gflops * 1e9 / (peak * 1e12), 4) if ips and peak else None
    results.append(result)

with open(os.path.join(out, "results.jsonl"), "w") as f:
    for r in results:
        f.write(json.dumps(r) + "\n")


def cell(value, pattern="{}"):
    return "-" if value is None else pattern.format(value)


parameters = twin.spec_parameters(twin.conv_specs(pack.classes))
lines = [
    f"# Engine and PyTorch twin side by side ({datetime.date.today()}, {gpu})", "",
    f"Model `{model}` ({parameters:,} parameters, {gflops:.3f} GFLOPs forward per {crop[0]}x{crop[1]} "
    f"crop by ConvLayout's count), the default recipe (AdamW, weight decay 0.1, warm-up + cosine laid over the "
    f"time budget, sqrt-median class weights, flip, +-10 px shift, random crops), bf16 autocast, channels-last, "
    f"{pack.count} training images {pack.height}x{pack.width}; each run validated once at the end on the whole val "
    f"pack (mIoU with the class-prior correction, as the engine scores). Twin: `{twin_mode}`.", "",
    f"MFU = training images/s x 3 x forward FLOPs (convolutions only, a multiply-add = 2 FLOPs, backward = 2x "
    f"forward) / {cell(peak)} TFLOP/s (dense bf16 peak). GPU busy = nvidia-smi samples (1 s) at >= 90 % "
    f"utilisation over all samples while training. Images/s: from the first log line to the last "
    f"(the engine: metrics.jsonl's train records; the twin: its own log points).", "",
    "| run | batch | lr | budget s | steps | epochs | images/s | val mIoU | GPU busy | mean util % | "
    "memory max MiB (nvidia-smi) | MFU | notes |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
]
for r in results:
    notes = []
    if r["exit_code"] != 0:
        notes.append(f"exit code {r['exit_code']}")
    if r["framework"] == "pytorch-twin":
        notes.append(f"{r.get('compile', '?')}, compile {cell(r.get('compile_s'))} s")
        if r.get("compile_error"):
            notes.append("compile failed: eager")
        if r.get("cudagraph_skips"):
            notes.append(f"{r['cudagraph_skips']} graph(s) ran without CUDA graphs")
        notes.append(f"allocator peak {cell(r.get('peak_memory_allocated_gib'))} GiB")
    else:
        notes.append(f"median log line {cell(r.get('images_per_s_median_of_log_lines'))} img/s")
        if r.get("data"):
            notes.append("host loader" if "host loader" in r["data"] else "pack on the GPU")
    if r.get("gpu_window") == "whole run":
        notes.append("GPU samples of the whole run")
    busy = r.get("gpu_busy_share")
    lines.append("| {} | {} | {:.4g} | {:.0f} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
        r["run"], r["batch"], r["lr"], r["time_budget_s"], cell(r.get("steps")),
        cell(r.get("epochs"), "{:.1f}"), cell(r.get("images_per_s"), "{:.1f}"), cell(r.get("val_miou"), "{:.3f}"),
        "-" if busy is None else f"{100 * busy:.0f} %", cell(r.get("gpu_util_mean"), "{:.0f}"),
        cell(r.get("memory_used_max_mib"), "{:.0f}"), "-" if r.get("mfu") is None else f"{100 * r['mfu']:.1f} %",
        "; ".join(notes)))
open(os.path.join(out, "side_by_side.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PYTHON
note "summary: exit $?"
cat "$out/side_by_side.md" 2> /dev/null
