#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs what is missing, builds, then
#   dev.sh run [--headless]   the GUI on the demo project (or, with --headless or no display,
#                             the CLI's end-to-end demo training run)
#   dev.sh test               the whole test suite (Qt Test via CTest)
# BUILD_DIR (default ./build), JOBS (default: all cores), DEBUG_FLAGS (default -O2 -g1 -DNDEBUG)
# and UNITY_BUILD (default ON) can be set in the environment.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-$(nproc)}"
# ccache hits across clones and build folders: paths under the checkout hash as relative ones.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

usage() { sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }

# configure_and_build [TARGET...]: every target when none is named.
configure_and_build() {
  "$here/install-deps.sh"
  # Every library and program in batches of 8 sources (SEGSTUDIO_UNITY_BUILD), and -g1 (functions
  # and lines: enough for a backtrace and for the package's -dbgsym, without full -g's types, which
  # cost LibTorch units 40 % more): a fresh machine builds the programs in minutes rather than most
  # of an hour (issue 50, docs/BENCHMARKS.md). Developers who debug configure their own folder (-g,
  # no unity build).
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${DEBUG_FLAGS:--O2 -g1 -DNDEBUG}" -DSEGSTUDIO_UNITY_BUILD="${UNITY_BUILD:-ON}"
  if [ $# -gt 0 ]; then
    cmake --build "$build" -j "$jobs" --target "$@"
  else
    cmake --build "$build" -j "$jobs"
  fi
}

has_display() { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }

cmd="${1:-}"; shift || true
case "$cmd" in
  run)
    # Only the two programs and what they link: the tests and benchmarks wait for `test`.
    configure_and_build segstudio segstudio-train
    if [ "${1:-}" = "--headless" ] || ! has_display; then
      has_display || echo "dev.sh: no display found: running the headless demo (segstudio-train demo)"
      exec "$build/app/segstudio-train/segstudio-train" demo --dir "${DEMO_DIR:-$build/demo}"
    fi
    exec "$build/app/segstudio/segstudio" --demo
    ;;
  test)
    configure_and_build
    cd "$build"
    # Timeouts are per test (tests/CMakeLists.txt); offscreen so GUI tests need no display.
    # The Debian package, as a user installs it (packaging/test-package.sh), then the suite
    # (ctest's summary), then the Qt Test functions that skipped.
    "$here/test-package.sh" "$build"
    status=0
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$jobs" || status=$?
    # ctest counts a QSKIP as a pass: say what skipped, and fail on what must run here.
    "$here/skipped-tests.sh" "$build" || status=1
    exit "$status"
    ;;
  *) usage ;;
esac
