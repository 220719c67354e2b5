#!/usr/bin/env python3
"""Writes a large, unsorted DB2016 book for `scripts/bench-book-sort.sh`:
every position of a given book (one kifconv built from the bench games)
with every legal move of it (cshogi lists them), as an engine-mined book
holds many moves per position; the positions in reverse order, so that
the book is sorted by nothing. Repeats the whole with the plies shifted
until the output reaches the size asked for (in MB)."""
import sys

import cshogi


def main():
    source, output, megabytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    positions = []
    with open(source) as f:
        for line in f:
            if line.startswith("sfen "):
                positions.append(line[5:].rsplit(" ", 1)[0])
    positions.reverse()
    board = cshogi.Board()
    limit = megabytes * 1_000_000
    written = 0
    rounds = 0
    with open(output, "w") as out:
        out.write("#YANEURAOU-DB2016 1.00\n")
        while written < limit:
            rounds += 1
            for i, sfen in enumerate(positions):
                board.set_sfen(sfen + " 1")
                lines = [f"sfen {sfen} {rounds}\n"]
                for n, move in enumerate(board.legal_moves):
                    usi = cshogi.move_to_usi(move)
                    lines.append(f"{usi} none {(i * 31 + n * 7) % 601 - 300} 0 {1 + n % 5}\n")
                text = "".join(lines)
                out.write(text)
                written += len(text)
                if written >= limit:
                    break
    print(f"{output}: {written} bytes, {rounds} rounds of {len(positions)} positions")


main()
