#!/usr/bin/env python3
"""Checks kifconv's generated mate problems with cshogi, independently.

    /root/.cache/kifconv-peers/venv/bin/python3 scripts/check-tsume.py target/release/kifconv

Generates 200 mates in one (--seed 1) and 50 mates in three (--seed 1),
reads each problem back through kifconv (KIF to a USI line), and has cshogi
confirm, by exhaustive search over its legal moves: the answer replays to
mate, every attacker move checking; no other first move mates (in one), or,
for three: no mate in one, and no other first move forces mate in three;
nothing is left in the attacker's hand at the end; all problems distinct;
the same seed gives the same files. Exit 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

import cshogi


def is_mate(board):
    return board.is_check() and len(list(board.legal_moves)) == 0


def mates_in_one(board):
    found = []
    for mv in list(board.legal_moves):
        board.push(mv)
        if is_mate(board):
            found.append(mv)
        board.pop()
    return found


def forces_mate_after(board):
    """The defender (to move) is mated at once or after every reply by a mate in one."""
    replies = list(board.legal_moves)
    if not replies:
        return board.is_check()
    for reply in replies:
        board.push(reply)
        ok = bool(mates_in_one(board))
        board.pop()
        if not ok:
            return False
    return True


def forcing_first_moves3(board):
    found = []
    for mv in list(board.legal_moves):
        board.push(mv)
        if board.is_check() and forces_mate_after(board):
            found.append(mv)
        board.pop()
    return found


def generate(kifconv, moves, count, out):
    subprocess.run(
        [kifconv, "tsume", "generate", "--moves", str(moves), "--count", str(count), "--seed", "1", "-o", out],
        check=True,
    )
    files = sorted(os.listdir(out))
    problems = []
    for name in files:
        line = subprocess.run(
            [kifconv, os.path.join(out, name), "--to", "usi", "-q"], check=True, capture_output=True, text=True
        ).stdout.strip()
        head, _, moves_text = line.partition(" moves ")
        sfen = head[len("position sfen "):]
        problems.append((name, sfen, moves_text.split()))
    return files, problems


def check(kifconv, moves, count, tmp):
    errors = []
    out = os.path.join(tmp, f"mate{moves}")
    files, problems = generate(kifconv, moves, count, out)
    if len(files) != count:
        errors.append(f"mate in {moves}: {len(files)} files, wanted {count}")
    again = os.path.join(tmp, f"mate{moves}-again")
    generate(kifconv, moves, count, again)
    for name in files:
        if open(os.path.join(out, name), "rb").read() != open(os.path.join(again, name), "rb").read():
            errors.append(f"{name}: not the same from the same seed")
    if len({sfen for _, sfen, _ in problems}) != len(problems):
        errors.append(f"mate in {moves}: problems repeat")
    for name, sfen, answer in problems:
        board = cshogi.Board(sfen)
        if len(answer) != moves:
            errors.append(f"{name}: answer of {len(answer)} plies")
            continue
        if moves == 1:
            firsts = mates_in_one(board)
        else:
            if mates_in_one(board):
                errors.append(f"{name}: a mate in one")
            firsts = forcing_first_moves3(board)
        usi = [cshogi.move_to_usi(m) for m in firsts]
        if usi != [answer[0]]:
            errors.append(f"{name}: first moves that mate: {usi}, answer {answer[0]}")
        for i, mv in enumerate(answer):
            board.push_usi(mv)
            if i % 2 == 0 and not board.is_check():
                errors.append(f"{name}: ply {i + 1} does not check")
        if not is_mate(board):
            errors.append(f"{name}: the answer does not mate")
        if sum(board.pieces_in_hand[cshogi.BLACK]):
            errors.append(f"{name}: pieces left in hand {board.pieces_in_hand[cshogi.BLACK]}")
    print(f"mate in {moves}: {len(problems)} problems checked, {len(errors)} errors")
    return errors


def main():
    kifconv = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        errors = check(kifconv, 1, 200, tmp) + check(kifconv, 3, 50, tmp)
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
