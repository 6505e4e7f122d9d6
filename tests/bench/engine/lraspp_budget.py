#!/usr/bin/env python3
"""What a PyTorch user would train instead of SegStudio's default, for the same minutes (issue 25):
torchvision's LRASPP-MobileNetV3-Large from scratch, on the packs camvid_budget.sh makes, with the
engine's recipe (random crops, x-reflection, +-10 px translation, AdamW 5e-3 with weight decay 1e-2,
linear warm-up then cosine to 0, square-root median-frequency class weights, batch 8) laid over a
wall-clock budget the way `train --time-budget` lays it: the schedule runs on elapsed time, training
stops when what is left is one validation pass, then the model is scored on the val pack at the
full 360x480 (global accuracy, mean IoU over the classes present, as `segstudio-train evaluate`).
A second pass, outside the budget, scores the same model with the class-prior correction that
SegStudio's evaluate applies (-0.5 ln w_c added to the logits, w the training class weights), so the
two models can also be compared like for like.

    apt-get install python3-torch python3-torchvision    # Debian's CPU builds
    tests/bench/engine/lraspp_budget.py --budget 30m --threads 2 \\
        /tmp/segstudio-camvid/train.pack /tmp/segstudio-camvid/val.pack
"""
import argparse
import math
import re
import struct
import time

import numpy as np
import torch
import torch.nn.functional as F
from torchvision.models.segmentation import lraspp_mobilenet_v3_large

from pack_header import read_header

UNLABELLED = 255
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def read_pack(path):
    """core/pack's layout (PackFormat.h): a 56-byte header, 64-byte class records, then every image
    (HWC uint8 RGB) and every label map (HW uint8, 255 = unlabelled), each block contiguous."""
    header_bytes, h, w, c, classes, count = read_header(path)
    with open(path, "rb") as f:
        data = f.read()
    names, pixels, image_pixels = [], [], []
    for k in range(classes):
        name, count_k, image_k = struct.unpack_from("<48sQQ", data, 56 + 64 * k)
        names.append(name.split(b"\0")[0].decode())
        pixels.append(count_k)
        image_pixels.append(image_k)
    images = np.frombuffer(data, np.uint8, count * h * w * c, header_bytes).reshape(count, h, w, c)
    labels = np.frombuffer(data, np.uint8, count * h * w, header_bytes + count * h * w * c).reshape(count, h, w)
    return names, np.array(pixels, float), np.array(image_pixels, float), images, labels


def sqrt_median_weights(pixels, image_pixels):
    present = (pixels > 0) & (image_pixels > 0)
    freq = np.where(present, pixels / np.maximum(image_pixels, 1), 0)
    median = np.median(freq[present])
    weights = np.where(present, np.sqrt(median / np.maximum(freq, 1e-12)), 0)
    return torch.tensor(weights, dtype=torch.float32)


def normalise(images_uint8):
    x = torch.from_numpy(np.array(images_uint8))  # a copy: the pack's bytes are read-only
    x = x.permute(0, 3, 1, 2).float().div_(255)
    return (x - MEAN) / STD


def augmented_batch(images, labels, rng, batch, crop_h, crop_w, translate):
    """Flip, +-translate px shift (uncovered pixels unlabelled), then a random crop, per sample."""
    picks = rng.choice(len(images), batch, replace=False)
    h, w = labels.shape[1:]
    xs, ys = [], []
    for i in picks:
        img, lab = images[i], labels[i]
        if rng.random() < 0.5:
            img, lab = img[:, ::-1], lab[:, ::-1]
        dy, dx = rng.integers(-translate, translate + 1, 2)
        shifted_img = np.zeros_like(img)
        shifted_lab = np.full_like(lab, UNLABELLED)
        src = (slice(max(0, -dy), h - max(0, dy)), slice(max(0, -dx), w - max(0, dx)))
        dst = (slice(max(0, dy), h - max(0, -dy)), slice(max(0, dx), w - max(0, -dx)))
        shifted_img[dst] = img[src]
        shifted_lab[dst] = lab[src]
        top, left = rng.integers(0, h - crop_h + 1), rng.integers(0, w - crop_w + 1)
        xs.append(shifted_img[top:top + crop_h, left:left + crop_w])
        ys.append(shifted_lab[top:top + crop_h, left:left + crop_w])
    return normalise(np.stack(xs)), torch.from_numpy(np.stack(ys).astype(np.int64))


