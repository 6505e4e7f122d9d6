#!/usr/bin/env python3
"""Where a training step's GPU time goes, eager against torch.compile, for the default model's
PyTorch twin (pytorch_twin.py's DeepLabV3Plus: the engine's layers and layout, issue 63).

  python3 tests/bench/engine/profile_twin_step.py --batch 256 [--device cuda] [--steps 5] [--compile]

Random 180x240 inputs (the kernels do not depend on the pixels), bf16 autocast, channels-last,
fused AdamW on a GPU. After warm-up steps, torch.profiler records --steps steps; the kernels are
summed by kind (convolutions and matrix products, batch norm, everything else: elementwise, casts,
pooling, resizing, the loss) and the 25 costliest are listed. The eager engine runs LibTorch's
kernels for the same operations, so the eager column is the engine's step, op for op.
"""
import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pytorch_twin as twin  # noqa: E402
from kernel_kinds import kind  # noqa: E402


def device_time(event):
    for attribute in ("self_device_time_total", "self_cuda_time_total"):
        if hasattr(event, attribute):
            return getattr(event, attribute)
    return 0.0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--device", default="cuda")
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--compile", action="store_true", help="torch.compile (inductor, no CUDA graphs) the forward and loss")
    p.add_argument("--height", type=int, default=180)
    p.add_argument("--width", type=int, default=240)
    args = p.parse_args()
    device = torch.device(args.device)
    cuda = device.type == "cuda"
    model = twin.DeepLabV3Plus(11).to(device).to(memory_format=torch.channels_last)
    parameters = list(model.parameters())
    optimizer = torch.optim.AdamW(parameters, lr=1e-3, weight_decay=0.1, **({"fused": True} if cuda else {}))
    images = torch.randn(args.batch, 3, args.height, args.width, device=device).contiguous(memory_format=torch.channels_last)
    labels = torch.randint(0, 11, (args.batch, args.height, args.width), device=device)
    amp = torch.bfloat16

    def forward_loss(x, y):
        with torch.autocast(device.type, dtype=amp):
            logits = model(x)
        return F.cross_entropy(logits.float(), y, ignore_index=255)

    step_loss = torch.compile(forward_loss) if args.compile else forward_loss

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = step_loss(images, labels)
        loss.backward()
        optimizer.step()

    started = time.perf_counter()
    for _ in range(args.warmup):
        step()
    if cuda:
        torch.cuda.synchronize()
    print(f"warm-up ({args.warmup} steps{', compile' if args.compile else ''}): {time.perf_counter() - started:.1f} s")
    activities = [torch.profiler.ProfilerActivity.CPU] + ([torch.profiler.ProfilerActivity.CUDA] if cuda else [])
    started = time.perf_counter()
    with torch.profiler.profile(activities=activities) as profile:
        for _ in range(args.steps):
            step()
        if cuda:
            torch.cuda.synchronize()
    wall = (time.perf_counter() - started) / args.steps
    kernels = [e for e in profile.key_averages() if device_time(e) > 0 and e.device_type == torch.autograd.DeviceType.CUDA]
    total = sum(device_time(e) for e in kernels) / args.steps / 1000.0
    print(f"batch {args.batch}, {'compiled' if args.compile else 'eager'}: {wall * 1000:.1f} ms a step under the "
          f"profiler ({args.batch / wall:.0f} images/s), kernels {total:.1f} ms a step, {len(kernels)} kinds")
    by_kind = {}
    for e in kernels:
        k = kind(e.key)
        by_kind.setdefault(k, [0.0, 0])
        by_kind[k][0] += device_time(e) / args.steps / 1000.0
        by_kind[k][1] += e.count // args.steps
    for k, (ms, count) in sorted(by_kind.items(), key=lambda item: -item[1][0]):
        print(f"  {k:42s} {ms:8.2f} ms  {100 * ms / max(total, 1e-9):5.1f} %  {count:5d} launches a step")
    print("costliest kernels (ms a step, launches a step, name):")
    for e in sorted(kernels, key=device_time, reverse=True)[:25]:
        print(f"  {device_time(e) / args.steps / 1000.0:8.2f}  {e.count // args.steps:5d}  {e.key[:110]}")


if __name__ == "__main__":
    main()
