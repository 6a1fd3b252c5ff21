#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a PGS (Blu-ray) subtitle stream, a .sup file, by hand: FFmpeg can
decode PGS but has no encoder for it. Each subtitle is a white box with a red
border shown from START to END (seconds) on a WxH canvas.

usage: make_pgs.py OUT.sup W H START:END [START:END ...]
"""
import struct
import sys


def segment(pts, kind, payload):
    return b"PG" + struct.pack(">IIBH", int(round(pts * 90000)), 0, kind, len(payload)) + payload


def rle_line(colors):
    """One line, run-length coded as PGS does: 00 (len) for colour 0, 00 (len) c otherwise."""
    out = bytearray()
    i = 0
    while i < len(colors):
        c = colors[i]
        n = 1
        while i + n < len(colors) and colors[i + n] == c and n < 16383:
            n += 1
        if c != 0 and n == 1:
            out.append(c)
        elif c == 0:
            out += bytes([0, n]) if n < 64 else bytes([0, 0x40 | (n >> 8), n & 0xFF])
        else:
            out += bytes([0, 0x80 | n, c]) if n < 64 else bytes([0, 0xC0 | (n >> 8), n & 0xFF, c])
        i += n
    return bytes(out) + b"\x00\x00"


def box(w, h):
    rows = []
    for y in range(h):
        if y < 4 or y >= h - 4:
            rows.append([2] * w)
        else:
            rows.append([2] * 4 + [1] * (w - 8) + [2] * 4)
    return b"".join(rle_line(r) for r in rows)


def display_set(t, width, height, number, show):
    bw, bh = width // 3, height // 9
    x, y = (width - bw) // 2, height - bh - height // 12
    out = bytearray()
    if show:
        pcs = struct.pack(">HHBHBBBB", width, height, 0x10, number, 0x80, 0, 0, 1) + struct.pack(">HBBHH", 0, 0, 0, x, y)
    else:
        pcs = struct.pack(">HHBHBBBB", width, height, 0x10, number, 0x00, 0, 0, 0)
    out += segment(t, 0x16, pcs)
    out += segment(t, 0x17, struct.pack(">B", 1) + struct.pack(">BHHHH", 0, x, y, bw, bh))
    if show:
        # Palette: 1 white, 2 red (Y, Cr, Cb, alpha).
        pds = struct.pack(">BB", 0, 0) + struct.pack(">BBBBB", 1, 235, 128, 128, 255) + struct.pack(">BBBBB", 2, 81, 240, 90, 255)
        out += segment(t, 0x14, pds)
        data = box(bw, bh)
        ods = struct.pack(">HBB", 0, 0, 0xC0) + (len(data) + 4).to_bytes(3, "big") + struct.pack(">HH", bw, bh) + data
        out += segment(t, 0x15, ods)
    out += segment(t, 0x80, b"")
    return bytes(out)


def main():
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    # An empty display set at zero, so the stream starts at zero as the video does.
    out = bytearray(display_set(0, width, height, 0, False))
    number = 1
    for span in sys.argv[4:]:
        start, end = (float(v) for v in span.split(":"))
        out += display_set(start, width, height, number, True)
        out += display_set(end, width, height, number + 1, False)
        number += 2
    with open(path, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
