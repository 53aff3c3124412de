#!/usr/bin/env python3
"""png_check.py SHOT.png R,G,B[:MIN] ... - check that a screenshot is not blank
and holds at least MIN pixels (default 20) within 12 of each given colour.
Standard library only: decodes 8-bit RGB/RGBA non-interlaced PNGs (what
chromium writes). Exit 0 if every check passes, 1 otherwise, printing why."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError("unsupported PNG format")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    width, height, bpp, rows = decode(sys.argv[1])
    counts = {}
    for line in rows:
        for x in range(0, width * bpp, bpp):
            px = (line[x], line[x + 1], line[x + 2])
            counts[px] = counts.get(px, 0) + 1
    total = width * height
    white = counts.get((255, 255, 255), 0)
    ok = True
    if total - white < total // 50:
        print("blank screenshot: %d of %d pixels not white" % (total - white, total))
        ok = False
    for spec in sys.argv[2:]:
        rgb, _, minimum = spec.partition(":")
        want = [int(v) for v in rgb.split(",")]
        minimum = int(minimum or 20)
        n = sum(c for px, c in counts.items()
                if all(abs(px[k] - want[k]) <= 12 for k in range(3)))
        if n < minimum:
            print("colour %s: %d pixels, want at least %d" % (rgb, n, minimum))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