def evaluate(model, images, labels, classes, batch=4, offset=None):
    model.eval()
    confusion = torch.zeros(classes, classes, dtype=torch.int64)
    with torch.no_grad():
        for start in range(0, len(images), batch):
            logits = model(normalise(images[start:start + batch]))["out"]
            if offset is not None:
                logits = logits + offset.view(1, -1, 1, 1)
            predicted = logits.argmax(1).flatten()
            truth = torch.from_numpy(labels[start:start + batch].astype(np.int64)).flatten()
            valid = truth != UNLABELLED
            confusion += torch.bincount(truth[valid] * classes + predicted[valid],
                                        minlength=classes * classes).view(classes, classes)
    model.train()
    confusion = confusion.double()
    true_pixels, predicted_pixels, hits = confusion.sum(1), confusion.sum(0), confusion.diag()
    present = true_pixels > 0
    iou = hits / (true_pixels + predicted_pixels - hits).clamp_min(1)
    return (hits.sum() / confusion.sum()).item(), iou[present].mean().item(), iou


def seconds(text):
    parts = re.findall(r"(\d+(?:\.\d+)?)([smh])", text)
    if not parts or "".join(a + b for a, b in parts) != text:
        raise argparse.ArgumentTypeError(f"'{text}' is not a duration such as 90s, 30m, 2h or 1h30m")
    return sum(float(a) * {"s": 1, "m": 60, "h": 3600}[b] for a, b in parts)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("train_pack")
    p.add_argument("val_pack")
    p.add_argument("--budget", type=seconds, default=seconds("30m"))
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--crop", type=int, nargs=2, default=[180, 240])
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--weight-decay", type=float, default=1e-2)
    p.add_argument("--translate", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)

    names, pixels, image_pixels, train_images, train_labels = read_pack(a.train_pack)
    _, _, _, val_images, val_labels = read_pack(a.val_pack)
    classes = len(names)
    weights = sqrt_median_weights(pixels, image_pixels)
    model = lraspp_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=classes)
    optimiser = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=a.weight_decay)
    print(f"LRASPP-MobileNetV3-Large, {sum(t.numel() for t in model.parameters()) / 1e6:.2f} M parameters, "
          f"{classes} classes, {len(train_images)} train / {len(val_images)} val images, budget {a.budget:.0f} s, "
          f"{torch.get_num_threads()} threads, torch {torch.__version__}", flush=True)

    # One timed validation pass of a few images tells how much of the budget the final one needs.
    started = time.perf_counter()
    probe = min(8, len(val_images))
    evaluate(model, val_images[:probe], val_labels[:probe], classes)
    validation_seconds = (time.perf_counter() - started) * len(val_images) / probe
    train_seconds = a.budget - (time.perf_counter() - started) - 1.1 * validation_seconds
    warmup = 0.03 * train_seconds  # the engine's warm-up is a tenth of the run, at most 100 steps

    started = time.perf_counter()
    step, loss_sum, mark = 0, 0.0, 0.0
    while (elapsed := time.perf_counter() - started) < train_seconds:
        progress = elapsed / train_seconds
        lr = a.lr * (elapsed / warmup if elapsed < warmup else 0.5 * (1 + math.cos(math.pi * progress)))
        for group in optimiser.param_groups:
            group["lr"] = lr
        x, y = augmented_batch(train_images, train_labels, rng, a.batch, *a.crop, a.translate)
        loss = F.cross_entropy(model(x)["out"], y, weight=weights, ignore_index=UNLABELLED)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        step += 1
        loss_sum += loss.item()
        if step % 50 == 0:
            now = time.perf_counter() - started
            print(f"step {step}  {now:.0f} s  loss {loss_sum / 50:.4f}  lr {lr:.2e}  {50 * a.batch / (now - mark):.1f} img/s",
                  flush=True)
            mark, loss_sum = now, 0.0
    global_accuracy, mean_iou, iou = evaluate(model, val_images, val_labels, classes)
    total = time.perf_counter() - started
    print(f"{step} steps ({step * a.batch / len(train_images):.1f} epochs); val global acc {global_accuracy:.4f}  "
          f"mIoU {mean_iou:.4f}; {total:.0f} s training + validation of {a.budget:.0f} s")
    print("per class IoU: " + ", ".join(f"{n} {v:.3f}" for n, v in zip(names, iou.tolist())))
    # SegStudio's ClassPriorCorrection: strength 0.5, no offset for a class of weight 0.
    offset = torch.where(weights > 0, -0.5 * torch.log(weights.clamp_min(1e-12)), torch.zeros_like(weights))
    global_accuracy, mean_iou, iou = evaluate(model, val_images, val_labels, classes, offset=offset)
    print(f"with the class-prior correction (outside the budget): val global acc {global_accuracy:.4f}  mIoU {mean_iou:.4f}")
    print("per class IoU: " + ", ".join(f"{n} {v:.3f}" for n, v in zip(names, iou.tolist())))


if __name__ == "__main__":
    main()
