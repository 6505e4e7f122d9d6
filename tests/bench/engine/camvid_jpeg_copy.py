#!/usr/bin/env python3
"""A compact copy of a training pack for a machine the pack itself cannot reach.

A device call carries at most 64 MiB, and CamVid's 360x480 packs are 242 + 67 MB of raw pixels.
The labels must arrive exactly (they are the ground truth, and the pack's class statistics come
from them), so they travel as they are, gzipped inside a "skeleton": the pack with its image block
zeroed. The images travel as JPEG (quality 95, no chroma subsampling: ~62 KB a CamVid image, mean
absolute error ~1.1 grey levels, reported by `encode`). On the far side `decode` writes the raw
image block back and `pack_images_from_raw` (core/pack's writer) makes a checksummed pack of it:

  here:  camvid_jpeg_copy.py encode /tmp/segstudio-camvid/train.pack .gpu/packs/train
  there: camvid_jpeg_copy.py decode .gpu/packs/train /tmp/train.rgb
         pack_images_from_raw /tmp/train.skeleton.pack /tmp/train.rgb /tmp/train.pack

Needs numpy and Pillow (Debian: python3-numpy python3-pil; both on the GPU machines).
"""
import argparse
import gzip
import io
import os
import sys

import numpy as np
from PIL import Image

from pack_header import read_header


def psnr(mse):
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def encode(pack, out_dir, quality):
    header_bytes, height, width, channels, _, count = read_header(pack)
    if channels != 3:
        sys.exit(f"{pack}: {channels} channels, only RGB packs are copied")
    image_bytes = height * width * channels
    data = np.memmap(pack, dtype=np.uint8, mode="r")
    images = data[header_bytes:header_bytes + count * image_bytes].reshape(count, height, width, channels)
    os.makedirs(out_dir, exist_ok=True)
    total_bytes, abs_error, squared_error = 0, 0.0, 0.0
    for n in range(count):
        buffer = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(images[n])).save(buffer, "JPEG", quality=quality, subsampling=0)
        with open(os.path.join(out_dir, f"{n:05d}.jpg"), "wb") as f:
            f.write(buffer.getvalue())
        total_bytes += buffer.tell()
        decoded = np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")).astype(np.int16)
        difference = decoded - images[n].astype(np.int16)
        abs_error += np.abs(difference).mean()
        squared_error += (difference.astype(np.float64) ** 2).mean()
    # The skeleton: header and labels exactly, the image block zeroed (it compresses to nothing).
    with open(pack, "rb") as source, gzip.open(os.path.join(out_dir, "skeleton.pack.gz"), "wb", 6) as skeleton:
        skeleton.write(source.read(header_bytes))
        zeros = bytes(image_bytes)
        for _ in range(count):
            skeleton.write(zeros)
        source.seek(header_bytes + count * image_bytes)
        skeleton.write(source.read())
    skeleton_bytes = os.path.getsize(os.path.join(out_dir, "skeleton.pack.gz"))
    print(f"{pack}: {count} images {height}x{width} -> {out_dir}: JPEG q{quality} 4:4:4 "
          f"{total_bytes / 2**20:.1f} MiB ({total_bytes / count / 1024:.1f} KiB an image), "
          f"skeleton {skeleton_bytes / 2**20:.1f} MiB; mean absolute error "
          f"{abs_error / count:.3f} grey levels, PSNR {psnr(squared_error / count):.2f} dB")


def decode(copy_dir, raw_out, skeleton_out):
    names = sorted(name for name in os.listdir(copy_dir) if name.endswith(".jpg"))
    with gzip.open(os.path.join(copy_dir, "skeleton.pack.gz"), "rb") as source, open(skeleton_out, "wb") as out:
        while chunk := source.read(1 << 24):
            out.write(chunk)
    header_bytes, height, width, channels, _, count = read_header(skeleton_out)
    if len(names) != count:
        sys.exit(f"{copy_dir}: {len(names)} JPEG images, the skeleton holds {count} records")
    with open(raw_out, "wb") as out:
        for name in names:
            image = np.asarray(Image.open(os.path.join(copy_dir, name)).convert("RGB"))
            if image.shape != (height, width, channels):
                sys.exit(f"{os.path.join(copy_dir, name)}: {image.shape}, expected {(height, width, channels)}")
            out.write(image.tobytes())
    print(f"{copy_dir}: {count} images -> {raw_out}, skeleton -> {skeleton_out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    encode_parser = commands.add_parser("encode", help="pack -> folder of JPEGs + skeleton.pack.gz")
    encode_parser.add_argument("pack")
    encode_parser.add_argument("out_dir")
    encode_parser.add_argument("--quality", type=int, default=95)
    decode_parser = commands.add_parser("decode", help="folder -> raw image block + skeleton pack")
    decode_parser.add_argument("copy_dir")
    decode_parser.add_argument("raw_out")
    decode_parser.add_argument("--skeleton-out", help="default: RAW_OUT with .skeleton.pack")
    args = parser.parse_args()
    if args.command == "encode":
        encode(args.pack, args.out_dir, args.quality)
    else:
        skeleton = args.skeleton_out or os.path.splitext(args.raw_out)[0] + ".skeleton.pack"
        decode(args.copy_dir, args.raw_out, skeleton)


if __name__ == "__main__":
    main()
