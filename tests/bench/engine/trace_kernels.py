#!/usr/bin/env python3
"""Where a step's GPU time goes, from a Chrome trace of Kineto (LibTorch's profiler), e.g. the
engine's step as `bench_engine_train --cuda --profile FILE --iterations N` records it (issue 63):

  python3 tests/bench/engine/trace_kernels.py FILE --steps N

The GPU kernels (trace events of category "kernel") are summed by kind as profile_twin_step.py sums
the PyTorch twin's, per step, and the 25 costliest are listed; no torch needed.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_kinds import kind  # noqa: E402


def kernels_of(trace):
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    totals = {}
    for event in events:
        if event.get("ph") != "X" or str(event.get("cat", "")).lower() != "kernel":
            continue
        name = event.get("name", "?")
        total = totals.setdefault(name, [0.0, 0])
        total[0] += float(event.get("dur", 0.0)) / 1000.0  # microseconds to ms
        total[1] += 1
    return totals


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trace")
    p.add_argument("--steps", type=int, required=True, help="the steps the trace holds")
    args = p.parse_args()
    with open(args.trace) as f:
        totals = kernels_of(json.load(f))
    if not totals:
        print(f"{args.trace}: no GPU kernels in the trace")
        return 1
    total = sum(ms for ms, _ in totals.values()) / args.steps
    print(f"kernels {total:.1f} ms a step, {len(totals)} kinds")
    by_kind = {}
    for name, (ms, count) in totals.items():
        k = by_kind.setdefault(kind(name), [0.0, 0])
        k[0] += ms / args.steps
        k[1] += count // args.steps
    for k, (ms, count) in sorted(by_kind.items(), key=lambda item: -item[1][0]):
        print(f"  {k:42s} {ms:8.2f} ms  {100 * ms / max(total, 1e-9):5.1f} %  {count:5d} launches a step")
    print("costliest kernels (ms a step, launches a step, name):")
    for name, (ms, count) in sorted(totals.items(), key=lambda item: -item[1][0])[:25]:
        print(f"  {ms / args.steps:8.2f}  {count // args.steps:5d}  {name[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
