#!/usr/bin/env bash
# The fault sweep of issues 46, 47 and 60, run by hand against a build: each case makes the fault as
# it happens (two processes racing, a kill at the named moment, a full tmpfs) and prints, as
# Markdown, the command, its exit code, its last output line and what is on disk afterwards.
# docs/FAULTS.md records a run.   Usage: tests/bench/faults/fault_sweep.sh BUILD_DIR > sweep.md
# A full disk needs root (a 2 MB tmpfs); that case says so and is skipped without it.
set -uo pipefail
build="$(cd "${1:?usage: fault_sweep.sh BUILD_DIR}" && pwd)"
bin="$build/app/segstudio-train/segstudio-train"
work="$(mktemp -d)"
trap 'umount "$work/full" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"

# One case: its title, then the command line run as it is; prints rc and the last line.
case_() { echo; echo "### $1"; }
run() {
  echo '```'
  echo "\$ $*" | sed "s#$bin#segstudio-train#g; s#$work/##g"
  "$@" > out.txt 2>&1
  local rc=$?
  tail -n 2 out.txt | sed "s#$work/##g"
  echo "rc $rc"
  echo '```'
  return $rc
}
check() { if eval "$2"; then echo "- ok: $1"; else echo "- **FAILED: $1**"; fi; }

"$bin" demo --dir demo --images 40 --height 120 --width 160 --epochs 1 --model segnet-tiny > /dev/null 2>&1 \
  || { echo "demo failed"; exit 1; }
