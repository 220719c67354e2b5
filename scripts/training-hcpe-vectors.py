#!/usr/bin/env python3
"""Writes fixtures/training/hcpe-corpus.tsv: the HCPE entries that cshogi,
with dlshogi's csa_to_hcpe logic, makes of every corpus CSA file with `'**`
evaluations, for kifconv's bit-exact test; with --psv, the
PackedSfenValue entries of the same positions (PackedSfen, the same score,
YaneuraOu's Move16, the position's move number as gamePly, the result from
the side to move: +1 won, -1 lost, 0 draw).

    scripts/training-hcpe-vectors.py > fixtures/training/hcpe-corpus.tsv
    scripts/training-hcpe-vectors.py --psv > fixtures/training/psv-corpus.tsv
    scripts/training-hcpe-vectors.py --hcpe3 > fixtures/training/hcpe3-corpus.tsv

With --hcpe3, each game's hcpe3 block as dlshogi's csa_to_hcpe3 writes it
with its filters off and --out_mate (no cut at a mate score): the header
(the start's HCP, the move count, the result with 4 added for
%SENNICHITE, 8 for %KACHI, 16 for %JISHOGI, opponent 0), then per move
its move16, the same score, one candidate: the move with one visit.

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

args = [a for a in sys.argv[1:] if a not in ("--psv", "--hcpe3")]
psv = "--psv" in sys.argv[1:]
hcpe3 = "--hcpe3" in sys.argv[1:]

# dlshogi's hcpe3 layout, as numpy dtypes.
HCPE3_HEADER = np.dtype([("hcp", cshogi.dtypeHcp), ("moveNum", np.uint16),
                         ("result", np.uint8), ("opponent", np.uint8)])
MOVE_INFO = np.dtype([("selectedMove16", cshogi.dtypeMove16), ("eval", cshogi.dtypeEval),
                      ("candidateNum", np.uint16)])
MOVE_VISITS = np.dtype([("move16", cshogi.dtypeMove16), ("visitNum", np.uint16)])
FLAGS = {"%SENNICHITE": 4, "%KACHI": 8, "%JISHOGI": 16}


def hcpe3_block(kif):
    """One game's hcpe3 block, as bytes."""
    board = cshogi.Board(kif.sfen)
    header = np.zeros(1, HCPE3_HEADER)
    board.to_hcp(header[0]["hcp"])
    header[0]["moveNum"] = len(kif.moves)
    header[0]["result"] = kif.win + FLAGS.get(kif.endgame, 0)
    out = header.tobytes()
    for move, score in zip(kif.moves, kif.scores):
        score = min(32767, max(score, -32767))
        info = np.zeros(1, MOVE_INFO)
        info[0]["selectedMove16"] = cshogi.move16(move)
        info[0]["eval"] = score if board.turn == cshogi.BLACK else -score
        info[0]["candidateNum"] = 1
        visits = np.zeros(1, MOVE_VISITS)
        visits[0]["move16"] = cshogi.move16(move)
        visits[0]["visitNum"] = 1
        out += info.tobytes() + visits.tobytes()
        board.push(move)
    return out


corpus = args[0] if args else "../shared/corpus"
files = []
for root, _, names in os.walk(corpus):
    for name in names:
        path = os.path.join(root, name)
        if name.endswith(".csa"):
            with open(path, "rb") as f:
                if b"\n'** " in f.read():
                    files.append(path)
kind = "hcpe3 block" if hcpe3 else "PackedSfenValue" if psv else "hcpe"
print(f"# file\tgame\t{kind} entries (hex), by cshogi with dlshogi's csa_to_hcpe logic")
for path in sorted(files):
    for g, kif in enumerate(CSA.Parser.parse_file(path)):
        if hcpe3:
            print(f"{os.path.relpath(path, corpus)}\t{g}\t{hcpe3_block(kif).hex()}")
            continue
        board = cshogi.Board(kif.sfen)
        dtype = cshogi.PackedSfenValue if psv else cshogi.HuffmanCodedPosAndEval
        entries = np.zeros(len(kif.moves), dtype)
        for i, (move, score) in enumerate(zip(kif.moves, kif.scores)):
            score = min(32767, max(score, -32767))
            score = score if board.turn == cshogi.BLACK else -score
            if psv:
                board.to_psfen(entries[i]["sfen"])
                entries[i]["score"] = score
                entries[i]["move"] = cshogi.move16_to_psv(cshogi.move16(move))
                entries[i]["gamePly"] = board.move_number
                winner = {1: cshogi.BLACK, 2: cshogi.WHITE}.get(kif.win)
                entries[i]["game_result"] = 0 if winner is None else (1 if winner == board.turn else -1)
            else:
                board.to_hcp(entries[i]["hcp"])
                entries[i]["eval"] = score
                entries[i]["bestMove16"] = cshogi.move16(move)
                entries[i]["gameResult"] = kif.win
            board.push(move)
        print(f"{os.path.relpath(path, corpus)}\t{g}\t{entries.tobytes().hex()}")
