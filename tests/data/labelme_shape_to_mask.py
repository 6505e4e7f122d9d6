#!/usr/bin/env python3
"""Draws labelme JSON files as labelme2voc does, for test_ShapeRasterising.

Each shape goes through labelme's own shape_to_mask (labelme/utils/shape.py, copied below): a
mode-L PIL image, ImageDraw with outline=1 and fill=1, lines 10 px wide, points discs of radius 5.
Masks are painted in file order (shapes_to_label: a later shape over an earlier one) with the value
of the shape's label: its index in --classes, 255 for __ignore__. Pixels no shape covers keep
--background. Writes OUT/<json stem>.png (8-bit grey) and prints "PIL <version>".

    labelme_shape_to_mask.py --classes car,road --background 255 --out OUT a.json b.json
"""
import argparse
import json
import math
import pathlib

import numpy as np
import PIL
import PIL.Image
import PIL.ImageDraw


def shape_to_mask(img_shape, points, shape_type=None, line_width=10, point_size=5):
    mask = np.zeros(img_shape[:2], dtype=np.uint8)
    mask = PIL.Image.fromarray(mask)
    draw = PIL.ImageDraw.Draw(mask)
    xy = [tuple(point) for point in points]
    if shape_type == "circle":
        assert len(xy) == 2, "Shape of shape_type=circle must have 2 points"
        (cx, cy), (px, py) = xy
        d = math.sqrt((cx - px) ** 2 + (cy - py) ** 2)
        draw.ellipse([cx - d, cy - d, cx + d, cy + d], outline=1, fill=1)
    elif shape_type == "rectangle":
        assert len(xy) == 2, "Shape of shape_type=rectangle must have 2 points"
        draw.rectangle(xy, outline=1, fill=1)
    elif shape_type == "line":
        assert len(xy) == 2, "Shape of shape_type=line must have 2 points"
        draw.line(xy=xy, fill=1, width=line_width)
    elif shape_type == "linestrip":
        draw.line(xy=xy, fill=1, width=line_width)
    elif shape_type == "point":
        assert len(xy) == 1, "Shape of shape_type=point must have 1 points"
        cx, cy = xy[0]
        r = point_size
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=1, fill=1)
    else:
        assert len(xy) > 2, "Polygon must have points more than 2"
        draw.polygon(xy=xy, outline=1, fill=1)
    return np.array(mask, dtype=bool)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--classes", required=True, help="class names, comma-separated, in id order")
    parser.add_argument("--background", type=int, default=255)
    parser.add_argument("--out", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    value_of = {name: value for value, name in enumerate(args.classes.split(","))}
    value_of["__ignore__"] = 255
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.files:
        data = json.loads(pathlib.Path(name).read_text())
        labels = np.full((data["imageHeight"], data["imageWidth"]), args.background, dtype=np.uint8)
        for shape in data["shapes"]:
            mask = shape_to_mask(labels.shape, shape["points"], shape.get("shape_type"))
            labels[mask] = value_of[shape["label"]]
        PIL.Image.fromarray(labels).save(out / (pathlib.Path(name).stem + ".png"))
    print("PIL", PIL.__version__)


if __name__ == "__main__":
    main()