data="demo/dataset"
mkdir -p idx/images idx/labels
cp "$data"/images/*.png idx/images/
cp "$data"/labels/*.png idx/labels/

case_ "46.1 a CVAT export back into the folder its images came from"
run "$bin" export "$data/demo.segstudio" -o "$data" --format cvat; rc=$?
check "refused" "[ $rc -ne 0 ]"
check "every image still there" "[ \$(ls $data/images/*.png | wc -l) -eq 40 ]"

case_ "46.2 an export into another project's folder"
run "$bin" import index-png idx/images --labels idx/labels -o idx/other.segstudio --schema camvid
before=$(md5sum "$data"/labels/* | md5sum)
run "$bin" export idx/other.segstudio -o "$data" --format index-png; rc=$?
check "refused" "[ $rc -ne 0 ]"
check "label maps untouched" "[ \"\$(md5sum $data/labels/* | md5sum)\" = \"$before\" ]"

case_ "46.3 an import over a user's file named <name>.labels"
mkdir -p P && printf 'road\ncar\nsky\n' > P/mine.labels
run "$bin" import index-png idx/images --labels idx/labels -o P/mine.segstudio
check "the text file kept" "[ -f P/mine.labels ] && grep -q car P/mine.labels"

case_ "46.4 two imports into one project path at once"
"$bin" import index-png idx/images --labels idx/labels -o race.segstudio > a.txt 2>&1 & a=$!
"$bin" import images idx/images -o race.segstudio > b.txt 2>&1 & b=$!
wait $a; ra=$?; wait $b; rb=$?
echo '```'; echo "two imports to race.segstudio: rc $ra and $rb"; tail -n1 a.txt b.txt | sed "s#$work/##g"; echo '```'
check "exactly one succeeded" "[ \$(( (ra == 0) + (rb == 0) )) -eq 1 ]"
check "the project is the winner's" "grep -q '\"images\"' race.segstudio"

case_ "46.5 two packs to one output at once"
# The second starts once the first has begun writing (its temp file exists): they overlap.
"$bin" pack -P "$data/demo.segstudio" -s train -o t.pack --height 960 --width 1280 > a.txt 2>&1 & a=$!
while [ ! -e t.pack.partial ] && kill -0 $a 2>/dev/null; do :; done
"$bin" pack -P "$data/demo.segstudio" -s val -o t.pack --height 960 --width 1280 > b.txt 2>&1 & b=$!
wait $a; ra=$?; wait $b; rb=$?
echo '```'; echo "two packs to t.pack: rc $ra and $rb"; tail -n1 a.txt b.txt | sed "s#$work/##g"; echo '```'
check "exactly one succeeded" "[ \$(( (ra == 0) + (rb == 0) )) -eq 1 ]"
check "t.pack reads back with its checksum" "'$bin' train --train-pack t.pack --val-pack '' -o tcheck --max-iterations 1 --batch 2 --model segnet-tiny > /dev/null 2>&1"

case_ "46.6 an import killed after its label folder got its name, then retried"
for i in 1 2 3 4 5 6 7 8; do
  rm -rf k.segstudio k.labels .k.labels.partial
  "$bin" import index-png idx/images --labels idx/labels -o k.segstudio > /dev/null 2>&1 & p=$!
  while [ ! -d k.labels ] && kill -0 $p 2>/dev/null; do :; done
  kill -9 $p 2>/dev/null; wait $p 2>/dev/null
  if [ -e k.segstudio ]; then  # the kill came after the project was saved: the import had finished
    [ "$(ls k.labels/*.png | wc -l)" -eq 40 ] && echo "- ok: kill $i came after the import finished: 40 maps, no marker left: $(ls -A k.labels | grep -c segstudio-import)" \
      || echo "- **FAILED: kill $i: a project with a partial label folder**"
    continue
  fi
  "$bin" import index-png idx/images --labels idx/labels -o k.segstudio > r.txt 2>&1 || { echo "- **FAILED: retry $i**: $(tail -n1 r.txt)"; continue; }
  echo "- ok: kill $i then retry: $(tail -n1 r.txt | sed "s#$work/##g")"
done

case_ "46.6 a file name that is not UTF-8"
mkdir -p odd && cp idx/images/$(ls idx/images | head -1) "odd/m$(printf '\xfc')nster.png"
run "$bin" import images odd -o odd.segstudio
check "named in the error" "grep -q 'not valid UTF-8' out.txt"

case_ "46.7 a failed import into NEW/sub/"
run "$bin" import index-png idx/images --labels demo -o NEW/sub/x.segstudio
check "no NEW/ left" "[ ! -e NEW ]"

case_ "46.7 an export on a full disk"
if mkdir -p full && mount -t tmpfs -o size=2m tmpfs full 2>/dev/null; then
  dd if=/dev/zero of=full/filler bs=4k status=none 2>/dev/null  # until the disk is full
  truncate -s -24k full/filler                                     # room for a few files only
  run "$bin" export "$data/demo.segstudio" -o full/out --format cvat; rc=$?
  check "refused" "[ $rc -ne 0 ]"
  check "nothing partial left" "[ -z \"\$(ls -A full | grep -v filler)\" ]"
else
  echo "- skipped: mounting a tmpfs needs root"
fi

case_ "46.8 a finished budgeted run resumed with a larger budget"
run "$bin" train --train-pack demo/train.pack --val-pack demo/val.pack -o budget --model segnet-tiny --time-budget 5s --threads 1 --batch 2
run "$bin" train --resume budget --time-budget 12s --threads 1
grep -h "planning them\|^finished" out.txt | sed "s#$work/##g; s/^/    /"
check "it trained on (more iterations)" "grep -q 'planning them' out.txt"

case_ "46.9 Stop while waiting for the other machine"
port=$((20000 + RANDOM % 20000))
"$bin" train --nnodes 2 --node-rank 0 --nproc 1 --master 127.0.0.1:$port --timeout 60 --train-pack demo/train.pack \
  -o twonode --model segnet-tiny --device cpu > a.txt 2>&1 & p=$!
for _ in $(seq 1 100); do [ -n "$(pgrep -P $p)" ] && break; sleep 0.1; done; sleep 2
start=$(date +%s); kill -TERM $p; wait $p; rc=$?; took=$(( $(date +%s) - start ))
echo '```'; echo "SIGTERM to the launcher: rc $rc after ${took} s"; tail -n1 a.txt | sed "s#$work/##g"; echo '```'
check "exit 130" "[ $rc -eq 130 ]"

case_ "46.10 --lr 1e30, and a budget of 1e12 s"
run "$bin" train --train-pack demo/train.pack --val-pack demo/val.pack -o huge --model segnet-tiny --lr 1e30 --epochs 3 --threads 1 --batch 2
check "it trained (and diverged)" "[ -e huge/metrics.jsonl ]"
check "no best.pt" "[ ! -e huge/checkpoints/best.pt ]"
run "$bin" train --train-pack demo/train.pack -o forever --model segnet-tiny --time-budget 1e12s
check "refused" "! grep -q finished out.txt"


case_ "46.12 options and messages"
run "$bin" pack -P "$data/demo.segstudio" -s train -o big.pack --height 40000 --width 64
run "$bin" export-model budget -o m.onnx --height -5
run "$bin" train --time-budget= --train-pack demo/train.pack -o x
run "$bin" demo --images abc
run "$bin" split "$data/demo.segstudio" --train inf
run "$bin" train --init-from budget --train-pack demo/train.pack -o fromrun --model segnet-tiny --epochs 1 --batch 2 --threads 1 --val-pack ''
check "--init-from took the run folder" "grep -q 'initFrom' fromrun/config.json && grep -q 'best.pt\\|last.pt' fromrun/config.json"

# Issue 60: the commands around the exports, with the user's files in place.
labels_sum() { md5sum "$data"/labels/* | md5sum; }

case_ "60.1 predict and evaluate --predictions into the project's label folder"
before=$(labels_sum)
run "$bin" predict -c demo/run -P "$data/demo.segstudio" -s val -o "$data/labels"; rc=$?
check "predict refused" "[ $rc -ne 0 ]"
run "$bin" evaluate -c demo/run -P "$data/demo.segstudio" -s val --predictions "$data/labels"; rc=$?
check "evaluate refused" "[ $rc -ne 0 ]"
check "label maps untouched" "[ \"\$(labels_sum)\" = \"$before\" ]"

case_ "60.1 predict into a folder of the user's PNGs of the same names"
mkdir -p mine && cp "$data"/images/street_0001.png mine/ && before=$(md5sum mine/street_0001.png)
run "$bin" predict -c demo/run -o mine "$data"/images/street_0001.png; rc=$?
check "refused" "[ $rc -ne 0 ]"
check "the user's PNG untouched" "[ \"\$(md5sum mine/street_0001.png)\" = \"$before\" ]"

case_ "60.1 predict killed mid-way (kill -9 once it recorded a file), then retried"
for i in 1 2 3 4 5; do
  rm -rf killed
  "$bin" predict -c demo/run -P "$data/demo.segstudio" -s all --confidence -o killed > /dev/null 2>&1 & p=$!
  until grep -q fingerprint killed/.segstudio-outputs.jsonl 2>/dev/null || ! kill -0 $p 2>/dev/null; do :; done
  kill -9 $p 2>/dev/null; wait $p 2>/dev/null
  done_before=$(grep -c fingerprint killed/.segstudio-outputs.jsonl 2>/dev/null)
  "$bin" predict -c demo/run -P "$data/demo.segstudio" -s all --confidence -o killed > r.txt 2>&1 \
    && echo "- ok: kill $i after $done_before file(s) recorded, then retry: $(tail -n1 r.txt | sed "s#$work/##g")" \
    || echo "- **FAILED: kill $i, retry**: $(tail -n1 r.txt | sed "s#$work/##g")"
done

case_ "60.2 train -o a folder holding the user's config.json and metrics.jsonl, and -o the label folder"
mkdir -p experiment && echo '{"lr": 0.01, "model": "unet"}' > experiment/config.json && echo '{"epoch": 1}' > experiment/metrics.jsonl
before=$(md5sum experiment/*)
run "$bin" train --train-pack demo/train.pack -o experiment --model segnet-tiny --epochs 1 --batch 2; rc=$?
check "refused" "[ $rc -ne 0 ]"
check "the user's files untouched, nothing added" "[ \"\$(md5sum experiment/*)\" = \"$before\" ] && [ ! -e experiment/checkpoints ]"
before=$(labels_sum)
run "$bin" train --train-pack demo/train.pack -o "$data/labels" --model segnet-tiny --epochs 1 --batch 2; rc=$?
check "refused" "[ $rc -ne 0 ]"
check "nothing mixed in" "[ \"\$(labels_sum)\" = \"$before\" ] && [ ! -e $data/labels/checkpoints ]"

case_ "60.3 export-model over the user's m.onnx, evaluate --report over the user's report.json"
echo "my model" > users.onnx
run "$bin" export-model -c demo/run -o users.onnx; rc=$?
check "refused" "[ $rc -ne 0 ] && grep -q 'my model' users.onnx"
run "$bin" export-model -c demo/run -o ours.onnx
run "$bin" export-model -c demo/run -o ours.onnx; rc=$?
check "its own earlier export replaced" "[ $rc -eq 0 ]"
mkdir -p rep && echo '{"mine": true}' > rep/report.json
run "$bin" evaluate -c demo/run -P "$data/demo.segstudio" -s val --report rep; rc=$?
check "refused" "[ $rc -ne 0 ] && grep -q mine rep/report.json"

case_ "60.4 a hand edit in an earlier export's folder"
run "$bin" export "$data/demo.segstudio" -o ex --format cvat
echo "# my edit" >> ex/labelmap.txt
run "$bin" export "$data/demo.segstudio" -o ex --format cvat; rc=$?
check "refused" "[ $rc -ne 0 ]"
check "the edit kept" "grep -q 'my edit' ex/labelmap.txt"

case_ "60.5 train --resume --epochs 1 on a run that trained 3"
run "$bin" train --train-pack demo/train.pack -o three --model segnet-tiny --epochs 3 --batch 2 --threads 1
before=$(md5sum three/metrics.jsonl)
run "$bin" train --resume three --epochs 1; rc=$?
check "refused, naming what was done" "[ $rc -ne 0 ] && grep -q 'has trained 3 epoch' out.txt"
check "records untouched" "[ \"\$(md5sum three/metrics.jsonl)\" = \"$before\" ]"

case_ "60.6 an export killed (kill -9) as soon as its staging folder exists, then retried"
for i in 1 2 3 4 5 6 7 8; do
  rm -rf kx .kx.export-partial .kx.export.lock
  "$bin" export "$data/demo.segstudio" -o kx --format cvat > /dev/null 2>&1 & p=$!
  while [ ! -d .kx.export-partial ] && kill -0 $p 2>/dev/null; do :; done
  kill -9 $p 2>/dev/null; wait $p 2>/dev/null
  left=$(ls -A .kx.export-partial 2>/dev/null | tr '\n' ' ')
  "$bin" export "$data/demo.segstudio" -o kx --format cvat > r.txt 2>&1 \
    && echo "- ok: kill $i (staging held: ${left:-nothing}) then retry: $(tail -n1 r.txt | sed "s#$work/##g")" \
    || echo "- **FAILED: kill $i (staging held: ${left:-nothing}), retry**: $(tail -n1 r.txt | sed "s#$work/##g")"
done

case_ "60.7 an empty .png imported, --crop-share 1, export -o \"\""
mkdir -p zero && cp "$data"/images/street_0001.png zero/ && : > zero/empty.png
run "$bin" import images zero -o zero.segstudio; rc=$?
check "refused, naming the file" "[ $rc -ne 0 ] && grep -q 'zero/empty.png' out.txt"
run "$bin" train --train-pack demo/train.pack -o whole --model segnet-tiny --max-iterations 1 --batch 2 --crop-share 1; rc=$?
check "--crop-share 1 trains (whole images)" "[ $rc -eq 0 ]"
run "$bin" export "$data/demo.segstudio" -o "" --format cvat; rc=$?
check "says the path is empty" "[ $rc -ne 0 ] && grep -q 'path is empty' out.txt"
