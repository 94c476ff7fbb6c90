"""png_check.py FILE WIDTH HEIGHT - fail unless FILE is a WIDTH x HEIGHT
PNG (8-bit RGB or RGBA, not interlaced) that shows something: at least 16
distinct colours and at least 2% of its pixels away from the most common
colour (the background). Pure Python (zlib), no imaging library; used by
report_html_chromium.sh to tell a rendered page from a blank one."""
import struct
import sys
import zlib
from collections import Counter


def decode(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main(argv):
    width, height, bpp, rows = decode(argv[1])
    if (width, height) != (int(argv[2]), int(argv[3])):
        print(f"{argv[1]}: {width}x{height}, expected {argv[2]}x{argv[3]}", file=sys.stderr)
        return 1
    counts = Counter()
    for line in rows:
        counts.update(line[i:i + 3] for i in range(0, len(line), bpp))
    total = width * height
    background = counts.most_common(1)[0][1]
    ink = 1 - background / total
    print(f"{argv[1]}: {len(counts)} colours, {100 * ink:.1f}% of pixels off the background")
    if len(counts) < 16 or ink < 0.02:
        print(f"{argv[1]}: looks blank", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
