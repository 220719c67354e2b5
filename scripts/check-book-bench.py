#!/usr/bin/env python3
"""Checks a flip-folded book of the bench games against an independent replay.

    scripts/check-book-bench.py KIFCONV [SHARED]

Builds `kifconv book build ../shared/bench/kif-sjis.zip --flip-fold
--max-ply 24` (with -j1 and -j2: the same bytes), then replays
games.usi with cshogi and rotates every white-to-move position and its
move itself (its own rotation of SFEN text and USI squares, not
kifconv's), counting each (position, move) of plies 1 to 24. The book
must hold exactly those entries: the same positions (black to move
only), the smallest ply of each, the same moves and counts, positions in
byte order of their SFEN and moves by count (descending; ties by the
move's text, values being all 0). Prints a line and exits 1 on the first
difference."""
import collections
import os
import subprocess
import sys
import tempfile

import cshogi

kifconv = sys.argv[1]
shared = sys.argv[2] if len(sys.argv) > 2 else "../shared"
bench = f"{shared}/bench"
MAX_PLY = 24


def rotate_sfen(sfen):
    """The SFEN (board, turn, hands; no ply) rotated 180°, colours swapped."""
    board, turn, hands = sfen.split(" ")[:3]
    rows = []
    for rank in board.split("/"):
        cells, i = [], 0
        while i < len(rank):
            c = rank[i]
            if c.isdigit():
                cells += ["1"] * int(c)
            elif c == "+":
                cells.append("+" + rank[i + 1])
                i += 1
            else:
                cells.append(c)
            i += 1
        rows.append([c.swapcase() if c != "1" else c for c in reversed(cells)])
    text = "/".join("".join(r) for r in reversed(rows))
    board = cshogi.Board(f"{text} {'w' if turn == 'b' else 'b'} {hands.swapcase() if hands != '-' else '-'} 1")
    return board.sfen().rsplit(" ", 1)[0]


def rotate_square(sq):
    return f"{10 - int(sq[0])}{chr(ord('a') + ord('i') - ord(sq[1]))}"


def rotate_move(usi):
    if usi[1] == "*":
        return usi[:2] + rotate_square(usi[2:4])
    return rotate_square(usi[0:2]) + rotate_square(usi[2:4]) + usi[4:]


expected = {}
with open(f"{bench}/games.usi") as f:
    for line in f:
        words = line.split()
        at = words.index("moves") if "moves" in words else len(words)
        start = " ".join(words[2:at]) if words[1] == "sfen" else cshogi.STARTING_SFEN
        board = cshogi.Board(start)
        for usi in words[at + 1:]:
            ply = board.move_number
            if ply > MAX_PLY:
                break
            key = board.sfen().rsplit(" ", 1)[0]
            move = usi
            if board.turn == cshogi.WHITE:
                key, move = rotate_sfen(key), rotate_move(usi)
            entry = expected.setdefault(key, [ply, collections.Counter()])
            entry[0] = min(entry[0], ply)
            entry[1][move] += 1
            board.push_usi(usi)

with tempfile.TemporaryDirectory() as tmp:
    books = []
    for jobs in (1, 2):
        path = os.path.join(tmp, f"j{jobs}.db")
        subprocess.run([kifconv, "book", "build", f"{bench}/kif-sjis.zip", "-o", path,
                        "--flip-fold", "--max-ply", str(MAX_PLY), "-j", str(jobs), "-q"], check=True)
        with open(path, "rb") as f:
            books.append(f.read())
    if books[0] != books[1]:
        print("DIFFERS: -j2 writes another book than -j1")
        sys.exit(1)
    lines = books[0].decode().splitlines()

if lines[0] != "#YANEURAOU-DB2016 1.00":
    print(f"DIFFERS: first line {lines[0]!r}")
    sys.exit(1)
got, order, key = {}, [], None
for line in lines[1:]:
    if line.startswith("sfen "):
        *fields, ply = line[5:].split(" ")
        key = " ".join(fields)
        order.append(key)
        got[key] = [int(ply), []]
    else:
        mv, ponder, value, depth, count = line.split(" ")
        got[key][1].append((mv, int(count)))
if order != sorted(order, key=lambda k: k.encode()):
    print("DIFFERS: positions are not in byte order")
    sys.exit(1)
if set(got) != set(expected):
    missing, extra = set(expected) - set(got), set(got) - set(expected)
    print(f"DIFFERS: {len(missing)} positions missing (e.g. {next(iter(missing), None)}), {len(extra)} extra (e.g. {next(iter(extra), None)})")
    sys.exit(1)
moves = 0
for key, (ply, counts) in expected.items():
    want = sorted(counts.items(), key=lambda mc: (-mc[1], mc[0]))
    if got[key] != [ply, want]:
        print(f"DIFFERS: {key}: book {got[key]} != replay {[ply, want]}")
        sys.exit(1)
    moves += len(want)
assert all(" b " in k for k in got)
print(f"book of {len(got)} positions and {moves} moves (plies 1-{MAX_PLY}, flip-folded): equal to the replay of games.usi, -j2 = -j1")
