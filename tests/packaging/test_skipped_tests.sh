#!/usr/bin/env bash
# packaging/skipped-tests.sh on ctest logs written here: it counts and lists the QSKIPs, and fails
# only when one matches SEGSTUDIO_MUST_RUN.
set -euo pipefail
script="${1:?usage: test_skipped_tests.sh path/to/skipped-tests.sh}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
mkdir -p "$build/Testing/Temporary"
log="$build/Testing/Temporary/LastTest.log"
cat > "$log" <<'LOG'
PASS   : TestTrainer::overfitsTinyBatch()
SKIP   : TestDataParallelCli::initTestCase() this LibTorch has no c10d Gloo
   Loc: [/src/tests/engine/test_DataParallelCli.cpp(90)]
SKIP   : TestGpuMonitor::openIsAbsentOrSane() no NVML (libnvidia-ml) or no NVIDIA GPU here: nothing to sample
Totals: 3 passed, 0 failed, 2 skipped, 0 blacklisted, 12ms
LOG
fail() { echo "FAIL: $*" >&2; exit 1; }

out="$(SEGSTUDIO_MUST_RUN= "$script" "$build")" || fail "no requirement, yet it failed"
grep -q "Qt Test functions skipped: 2" <<<"$out" || fail "count missing: $out"
grep -q "TestDataParallelCli::initTestCase() this LibTorch has no c10d Gloo" <<<"$out" || fail "reason missing: $out"

if SEGSTUDIO_MUST_RUN='^TestDataParallel' "$script" "$build" >/dev/null 2>&1; then
  fail "a must-run test skipped, yet it passed"
fi
SEGSTUDIO_MUST_RUN='fullDisk|DiskFull' "$script" "$build" >/dev/null || fail "a skip not required here failed it"

printf 'PASS   : TestTrainer::overfitsTinyBatch()\n' > "$log"
out="$(SEGSTUDIO_MUST_RUN='^TestDataParallel' "$script" "$build")" || fail "nothing skipped, yet it failed"
grep -q "Qt Test functions skipped: 0" <<<"$out" || fail "zero count missing: $out"

rm "$log"
if "$script" "$build" >/dev/null 2>&1; then fail "no log, yet it passed"; fi
echo "PASS: skipped-tests.sh"
