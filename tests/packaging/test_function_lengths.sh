#!/usr/bin/env bash
# packaging/function-lengths.py (issue 52): a function of LIMIT + 1 lines is reported with its
# file and line and fails the check; one of LIMIT lines, a member defined in its class and a
# scoped block pass. Usage: test_function_lengths.sh <packaging/function-lengths.py>
set -euo pipefail
check="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

function_of() {  # function_of NAME LINES: a free function of LINES lines in all
  printf 'int %s(int a,\n        int b)\n{\n' "$1"
  for ((i = 0; i < $2 - 4; ++i)); do printf '    a += b;\n'; done
  printf '}\n'
}

mkdir -p "$work/ok" "$work/long"
{ function_of fits 10; echo; function_of exactly 10; } > "$work/ok/a.cpp"
printf 'struct S {\n    void f()\n    {\n        {\n        }\n    }\n};\n' > "$work/ok/S.h"
python3 "$check" 10 "$work/ok" > "$work/out" || { echo "FAIL: functions of 10 lines were refused"; cat "$work/out"; exit 1; }
echo "ok: $(cat "$work/out")"

{ function_of fits 10; echo; function_of tooLong 11; } > "$work/long/b.cpp"
if python3 "$check" 10 "$work/long" > "$work/out"; then
  echo "FAIL: a function of 11 lines passed a limit of 10"; cat "$work/out"; exit 1
fi
grep -q "11 lines  $work/long/b.cpp:12  int tooLong(int a, int b)" "$work/out" ||
  { echo "FAIL: the report does not name the function"; cat "$work/out"; exit 1; }
grep -q "fits" "$work/out" && { echo "FAIL: a short function was reported"; cat "$work/out"; exit 1; }
echo "ok: $(head -1 "$work/out")"

# A member defined in its class is measured too.
{ printf 'struct T {\n    int g()\n    {\n'; for i in $(seq 1 9); do printf '        return 1;\n'; done; printf '    }\n};\n'; } > "$work/long/T.h"
python3 "$check" 10 "$work/long" > "$work/out" || true
grep -q "T.h:2  int g()" "$work/out" || { echo "FAIL: a member of 12 lines in its class was not reported"; cat "$work/out"; exit 1; }
echo "ok: members in their class are measured"
