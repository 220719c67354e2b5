#!/usr/bin/env bash
# Times the training-data and book jobs against reading, and CSA → HCPE
# against cshogi, in one run, one thread each, on the same 10,000 bench
# CSA files.
#
#   scripts/bench-training.sh [--runs N] [--bench DIR]
#
# Each of N rounds runs every job once, back to back (the rounds' times go
# to standard error). Each time is the median of the N rounds, each ratio
# the median of the rounds' own ratios, so a machine whose speed drifts
# during the run skews no ratio; peak memory is the largest (GNU time's %M).
# - kifconv, whole process, `-j 1 --quiet`, standard output to a file:
#   `--to usi`, `--to hcpe`, `--to psv`, `--to sfen --all-plies` of the
#   folder; `kifconv OUT.hcpe --to psv` (the HCPE just written, read back);
#   `book build` of the folder with `--max-ply 40` in memory.
# - cshogi, whole process: a Python loop over the same files with
#   `CSA.Parser.parse_file` (cp932, as the files are), `Board.push` and
#   `Board.to_hcp` into a numpy HuffmanCodedPosAndEval array written to a
#   file (dlshogi's csa_to_hcpe with its filters off; the result of a
#   %TSUMI game, which cshogi's parser leaves at 0, set to the mating
#   player as kifconv writes it).
# - cshogi, inner loop (scripts/bench-training-inner.py): the decoded texts
#   in memory first, then only parse_str, set_sfen, to_hcp and push timed
#   inside Python.
# Both cshogi loops must write the same bytes as kifconv's HCPE. Then it
# prints the ratios issue #39's bars name, each with PASS or FAIL. It
# exits 1 if the bytes differ, 0 otherwise (a failed bar is only printed).
# Needs ../shared/tools/peers/setup.sh (cshogi).
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
CSA="$CACHE/csa"
(cd "$HERE" && cargo build --release --quiet)
KIFCONV="$HERE/target/release/kifconv"
INNER="$HERE/scripts/bench-training-inner.py"
# Outputs go to memory (/dev/shm) where there is one: the jobs write from
# 6 MB (USI) to 110 MB (every SFEN), and the disk's write-back of the large
# ones would be timed as theirs.
SCRATCH=${KIFCONV_BENCH_OUT:-/dev/shm}
[ -d "$SCRATCH" ] && [ -w "$SCRATCH" ] || SCRATCH=${TMPDIR:-/tmp}
OUT=$(mktemp -d -p "$SCRATCH")
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

# run NAME OUTPUT CMD...: one run of CMD, standard output to OUTPUT; adds
# "seconds peak_KiB" to $OUT/NAME.runs. The last round's OUTPUT is removed
# before the clock starts: the shell would otherwise free its pages while
# timed, which costs more the larger a job's output.
run() {
  local name=$1 output=$2 start end
  shift 2
  if [ -f "$output" ]; then rm -f "$output"; fi
  start=$(date +%s.%N)
  /usr/bin/time -f %M -o "$OUT/$name.mem" "$@" > "$output"
  end=$(date +%s.%N)
  echo "$(awk "BEGIN {print $end - $start}") $(cat "$OUT/$name.mem")" >> "$OUT/$name.runs"
}

# inner: one run of cshogi's inner loop, which times itself.
inner() {
  "$PY" "$INNER" "$CSA" "$OUT/inner.hcpe" | awk '{print $1, 0}' >> "$OUT/inner.runs"
}

