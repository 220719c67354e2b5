#!/usr/bin/env bash
# Times CSA → HCPE: kifconv against the loop people write with cshogi,
# in one run, one thread each, on the same 10,000 bench CSA files.
#
#   scripts/bench-training.sh [--runs N] [--bench DIR]
#
# - kifconv: the whole process, `kifconv DIR --to hcpe -j 1 > file`.
# - cshogi: the whole process, a Python loop over the same files with
#   `CSA.Parser.parse_file` (cp932, as the files are), `Board.push` and `Board.to_hcp` into a numpy
#   HuffmanCodedPosAndEval array written to a file (dlshogi's csa_to_hcpe
#   with its filters off; the result of a %TSUMI game, which cshogi's
#   parser leaves at 0, set to the mating player as kifconv writes it).
# Prints the median of N runs of each, the ratio, and checks that both
# wrote the same bytes. Needs ../shared/tools/peers/setup.sh (cshogi).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=3
BENCH="$HERE/../shared/bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --bench) BENCH=$2; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--bench DIR]" >&2; exit 2 ;;
  esac
done
PY=${KIFCONV_PEERS_PYTHON:-/root/.cache/kifconv-peers/venv/bin/python3}
[ -x "$PY" ] || { echo "no cshogi python at $PY: run ../shared/tools/peers/setup.sh" >&2; exit 2; }
CACHE=${KIFCONV_BENCH_CACHE:-${TMPDIR:-/tmp}/kifconv-bench}
mkdir -p "$CACHE"
[ -d "$CACHE/csa" ] || (mkdir -p "$CACHE/csa" && cd "$CACHE/csa" && unzip -q "$BENCH/csa.zip")
(cd "$HERE" && cargo build --release --quiet)
KIFCONV="$HERE/target/release/kifconv"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

cat > "$OUT/loop.py" <<'PY'
import glob, os, sys
import numpy as np
import cshogi
from cshogi import CSA
files = sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.csa"), recursive=True))
board = cshogi.Board()
with open(sys.argv[2], "wb") as out:
    for path in files:
        for kif in CSA.Parser.parse_file(path, encoding="cp932"):
            board.set_sfen(kif.sfen)
            entries = np.zeros(len(kif.moves), cshogi.HuffmanCodedPosAndEval)
            for i, (move, score) in enumerate(zip(kif.moves, kif.scores)):
                board.to_hcp(entries[i]["hcp"])
                score = min(32767, max(score, -32767))
                entries[i]["eval"] = score if board.turn == cshogi.BLACK else -score
                entries[i]["bestMove16"] = cshogi.move16(move)
                board.push(move)
            # cshogi's parser gives no winner for %TSUMI (kif.win 0); the
            # player to move at the end is the one mated.
            win = kif.win
            if kif.endgame == "%TSUMI":
                win = cshogi.WHITE + 1 if board.turn == cshogi.BLACK else cshogi.BLACK + 1
            entries["gameResult"] = win
            entries.tofile(out)
PY

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    awk "BEGIN {print $end - $start}"
  done | median
}
k=$(timed sh -c "\"$KIFCONV\" \"$CACHE/csa\" --to hcpe -j 1 --quiet > \"$OUT/kifconv.hcpe\"")
c=$(timed "$PY" "$OUT/loop.py" "$CACHE/csa" "$OUT/cshogi.hcpe")
echo "kifconv: $k s; cshogi loop: $c s; kifconv is $(awk "BEGIN {printf \"%.1f\", $c / $k}")x as fast"
if cmp -s "$OUT/kifconv.hcpe" "$OUT/cshogi.hcpe"; then
  echo "same bytes: $(wc -c < "$OUT/kifconv.hcpe") B"
else
  echo "the two HCPE files differ" >&2
  exit 1
fi
