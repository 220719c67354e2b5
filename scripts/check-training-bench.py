#!/usr/bin/env python3
"""Checks kifconv's training data of the 10,000 bench games against cshogi.

    scripts/check-training-bench.py KIFCONV [SHARED]

Runs KIFCONV on ../shared/bench/csa.zip with --to hcpe, --to psv and
--to hcpe3 (to standard output, one thread and two), then decodes every
entry with cshogi (Board.set_hcp / set_psfen, and dlshogi's numpy dtypes
for hcpe3) and compares it with what cshogi computes by replaying
games.usi: each position, the move played from it, the result and the
ply. The zip lists the games in game order, so entry order is game order.
Prints one line per format and exits 1 on the first difference, naming
the game, the move and the field.

Then reads the HCPE back: `KIFCONV bench.hcpe --to sfen` (a file, read a
run of entries at a time) must print one line an entry, each the position
cshogi's Board.set_hcp gives for it, with a peak resident memory (from
/usr/bin/time) under 64 MB.

Run with the python of the peers' venv (cshogi), after
../shared/tools/peers/setup.sh."""
import os
import subprocess
import sys
import tempfile

import cshogi
import numpy as np

kifconv = sys.argv[1]
shared = sys.argv[2] if len(sys.argv) > 2 else "../shared"
bench = f"{shared}/bench"

HCPE3_HEADER = np.dtype([("hcp", cshogi.dtypeHcp), ("moveNum", np.uint16),
                         ("result", np.uint8), ("opponent", np.uint8)])
MOVE_INFO = np.dtype([("selectedMove16", cshogi.dtypeMove16), ("eval", cshogi.dtypeEval),
                      ("candidateNum", np.uint16)])
MOVE_VISITS = np.dtype([("move16", cshogi.dtypeMove16), ("visitNum", np.uint16)])


def games():
    """Per game: the start SFEN, the USI moves and the winner (cshogi's
    colour), from games.usi and manifest.tsv."""
    ends = {}
    with open(f"{bench}/manifest.tsv") as f:
        next(f)
        for line in f:
            fields = line.rstrip("\n").split("\t")
            ends[int(fields[0])] = fields[3]
    with open(f"{bench}/games.usi") as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            at = words.index("moves") if "moves" in words else len(words)
            start = " ".join(words[2:at]) if words[1] == "sfen" else cshogi.STARTING_SFEN
            moves = words[at + 1:]
            board = cshogi.Board(start)
            for m in moves:
                board.push_usi(m)
            # TORYO and TSUMI: the side to move at the end lost.
            assert ends[n] in ("TORYO", "TSUMI")
            yield n, start, moves, cshogi.opponent(board.turn)


