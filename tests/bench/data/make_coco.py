#!/usr/bin/env python3
"""A large COCO instances file for the import benchmark (docs/BENCHMARKS.md "Formats and ONNX").

make_coco.py OUT_DIR [IMAGES] [POLYGONS_PER_IMAGE]: writes OUT_DIR/instances.json with IMAGES
640x480 images (default 20000) and POLYGONS_PER_IMAGE polygon annotations each (default 10: 200,000
in all; 12-vertex stars and boxes of 80 categories) and OUT_DIR/images/, every image a hard link
to one real JPEG: the importer checks each image's header, so the files must be real, but it never
decodes them. Deterministic (seed 1). Needs python3-pil.
"""
import io, json, math, os, random, sys

from PIL import Image  # python3-pil


def jpeg_bytes():
    buffer = io.BytesIO()
    Image.new("RGB", (640, 480), (90, 120, 150)).save(buffer, "JPEG", quality=80)
    return buffer.getvalue()


def polygon(rng):
    cx, cy = rng.uniform(40, 600), rng.uniform(40, 440)
    r = rng.uniform(8, 38)
    points = []
    for k in range(12):
        a = 2 * math.pi * k / 12
        rk = r * (1.0 if k % 2 == 0 else 0.55)
        points += [round(cx + rk * math.cos(a), 2), round(cy + rk * math.sin(a), 2)]
    return points, math.pi * r * r * 0.6


def main():
    out = sys.argv[1]
    images = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    per_image = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    rng = random.Random(1)
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    master = os.path.join(out, "images", "master.jpg")
    with open(master, "wb") as f:
        f.write(jpeg_bytes())
    coco = {"images": [], "annotations": [], "categories": [{"id": c + 1, "name": "category%02d" % c} for c in range(80)]}
    for i in range(images):
        name = "%06d.jpg" % i
        path = os.path.join(out, "images", name)
        if not os.path.exists(path):
            os.link(master, path)
        coco["images"].append({"id": i + 1, "file_name": name, "width": 640, "height": 480})
        for _ in range(per_image):
            points, area = polygon(rng)
            coco["annotations"].append({"id": len(coco["annotations"]) + 1, "image_id": i + 1,
                                        "category_id": rng.randint(1, 80), "iscrowd": 0, "area": area,
                                        "segmentation": [points]})
    with open(os.path.join(out, "instances.json"), "w") as f:
        json.dump(coco, f)
    print("wrote %d images, %d polygons" % (images, len(coco["annotations"])))


if __name__ == "__main__":
    main()
