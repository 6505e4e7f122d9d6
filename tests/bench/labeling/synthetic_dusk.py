#!/usr/bin/env python3
"""A tuning set with a shift of domain: CamVid frames of one sequence made to look like dusk.

The reporting set tp1 (0001TP) is filmed at dusk, where the 30-minute model is right on about
half of the pixels and clicks stall on objects whose outlines they could follow. No tuning set
had that shift, so nothing could be chosen for it without looking at tp1. This writes a copy of
the first N frames of a sequence (default 0006R0, the 1 Hz tuning sequence) darker (gamma),
dimmer, bluer and with sensor noise, their labels linked, in SegNet's layout, for
`bench_annotator --dataset OUT --predictions OUT-pred` (docs/LABELING.md, "r06d").

    synthetic_dusk.py OUT [--camvid DIR] [--sequence 0006R0] [--frames 8] [--gamma 1.8] [--gain 0.6]

Needs Python 3 with Pillow (Debian: python3-pil).
"""
import argparse
import os
import random
import sys

from PIL import Image, ImageChops

TINT = (0.85, 0.95, 1.15)  # red, green, blue: the evening's blue cast
NOISE_SIGMA = 3.0


def dusk(image: Image.Image, gamma: float, gain: float) -> Image.Image:
    bands = []
    for band, tint in zip(image.convert("RGB").split(), TINT):
        table = [min(255, round(255 * gain * tint * (v / 255) ** gamma)) for v in range(256)]
        noise = Image.effect_noise(image.size, NOISE_SIGMA)  # Gaussian about 128
        bands.append(ImageChops.add(band.point(table), noise, scale=1.0, offset=-128))
    return Image.merge("RGB", bands)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--camvid", default=os.path.join(os.path.dirname(__file__), "../../../../shared/datasets/camvid"))
    parser.add_argument("--sequence", default="0006R0")
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--gamma", type=float, default=1.8)
    parser.add_argument("--gain", type=float, default=0.6)
    args = parser.parse_args()

    camvid = os.path.abspath(args.camvid)
    listing = os.path.join(camvid, "train.txt")
    if not os.path.isfile(listing):
        print(f"synthetic_dusk: {listing}: not found (CamVid in SegNet's layout is needed)", file=sys.stderr)
        return 2
    with open(listing) as f:
        pairs = [line.split() for line in f if os.path.basename(line.split()[0]).startswith(args.sequence)]
    if not pairs:
        print(f"synthetic_dusk: {listing}: no frames of sequence {args.sequence}", file=sys.stderr)
        return 2
    random.seed(6)
    for folder in ("train", "trainannot"):
        os.makedirs(os.path.join(args.out, folder), exist_ok=True)
    written = []
    for image, truth in pairs[: args.frames]:
        dusk(Image.open(os.path.join(camvid, image)), args.gamma, args.gain).save(os.path.join(args.out, image))
        link = os.path.join(args.out, truth)
        if not os.path.lexists(link):
            os.symlink(os.path.join(camvid, truth), link)
        written.append(f"{image} {truth}\n")
    with open(os.path.join(args.out, "train.txt"), "w") as f:
        f.writelines(written)
    for name in ("val.txt", "test.txt"):
        open(os.path.join(args.out, name), "w").close()
    print(f"{len(written)} frames of {args.sequence} at dusk in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
