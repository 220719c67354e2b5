"""cshogi's inner CSA -> HCPE loop, timed without file reading.

    bench-training-inner.py FOLDER OUT.hcpe

Reads and decodes every .csa file of FOLDER (CP932) first, untimed. Then
times only CSA.Parser.parse_str, Board.set_sfen, Board.to_hcp into a
preallocated HuffmanCodedPosAndEval array and Board.push. Prints the timed
seconds. After timing it fills the other fields (eval, bestMove16,
gameResult) and writes the array, so the file can be compared with
kifconv's .hcpe byte for byte.
"""
import glob
import os
import sys
import time

import numpy as np
import cshogi
from cshogi import CSA


def read_texts(folder):
    """Every .csa file's decoded text, in path order (as kifconv reads them)."""
    paths = sorted(glob.glob(os.path.join(folder, "**", "*.csa"), recursive=True))
    texts = []
    for path in paths:
        with open(path, encoding="cp932") as f:
            texts.append(f.read())
    return texts


def count_positions(texts):
    """The number of entries to preallocate (one parse, untimed)."""
    return sum(len(kif.moves) for text in texts for kif in CSA.Parser.parse_str(text))


def inner_loop(texts, entries):
    """The timed loop. Returns the parsed games, for filling the rest later."""
    board = cshogi.Board()
    games = []
    i = 0
    for text in texts:
        for kif in CSA.Parser.parse_str(text):
            board.set_sfen(kif.sfen)
            for move in kif.moves:
                board.to_hcp(entries[i]["hcp"])
                board.push(move)
                i += 1
            games.append(kif)
    return games


def fill_rest(games, entries):
    """Eval, best move and result of each entry, as dlshogi's csa_to_hcpe sets them."""
    i = 0
    for kif in games:
        n = len(kif.moves)
        black_first = kif.sfen.split()[1] == "b"
        # The side to move alternates; eval is from its point of view.
        black_to_move = (np.arange(n) % 2 == 0) == black_first
        scores = np.clip(np.array(kif.scores[:n], dtype=np.int64), -32767, 32767)
        entries[i : i + n]["eval"] = np.where(black_to_move, scores, -scores)
        entries[i : i + n]["bestMove16"] = [cshogi.move16(m) for m in kif.moves]
        # cshogi's parser gives %TSUMI no winner; the side to move at the end is mated.
        win = kif.win
        if kif.endgame == "%TSUMI":
            black_at_end = (n % 2 == 0) == black_first
            win = cshogi.WHITE + 1 if black_at_end else cshogi.BLACK + 1
        entries[i : i + n]["gameResult"] = win
        i += n


def main(folder, out_path):
    texts = read_texts(folder)
    entries = np.zeros(count_positions(texts), cshogi.HuffmanCodedPosAndEval)
    start = time.perf_counter()
    games = inner_loop(texts, entries)
    elapsed = time.perf_counter() - start
    fill_rest(games, entries)
    entries.tofile(out_path)
    print(f"{elapsed:.4f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