def run(target, jobs):
    out = subprocess.run([kifconv, f"{bench}/csa.zip", "--to", target, "-j", str(jobs)],
                         check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return out.stdout


def fail(what):
    print(f"DIFFERS: {what}")
    sys.exit(1)


def check_fixed(target, data, dtype):
    entries = np.frombuffer(data, dtype)
    board = cshogi.Board()
    i = 0
    for n, start, moves, winner in games():
        replay = cshogi.Board(start)
        for ply, usi in enumerate(moves):
            if i >= len(entries):
                fail(f"{target}: game {n} move {ply + 1}: no entry (only {len(entries)})")
            e = entries[i]
            move = replay.move_from_usi(usi)
            if target == "hcpe":
                board.set_hcp(e["hcp"])
                stored = e["bestMove16"]
                result = {cshogi.BLACK: 1, cshogi.WHITE: 2}[winner]
                fields = [("position", board.sfen().rsplit(" ", 1)[0], replay.sfen().rsplit(" ", 1)[0]),
                          ("move", stored, cshogi.move16(move)),
                          ("result", e["gameResult"], result)]
            else:
                board.set_psfen(e["sfen"])
                stored = e["move"]
                result = 1 if winner == replay.turn else -1
                fields = [("position", board.sfen().rsplit(" ", 1)[0], replay.sfen().rsplit(" ", 1)[0]),
                          ("move", stored, cshogi.move16_to_psv(cshogi.move16(move))),
                          ("ply", e["gamePly"], replay.move_number),
                          ("result", e["game_result"], result)]
            for name, got, want in fields:
                if got != want:
                    fail(f"{target}: game {n} move {ply + 1}: {name} {got} != {want}")
            replay.push(move)
            i += 1
    if i != len(entries):
        fail(f"{target}: {len(entries) - i} entries past the last game")
    return i


def check_hcpe3(data):
    at = 0
    board = cshogi.Board()
    positions = 0
    for n, start, moves, winner in games():
        header = np.frombuffer(data, HCPE3_HEADER, 1, at)[0]
        at += HCPE3_HEADER.itemsize
        board.set_hcp(header["hcp"])
        replay = cshogi.Board(start)
        if board.sfen().rsplit(" ", 1)[0] != replay.sfen().rsplit(" ", 1)[0]:
            fail(f"hcpe3: game {n}: start {board.sfen()} != {replay.sfen()}")
        result = {cshogi.BLACK: 1, cshogi.WHITE: 2}[winner]
        if (header["moveNum"], header["result"], header["opponent"]) != (len(moves), result, 0):
            fail(f"hcpe3: game {n}: header {header} != {len(moves)} moves, result {result}")
        for ply, usi in enumerate(moves):
            info = np.frombuffer(data, MOVE_INFO, 1, at)[0]
            at += MOVE_INFO.itemsize
            move = replay.move_from_usi(usi)
            if info["selectedMove16"] != cshogi.move16(move) or info["candidateNum"] != 1:
                fail(f"hcpe3: game {n} move {ply + 1}: {info}")
            visits = np.frombuffer(data, MOVE_VISITS, 1, at)[0]
            at += MOVE_VISITS.itemsize
            if visits["move16"] != cshogi.move16(move) or visits["visitNum"] != 1:
                fail(f"hcpe3: game {n} move {ply + 1}: candidate {visits}")
            replay.push(move)
            positions += 1
    if at != len(data):
        fail(f"hcpe3: {len(data) - at} bytes past the last game")
    return positions


for target in ("hcpe", "psv", "hcpe3"):
    data = run(target, 1)
    if run(target, 2) != data:
        fail(f"{target}: -j2 writes other bytes than -j1")
    if target == "hcpe3":
        positions = check_hcpe3(data)
    else:
        positions = check_fixed(target, data, cshogi.HuffmanCodedPosAndEval if target == "hcpe"
                                else cshogi.PackedSfenValue)
    print(f"{target}: 10,000 games, {positions} positions, {len(data)} bytes: all equal cshogi's replay of games.usi")


def check_read_back(data):
    """HCPE read back to SFEN: each line is set_hcp's position, and the
    peak memory stays under the bound whatever the file's size."""
    entries = np.frombuffer(data, cshogi.HuffmanCodedPosAndEval)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench.hcpe")
        with open(path, "wb") as f:
            f.write(data)
        rss = os.path.join(folder, "rss")
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss, kifconv, path,
                              "--to", "sfen", "-q"],
                             check=True, stdout=subprocess.PIPE).stdout.decode().splitlines()
        with open(rss) as f:
            kib = int(f.read().split()[-1])
    if len(out) != len(entries):
        fail(f"hcpe --to sfen: {len(out)} lines for {len(entries)} entries")
    board = cshogi.Board()
    for i, (line, e) in enumerate(zip(out, entries)):
        board.set_hcp(e["hcp"])
        if line != board.sfen():
            fail(f"hcpe --to sfen: entry {i}: {line} != set_hcp's {board.sfen()}")
    if kib >= 64 * 1000:
        fail(f"hcpe --to sfen: peak memory {kib} KiB, over 64 MB")
    print(f"hcpe --to sfen: {len(out)} lines, each set_hcp's position; peak memory {kib} KiB")


check_read_back(run("hcpe", 1))
