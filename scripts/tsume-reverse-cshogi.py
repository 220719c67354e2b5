#!/usr/bin/env python3
"""Writes fixtures/tsume/reverse-cshogi.tsv: the problems `kifconv tsume
generate --method reverse --seed 1` makes (20 of 5 plies, 10 of 7), each
with cshogi's answer to "is there a shorter mate?" and "is there a mate of
the problem's length?".

Run with the peers python (cshogi installed), from the checkout, after a
build:

    /root/.cache/kifconv-peers/venv/bin/python3 scripts/tsume-reverse-cshogi.py \
        target/debug/kifconv fixtures/tsume/reverse-cshogi.tsv

Columns: sfen, length (plies), shorter (1 when Board.mate_move(length - 2)
finds a mate), mate (1 when Board.mate_move(length) finds one).
"""
import subprocess
import sys

import cshogi

SETS = [(5, 20), (7, 10)]


def main():
    kifconv, out_path = sys.argv[1], sys.argv[2]
    rows = []
    for length, count in SETS:
        sfens = subprocess.run(
            [kifconv, "tsume", "generate", "--moves", str(length), "--count", str(count),
             "--seed", "1", "--method", "reverse", "--to", "sfen"],
            check=True, capture_output=True, text=True,
        ).stdout.split("\n")
        for sfen in filter(None, sfens):
            board = cshogi.Board(sfen)
            shorter = 1 if board.mate_move(length - 2) else 0
            mate = 1 if board.mate_move(length) else 0
            rows.append((sfen, length, shorter, mate))
    with open(out_path, "w") as out:
        out.write("# sfen\tlength\tshorter\tmate\n")
        for row in rows:
            out.write("\t".join(str(x) for x in row) + "\n")
    print(f"{len(rows)} problems; shorter mates: {sum(r[2] for r in rows)}; "
          f"mates at length: {sum(r[3] for r in rows)}")


if __name__ == "__main__":
    main()
