#!/usr/bin/env python3
"""png_check.py SHOT.png R,G,B[:MIN] ... - check that a screenshot is not blank
and holds at least MIN pixels (default 20) within 12 of each given colour.
Standard library only: decodes 8-bit RGB/RGBA non-interlaced PNGs (what
chromium writes). Exit 0 if every check passes, 1 otherwise, printing why."""
import collections
import itertools
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
    rows, prev = [], bytes(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if f == 1:
            line = unfilter_sub(line, bpp)
        elif f == 2:
            line = bytes([(x + u) & 255 for x, u in zip(line, prev)])
        elif f in (3, 4):
            line = unfilter_slow(f, line, prev, bpp)
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def unfilter_sub(line, bpp):
    out = bytearray(line)
    for c in range(bpp):
        out[c::bpp] = bytes(v & 255 for v in itertools.accumulate(line[c::bpp]))
    return bytes(out)


def unfilter_slow(f, line, prev, bpp):
    out = bytearray(line)
    for i in range(len(out)):
        a = out[i - bpp] if i >= bpp else 0
        b = prev[i]
        if f == 3:
            out[i] = (out[i] + (a + b) // 2) & 255
        else:
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            out[i] = (out[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return bytes(out)


def main():
    width, height, bpp, rows = decode(sys.argv[1])
    counts = collections.Counter()
    for line in rows:
        counts.update(zip(line[0::bpp], line[1::bpp], line[2::bpp]))
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
