#!/usr/bin/env python3
"""Writes fixtures/training/hcpe-corpus.tsv: the HCPE entries that cshogi,
with dlshogi's csa_to_hcpe logic, makes of every corpus CSA file with `'**`
evaluations, for kifconv's bit-exact test.

    scripts/training-hcpe-vectors.py > fixtures/training/hcpe-corpus.tsv

Run with the python of the peers' venv (cshogi). The logic, per game: from
the start, for each move, the position's HCP, the `'**` score clamped to
±32767 and negated when white is to move, the move's move16 and the
parser's result; then the move is played. One line per game: the file
(relative to the corpus), the game's index in the file, and the entries
in hex, one after another."""
import os
import sys

import cshogi
import numpy as np
from cshogi import CSA

corpus = sys.argv[1] if len(sys.argv) > 1 else "../shared/corpus"
files = []
for root, _, names in os.walk(corpus):
    for name in names:
        path = os.path.join(root, name)
        if name.endswith(".csa"):
            with open(path, "rb") as f:
                if b"\n'** " in f.read():
                    files.append(path)
print("# file\tgame\thcpe entries (hex), by cshogi with dlshogi's csa_to_hcpe logic")
for path in sorted(files):
    for g, kif in enumerate(CSA.Parser.parse_file(path)):
        board = cshogi.Board(kif.sfen)
        entries = np.zeros(len(kif.moves), cshogi.HuffmanCodedPosAndEval)
        for i, (move, score) in enumerate(zip(kif.moves, kif.scores)):
            board.to_hcp(entries[i]["hcp"])
            score = min(32767, max(score, -32767))
            entries[i]["eval"] = score if board.turn == cshogi.BLACK else -score
            entries[i]["bestMove16"] = cshogi.move16(move)
            entries[i]["gameResult"] = kif.win
            board.push(move)
        print(f"{os.path.relpath(path, corpus)}\t{g}\t{entries.tobytes().hex()}")
