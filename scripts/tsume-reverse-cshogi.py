#!/usr/bin/env python3
"""Writes cshogi's answers for the problems `kifconv tsume generate
--method reverse --seed 1` makes: fixtures/tsume/reverse-cshogi.tsv for the
problems grown from random mates (20 of 5 plies, 10 of 7), and, given the
bench CSA archive, fixtures/tsume/reverse-games-cshogi.tsv for those grown
`--from` the mates of its first 60 games that end in %TSUMI (10 of 5
plies, 5 of 7), the games tests/it/tsume_reverse.rs picks.

Run with the peers python (cshogi installed), from the checkout, after a
build:

    /root/.cache/kifconv-peers/venv/bin/python3 scripts/tsume-reverse-cshogi.py \\
        target/debug/kifconv fixtures/tsume/reverse-cshogi.tsv
    /root/.cache/kifconv-peers/venv/bin/python3 scripts/tsume-reverse-cshogi.py \\
        target/debug/kifconv fixtures/tsume/reverse-games-cshogi.tsv \\
        ../shared/bench/csa.zip

Columns: sfen, length (plies), shorter (1 when Board.mate_move(length - 2)
finds a mate), mate (1 when Board.mate_move(length) finds one).
"""
import os
import subprocess
import sys
import tempfile
import zipfile

import cshogi

RANDOM_SETS = [(5, 20), (7, 10)]
GAME_SETS = [(5, 10), (7, 5)]
MATED_GAMES = 60


def bench_subset(bench, folder):
    """The first MATED_GAMES games of `bench` that end in %TSUMI, stored
    in a new archive in `folder`, in name order."""
    chosen = []
    with zipfile.ZipFile(bench) as archive:
        for name in archive.namelist():
            data = archive.read(name)
            if b"%TSUMI" in data:
                chosen.append((name, data))
            if len(chosen) == MATED_GAMES:
                break
    path = os.path.join(folder, "bench.zip")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as out:
        for name, data in sorted(chosen):
            out.writestr(name, data)
    return path


def main():
    kifconv, out_path = sys.argv[1], sys.argv[2]
    bench = sys.argv[3] if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory() as folder:
        more = ["--from", bench_subset(bench, folder)] if bench else []
        sets = GAME_SETS if bench else RANDOM_SETS
        rows = []
        for length, count in sets:
            sfens = subprocess.run(
                [kifconv, "tsume", "generate", "--moves", str(length), "--count", str(count),
                 "--seed", "1", "--method", "reverse", "--to", "sfen"] + more,
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
