#!/usr/bin/env python3
"""Writes fixtures/tsume/cshogi-mates.tsv: positions from the bench games
(the final position of each game and some plies before it) with cshogi's
answer to "does the side to move mate, and in how many plies?".

Run with the peers python (cshogi installed), from the checkout:

    /root/.cache/kifconv-peers/venv/bin/python3 scripts/tsume-cshogi-mates.py \
        ../shared/bench/games.usi fixtures/tsume/cshogi-mates.tsv

Columns: sfen, mate1 (cshogi's mate_move_in_1ply: 1 when it finds one),
mate3 (Board.mate_move(3): 1 when it finds one), dfpn7 (DfPn with depth 7:
the length of its principal variation, 0 when it finds no mate).

Positions where the side to move is in check or has no legal move are left
out (a mate problem's attacker is not in check). The choice is
deterministic: game i contributes the position `i % 7` plies before its
end, until 1,000 positions are collected.
"""
import sys

import cshogi


def main():
    games_path, out_path = sys.argv[1], sys.argv[2]
    wanted = 1000
    rows = []
    with open(games_path) as games:
        for i, line in enumerate(games):
            moves = line.split()[3:]  # position startpos moves ...
            back = i % 7
            if back > len(moves):
                continue
            board = cshogi.Board()
            for mv in moves[: len(moves) - back]:
                board.push_usi(mv)
            if board.is_check() or board.is_game_over():
                continue
            mate1 = 1 if board.mate_move_in_1ply() else 0
            mate3 = 1 if board.mate_move(3) else 0
            dfpn = cshogi.DfPn(7, 1_000_000)
            found = dfpn.search(board)
            dfpn7 = len(dfpn.get_pv(board)) if found else 0
            rows.append((board.sfen(), mate1, mate3, dfpn7))
            if len(rows) == wanted:
                break
    with open(out_path, "w") as out:
        out.write("# sfen\tmate1\tmate3\tdfpn7\n")
        for sfen, mate1, mate3, dfpn7 in rows:
            out.write(f"{sfen}\t{mate1}\t{mate3}\t{dfpn7}\n")
    counts = [sum(1 for r in rows if r[k]) for k in (1, 2, 3)]
    print(f"{len(rows)} positions; mate in 1: {counts[0]}, mate(3): {counts[1]}, dfpn 7: {counts[2]}")


if __name__ == "__main__":
    main()
