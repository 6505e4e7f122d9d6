"""The header of a SegStudio training pack, for the benchmark scripts (core/pack/PackFormat.h: a
56-byte PackHeaderRecord, then numClasses 64-byte PackClassRecords, images and labels from
headerBytes on)."""
import os
import struct

HEADER = struct.Struct("<8sIIIIIIQQQ")  # magic, version, headerBytes, height, width, channels, classes, count, ...


def read_header(path):
    """(header_bytes, height, width, channels, classes, count); exits naming the file when it is
    not a pack or its size does not match its header."""
    with open(path, "rb") as f:
        magic, _version, header_bytes, height, width, channels, classes, count, _, _ = HEADER.unpack(f.read(HEADER.size))
    if magic != b"SSPACK01":
        raise SystemExit(f"{path}: not a SegStudio pack (bad magic)")
    expected = header_bytes + count * height * width * (channels + 1)
    if os.path.getsize(path) != expected:
        raise SystemExit(f"{path}: {os.path.getsize(path)} bytes, the header says {expected}")
    return header_bytes, height, width, channels, classes, count