# round: every job once.
round() {
  local k=(-j 1 --quiet)
  run usi "$OUT/kifconv.usi" "$KIFCONV" "$CSA" --to usi "${k[@]}"
  run hcpe "$OUT/kifconv.hcpe" "$KIFCONV" "$CSA" --to hcpe "${k[@]}"
  run psv "$OUT/kifconv.psv" "$KIFCONV" "$CSA" --to psv "${k[@]}"
  run sfen "$OUT/kifconv.sfen" "$KIFCONV" "$CSA" --to sfen --all-plies "${k[@]}"
  run hcpe2psv "$OUT/from-hcpe.psv" "$KIFCONV" "$OUT/kifconv.hcpe" --to psv "${k[@]}"
  # --memory far above the counts' size: the build never spills to disk.
  run book /dev/null "$KIFCONV" book build "$CSA" -o "$OUT/book.db" --force \
    --max-ply 40 --memory 100000 "${k[@]}"
  run cshogi /dev/null "$PY" "$OUT/loop.py" "$CSA" "$OUT/cshogi.hcpe"
  inner
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# secs NAME / peak NAME: the median time, the largest peak (KiB).
secs() { awk '{print $1}' "$OUT/$1.runs" | median; }
peak() { awk '{print $2}' "$OUT/$1.runs" | sort -g | tail -1; }
# ratio A B: the median over the rounds of A's time / B's time.
ratio() { paste "$OUT/$1.runs" "$OUT/$2.runs" | awk '{print $1 / $3}' | median; }

# same FILE: fails the run unless FILE is kifconv's HCPE byte for byte.
same() {
  if cmp -s "$OUT/kifconv.hcpe" "$1"; then
    echo "same bytes as kifconv's HCPE: $(basename "$1"), $(wc -c < "$1") B"
  else
    echo "$(basename "$1") differs from kifconv's HCPE" >&2
    exit 1
  fi
}

# bar LABEL VALUE OP LIMIT UNIT: one line, the value, the bar, PASS or FAIL.
bar() {
  awk -v l="$1" -v v="$2" -v op="$3" -v b="$4" -v u="$5" 'BEGIN {
    ok = (op == ">=") ? v >= b : (op == "<=") ? v <= b : v < b
    printf "%-40s %8.2f%s  (bar %s %s%s)  %s\n", l, v, u, op, b, u, ok ? "PASS" : "FAIL"
  }'
}

# One untimed pass first: the first round would otherwise time `--to usi`
# reading the 10,000 files from disk, not from the page cache, and that
# round's ratios against it would be off.
"$KIFCONV" "$CSA" --to usi -j 1 --quiet > /dev/null
for i in $(seq "$RUNS"); do
  round
  echo "round $i of $RUNS:$(for job in usi hcpe psv sfen hcpe2psv book cshogi inner; do
    printf ' %s %.3f' "$job" "$(tail -1 "$OUT/$job.runs" | cut -d' ' -f1)"; done) s" >&2
done

echo "10,000 bench CSA games, -j 1, median of $RUNS runs (peak memory: largest)"
for job in usi hcpe psv sfen hcpe2psv book cshogi; do
  printf '  %-9s %7.3f s  %8d KiB\n' "$job" "$(secs $job)" "$(peak $job)"
done
printf '  %-9s %7.3f s  (timed inside Python)\n' inner "$(secs inner)"
echo "  (usi: --to usi; hcpe/psv: --to hcpe/psv; sfen: --to sfen --all-plies;"
echo "   hcpe2psv: the .hcpe read back --to psv; book: book build --max-ply 40 in memory;"
echo "   cshogi: its whole-process loop; inner: its parse_str/set_sfen/to_hcp/push loop)"

printf 'kifconv --to hcpe: %.3f s; cshogi loop: %.3f s; kifconv is %.1fx as fast\n' \
  "$(secs hcpe)" "$(secs cshogi)" "$(ratio cshogi hcpe)"
same "$OUT/cshogi.hcpe"
same "$OUT/inner.hcpe"
# Every HCPE entry read back is one PSV entry.
[ $(($(wc -c < "$OUT/kifconv.hcpe") / 38)) -eq $(($(wc -c < "$OUT/from-hcpe.psv") / 40)) ] \
  || { echo "hcpe --to psv wrote a different number of entries" >&2; exit 1; }

echo "bars (issue #39):"
bar "HCPE speed / cshogi inner loop's" "$(ratio inner hcpe)" ">=" 5 x
bar "PSV speed / cshogi inner loop's" "$(ratio inner psv)" ">=" 5 x
bar "hcpe / usi (time)" "$(ratio hcpe usi)" "<=" 1.5 x
bar "sfen --all-plies / usi (time)" "$(ratio sfen usi)" "<=" 2.5 x
bar "hcpe->psv / csa->hcpe (time)" "$(ratio hcpe2psv hcpe)" "<=" 1.0 x
bar "hcpe->psv peak memory" "$(awk "BEGIN {print $(peak hcpe2psv) * 1024 / 1e6}")" "<" 32 " MB"
bar "book build --max-ply 40 / usi (time)" "$(ratio book usi)" "<=" 3 x
