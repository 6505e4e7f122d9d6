#!/usr/bin/env python3
# A large RGB PNG for docs/BENCHMARKS.md ("Predicting a large image"), written row by row with
# zlib so that neither this script nor its machine needs the decoded image in memory:
#   python3 make_large_png.py 20000 big20000.png
# Vertical bands of 500 px in random colours, new colours every 2000 rows (seed 1).
import random
import struct
import sys
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)


def main():
    size, out = int(sys.argv[1]), sys.argv[2]
    random.seed(1)
    with open(out, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n')
        f.write(chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 2, 0, 0, 0)))
        compressor = zlib.compressobj(6)
        pending = bytearray()
        row = b''
        for y in range(size):
            if y % 2000 == 0:
                colours = [bytes(random.randrange(256) for _ in range(3)) for _ in range(size // 500 + 1)]
                row = b'\x00' + b''.join(colours[x // 500] for x in range(size))
            pending += compressor.compress(row)
            if len(pending) > (1 << 24):
                f.write(chunk(b'IDAT', bytes(pending)))
                pending = bytearray()
        pending += compressor.flush()
        f.write(chunk(b'IDAT', bytes(pending)))
        f.write(chunk(b'IEND', b''))


if __name__ == '__main__':
    main()
