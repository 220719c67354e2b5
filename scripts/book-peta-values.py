#!/usr/bin/env python3
"""Fill a DB2016 book's move values deterministically, for peta-shock tests.

Each move's value becomes a hash of its position and move mapped into
-300..300: the first 8 bytes of SHA-256 over "<position> <move>" (the
position is the SFEN after `sfen ` without its move number), as an unsigned
big-endian integer, modulo 601, minus 300. Everything else is kept as it
is: comments, position lines, ponder, depth and count, line endings.

Usage: book-peta-values.py IN OUT   (OUT must not exist; `-` is stdout)
"""
import hashlib
import os
import sys


def value(position: str, move: str) -> int:
    digest = hashlib.sha256(f"{position} {move}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") % 601 - 300


def fill(lines):
    position = None
    for number, raw in enumerate(lines, 1):
        body = raw.rstrip(b"\r\n")
        end = raw[len(body):]
        text = body.decode("ascii")
        if text.startswith("sfen "):
            fields = text[5:].split()
            if len(fields) < 3:
                raise SystemExit(f"line {number}: expected `sfen <board> <turn> <hand> [ply]`: {text}")
            position = " ".join(fields[:3])
            yield raw
        elif text == "" or text.startswith("#") or text.startswith("//"):
            yield raw
        else:
            if position is None:
                raise SystemExit(f"line {number}: a move before any `sfen` line: {text}")
            fields = text.split()
            while len(fields) < 5:
                fields.append("none" if len(fields) == 1 else "0")
            fields[2] = str(value(position, fields[0]))
            yield " ".join(fields).encode("ascii") + end


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, "rb") as f:
        out = b"".join(fill(f.readlines()))
    if dst == "-":
        sys.stdout.buffer.write(out)
    else:
        if os.path.exists(dst):
            raise SystemExit(f"{dst} exists; refusing to replace it")
        with open(dst, "wb") as f:
            f.write(out)


if __name__ == "__main__":
    main()
