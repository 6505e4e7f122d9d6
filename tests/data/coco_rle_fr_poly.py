#!/usr/bin/env python3
"""pycocotools' rleFrPoly (cocodataset/cocoapi common/maskApi.c), ported line for line to Python
with C's conversions kept (int casts truncate towards zero, counts are 32-bit unsigned), for
test_ShapeRasterising: reads {"height": H, "width": W, "polygons": [[x1, y1, x2, y2, ...], ...]}
on stdin and prints the RLE counts of each polygon as a JSON list of lists (column-major runs,
zeros first), and with --strings pycocotools' compressed counts strings (rleToString) instead.
"""
import json
import math
import sys


def c_int(value):
    return int(value)  # (int) of a double: towards zero


def rle_fr_poly(xy, h, w):
    scale = 5.0
    k = len(xy) // 2
    # upsample and get discrete points densely along entire boundary
    x = [c_int(scale * xy[2 * j] + .5) for j in range(k)]
    x.append(x[0])
    y = [c_int(scale * xy[2 * j + 1] + .5) for j in range(k)]
    y.append(y[0])
    u, v = [], []
    for j in range(k):
        xs, xe, ys, ye = x[j], x[j + 1], y[j], y[j + 1]
        dx, dy = abs(xe - xs), abs(ys - ye)
        flip = (dx >= dy and xs > xe) or (dx < dy and ys > ye)
        if flip:
            xs, xe, ys, ye = xe, xs, ye, ys
        if dx >= dy:
            # C divides 0 by 0 for a repeated vertex; that point's v is never read
            s = (ye - ys) / dx if dx else 0.0
            for d in range(dx + 1):
                t = dx - d if flip else d
                u.append(t + xs)
                v.append(c_int(ys + s * t + .5))
        else:
            s = (xe - xs) / dy
            for d in range(dy + 1):
                t = dy - d if flip else d
                v.append(t + ys)
                u.append(c_int(xs + s * t + .5))
    # get points along y-boundary and downsample
    bx, by = [], []
    for j in range(1, len(u)):
        if u[j] != u[j - 1]:
            xd = float(u[j] if u[j] < u[j - 1] else u[j] - 1)
            xd = (xd + .5) / scale - .5
            if math.floor(xd) != xd or xd < 0 or xd > w - 1:
                continue
            yd = float(v[j] if v[j] < v[j - 1] else v[j - 1])
            yd = (yd + .5) / scale - .5
            if yd < 0:
                yd = 0
            elif yd > h:
                yd = h
            yd = math.ceil(yd)
            bx.append(int(xd))
            by.append(int(yd))
    # compute rle encoding given y-boundary points
    a = [(bx[j] * h + by[j]) & 0xFFFFFFFF for j in range(len(bx))]
    a.append((h * w) & 0xFFFFFFFF)
    a.sort()
    p = 0
    for j in range(len(a)):
        t = a[j]
        a[j] = (a[j] - p) & 0xFFFFFFFF
        p = t
    b = [a[0]]
    j = 1
    while j < len(a):
        if a[j] > 0:
            b.append(a[j])
            j += 1
        else:
            j += 1
            if j < len(a):
                b[-1] += a[j]
                j += 1
    return b


def rle_to_string(cnts):
    out = []
    for i, count in enumerate(cnts):
        x = count - cnts[i - 2] if i > 2 else count
        more = True
        while more:
            c = x & 0x1F
            x >>= 5
            more = x != -1 if c & 0x10 else x != 0
            if more:
                c |= 0x20
            out.append(chr(c + 48))
    return "".join(out)


def main():
    request = json.load(sys.stdin)
    runs = [rle_fr_poly(polygon, request["height"], request["width"]) for polygon in request["polygons"]]
    if "--strings" in sys.argv[1:]:
        print(json.dumps([rle_to_string(r) for r in runs]))
    else:
        print(json.dumps(runs))


if __name__ == "__main__":
    main()
