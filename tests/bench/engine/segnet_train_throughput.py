#!/usr/bin/env python3
"""PyTorch twin of bench_engine_train's loop: the same SegNet variant (stages, 3x3 or 7x7 convs,
BN, ReLU, index-keeping max-pool / max-unpool, 1x1 classifier, zero-padding to a multiple of
2^stages), the same weighted ignore-aware cross-entropy, SGD momentum 0.9, weight decay 5e-4,
fixed random batch. Prints one line: images_per_s <value>.
On a GPU (--device cuda, --amp bf16, --channels-last) it is the PyTorch reference for
bench_engine_train --cuda, and --profile prints where the step's GPU time goes."""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

STAGES = {
    "segnet-tiny": ([[16], [32], [64], [64]], 3),
    "segnet-basic": ([[64], [64], [64], [64]], 7),
    "segnet": ([[64, 64], [128, 128], [256, 256, 256], [512, 512, 512], [512, 512, 512]], 3),
}


def stage(cin, outs, k):
    layers = []
    for out in outs:
        layers += [nn.Conv2d(cin, out, k, padding=k // 2), nn.BatchNorm2d(out), nn.ReLU(inplace=True)]
        cin = out
    return nn.Sequential(*layers)


class SegNet(nn.Module):
    def __init__(self, stages, k, classes):
        super().__init__()
        self.enc = nn.ModuleList()
        cin = 3
        for s in stages:
            self.enc.append(stage(cin, s, k))
            cin = s[-1]
        self.dec = nn.ModuleList()
        for i, s in enumerate(stages):
            outs = list(reversed(s))[1:] + [s[0] if i == 0 else stages[i - 1][-1]]
            self.dec.append(stage(s[-1], outs, k))
        self.cls = nn.Conv2d(stages[0][0], classes, 1)
        self.div = 2 ** len(stages)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                nn.init.zeros_(m.bias)

    def forward(self, x):
        h, w = x.shape[2:]
        ph, pw = (-h) % self.div, (-w) % self.div
        if ph or pw:
            x = F.pad(x, (0, pw, 0, ph))
        idx, sizes = [], []
        for e in self.enc:
            x = e(x)
            sizes.append(x.shape[2:])
            x, i = F.max_pool2d(x, 2, 2, return_indices=True)
            idx.append(i)
        for s in reversed(range(len(self.dec))):
            x = F.max_unpool2d(x.contiguous(), idx[s].contiguous(), 2, 2, output_size=sizes[s])
            x = self.dec[s](x)
        x = self.cls(x)
        return x[:, :, :h, :w]


def loss_fn(logits, labels, weights):
    per_pixel = F.cross_entropy(logits.float(), labels, weight=weights, ignore_index=255, reduction="none")
    valid = labels != 255
    denom = (weights[labels.masked_fill(~valid, 0)] * valid).sum()
    return per_pixel.sum() / denom.clamp_min(1e-12)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="segnet-tiny")
    p.add_argument("--height", type=int, default=360)
    p.add_argument("--width", type=int, default=480)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--classes", type=int, default=11)
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--device", default="cpu")
    p.add_argument("--amp", choices=["none", "bf16"], default="none")
    p.add_argument("--channels-last", action="store_true")
    p.add_argument("--profile", action="store_true", help="print the top GPU/CPU operators of the timed steps")
    a = p.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    stages, k = STAGES[a.model]
    device = torch.device(a.device)
    torch.backends.cudnn.benchmark = device.type == "cuda"
    memory_format = torch.channels_last if a.channels_last else torch.contiguous_format
    model = SegNet(stages, k, a.classes).to(device, memory_format=memory_format)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    x = torch.randn(a.batch, 3, a.height, a.width, device=device).contiguous(memory_format=memory_format)
    y = torch.randint(0, a.classes, (a.batch, a.height, a.width), device=device)
    y[:, :8] = 255
    weights = torch.rand(a.classes, device=device) + 0.5
    model.train()

    def step():
        opt.zero_grad()
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=a.amp == "bf16"):
            logits = model(x)
        loss = loss_fn(logits, y, weights)
        loss.backward()
        opt.step()
        return loss.item()

    for _ in range(a.warmup):
        step()
    start = time.perf_counter()
    if a.profile:
        with torch.profiler.profile() as prof:
            for _ in range(a.iterations):
                step()
        # The GPU column is "device_time_total" from PyTorch 2.4 on, "cuda_time_total" before.
        keys = ["device_time_total", "cuda_time_total"] if device.type == "cuda" else ["cpu_time_total"]
        for key in keys:
            try:
                print(prof.key_averages().table(sort_by=key, row_limit=18, max_name_column_width=48))
                break
            except (AttributeError, KeyError, ValueError):
                continue
    else:
        for _ in range(a.iterations):
            step()
    seconds = time.perf_counter() - start
    print(f"images_per_s {a.batch * a.iterations / seconds:.4f} threads {torch.get_num_threads()} torch {torch.__version__}")


if __name__ == "__main__":
    main()
