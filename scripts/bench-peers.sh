#!/usr/bin/env bash
# Times kifconv against the peer libraries and the floor on the same games,
# in one run, and prints moves per second and ratios.
#
#   scripts/bench-peers.sh [--runs N] [--scaling M] [--bench DIR]
#                          [--peers cshogi,pyshogi,tsshogi,jkf,rsshogi] [--no-training]
#                          [--base BIN]
#
# - kifconv: the whole process, one thread (-j 1), reading a folder of 10,000
#   files and writing USI to /dev/null.
# - the floor: the same files found, read and decoded (UTF-8/CP932) without
#   parsing (examples/floor.rs).
# - the peers: shared/tools/peers/bench.sh, parse only, timed inside their
#   own processes (which favours them).
# - for KIF, kifconv -j 2 too, and what the machine gives two independent
#   processes: two kifconv -j 1 at once, each on half of the folder's
#   top-level entries (the ceiling -j 2 can reach here: a host that lends
#   less than two whole cores holds both back alike). In every round these
#   three are timed M times more (--scaling, 5 by default), one after
#   another, each trio giving its own -j 2 / -j 1 and two / -j 1: one
#   sample of a ratio this noisy host moves by a quarter either way from one
#   second to the next, so these two ratios are medians of N x M trios, not
#   of N rounds.
# - N rounds per format, each timing the floor, kifconv and the peers once,
#   back to back; every ratio is the median of the rounds' own ratios (the
#   rounds themselves go to standard error).
# - the CSA folder packed as one solid 7z (made once in the cache folder with
#   examples/pack.rs, as scripts/bench-archives.sh does): kifconv reading the
#   archive, against the fastest CSA peer on the folder and against kifconv on
#   the folder.
# - CSA -> HCPE against cshogi's parse + to_hcp loop: scripts/bench-training.sh
#   (whole processes, one thread each; it checks both wrote the same bytes);
#   --no-training leaves it out.
# The three zips of the bench folder are extracted once into a cache folder:
# KIFCONV_BENCH_CACHE, or $TMPDIR/kifconv-bench. On a machine that gives its
# page cache back to the host (seen: under 600 MB cached with 23 GB free),
# whichever tool comes first in a round reads the files from disk, and one
# evicted mid-run waits on it: KIFCONV_BENCH_CACHE=/dev/shm/kifconv-bench
# keeps the files in memory for every tool alike. The file system the cache
# is on is printed first.
# - --base BIN: another kifconv binary (one built before a change), timed
#   next to this one in every round, on every folder, the two going first
#   in turn; each format then
#   has a row of this build's moves/s over BIN's (the median of the rounds'
#   ratios), by the wall clock and by CPU time (user and system, which a
#   busy host disturbs less). And the KIF folder in UTF-8 (`.kifu`, made once from the
#   CP932 one in the cache folder), timed in the same rounds as the CP932
#   one, by both builds: a row of UTF-8 moves/s over CP932 moves/s.
# Needs shared/tools/peers/setup.sh to have been run for the peers.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=3
SCALING=5
BENCH="$HERE/../shared/bench"
PEERS="cshogi,pyshogi,tsshogi,jkf,rsshogi"
TRAINING=1
BASE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --scaling) SCALING=$2; shift 2 ;;
    --bench) BENCH=$2; shift 2 ;;
    --peers) PEERS=$2; shift 2 ;;
    --no-training) TRAINING=0; shift ;;
    --base) BASE=$(realpath "$2"); shift 2 ;;
    *) echo "usage: $0 [--runs N] [--scaling M] [--bench DIR] [--peers LIST] [--no-training] [--base BIN]" >&2; exit 2 ;;
  esac
done
CACHE=${KIFCONV_BENCH_CACHE:-${TMPDIR:-/tmp}/kifconv-bench}
mkdir -p "$CACHE"
(cd "$HERE" && cargo build --release --quiet && cargo build --release --quiet --example floor)
KIFCONV="$HERE/target/release/kifconv"
FLOOR="$HERE/target/release/examples/floor"

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
calc() { awk "BEGIN {print $1}"; }
# Two kifconv -j 1 processes at once, on the first and second half of the
# sorted top-level entries of folder $1.
halves() {
  local entries=("$1"/*) n
  n=$(( ${#entries[@]} / 2 ))
  "$KIFCONV" "${entries[@]:0:n}" --to usi -j 1 -q &
  "$KIFCONV" "${entries[@]:n}" --to usi -j 1 -q &
  wait
}
# Wall seconds of a command, N times, median.
# both CMD...: one run of CMD, output to /dev/null; prints its wall-clock
# seconds and its CPU seconds (user and system, which a busy host disturbs
# less), to the millisecond.
both() {
  local TIMEFORMAT='%3R %3U %3S'
  { time "$@" > /dev/null 2>&1; } 2>&1 | awk '{print $1, $2 + $3}'
}

timed() {
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'
  done | median
}

MOVES=$(awk -F'\t' 'NR>1 {s+=$5} END {print s}' "$BENCH/manifest.tsv")
echo "files read from $CACHE ($(df --output=fstype "$CACHE" | tail -1))"
echo
printf '| format | tool | moves/s | vs fastest peer | vs floor |\n|---|---|---|---|---|\n'
for spec in kif:kif-sjis ki2:ki2-sjis csa:csa; do
  fmt=${spec%%:*}; zip=${spec#*:}
  dir="$CACHE/$zip"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir" && (cd "$dir" && unzip -q "$BENCH/$zip.zip")
  fi
  # N rounds, each timing the floor, kifconv and every peer once, back to
  # back: each ratio is taken within its round and the median of the
  # rounds' ratios printed, so a machine whose speed drifts during the run
  # (seen: a third either way) does not set one tool's slow minutes
  # against another's fast ones.
  : > "$CACHE/rounds-$fmt"
  : > "$CACHE/base-$fmt"
  [ "$fmt" != kif ] || : > "$CACHE/scaling-kif"
  for round in $(seq "$RUNS"); do
    floor_s=$(RUNS=1 timed "$FLOOR" "$dir")
    # With --base, the two builds take turns going first, round by round:
    # the one timed right after the floor would otherwise always meet the
    # machine in the same state.
    if [ -n "$BASE" ] && [ $((round % 2)) = 0 ]; then
      base_t=$(both "$BASE" "$dir" --to usi -j 1 -q)
      ours_t=$(both "$KIFCONV" "$dir" --to usi -j 1 -q)
    else
      ours_t=$(both "$KIFCONV" "$dir" --to usi -j 1 -q)
      [ -z "$BASE" ] || base_t=$(both "$BASE" "$dir" --to usi -j 1 -q)
    fi
    ours_s=${ours_t%% *}
    if [ -n "$BASE" ]; then
      # wall: ours, base; CPU: ours, base.
      echo "$ours_s ${base_t%% *} ${ours_t#* } ${base_t#* }" >> "$CACHE/base-$fmt"
    fi
    two_s=0; halves_s=0
    if [ "$fmt" = kif ]; then
      two_s=$(RUNS=1 timed "$KIFCONV" "$dir" --to usi -j 2 -q)
      halves_s=$(RUNS=1 timed halves "$dir")
      echo "$ours_s $two_s $halves_s" >> "$CACHE/scaling-kif"
      for _ in $(seq "$SCALING"); do
        echo "$(RUNS=1 timed "$KIFCONV" "$dir" --to usi -j 1 -q)" \
          "$(RUNS=1 timed "$KIFCONV" "$dir" --to usi -j 2 -q)" \
          "$(RUNS=1 timed halves "$dir")" >> "$CACHE/scaling-kif"
      done
    fi
    table=$("$HERE/../shared/tools/peers/bench.sh" --runs 1 --oracles "$PEERS" --format "$fmt" "$dir" 2>/dev/null || true)
    best=0; best_name=none; peers_line=""
    while IFS='|' read -r _ f peer _ _ _ _ _ mps _; do
      peer=$(echo "$peer" | xargs); mps=$(echo "$mps" | xargs)
      [[ "$mps" =~ ^[0-9]+$ ]] || continue
      peers_line="$peers_line $peer=$mps"
      if [ "$mps" -gt "$best" ]; then best=$mps; best_name=$peer; fi
    done <<< "$table"
    echo "$floor_s $ours_s $two_s $halves_s $best $best_name$peers_line" >> "$CACHE/rounds-$fmt"
  done
  # Per peer: the median of its rounds' moves/s.
  for peer in $(tr ' ' '\n' < "$CACHE/rounds-$fmt" | grep = | cut -d= -f1 | sort -u); do
    mps=$(tr ' ' '\n' < "$CACHE/rounds-$fmt" | grep "^$peer=" | cut -d= -f2 | median)
    printf '| %s | %s | %d | | |\n' "$fmt" "$peer" "$mps"
  done
  col() { awk -v c="$1" '{print $c}' "$CACHE/rounds-$fmt" | median; }
  floor_s=$(col 1); ours_s=$(col 2)
  ours=$(calc "$MOVES / $ours_s")
  floor=$(calc "$MOVES / $floor_s")
  best_name=$(awk '{print $6}' "$CACHE/rounds-$fmt" | sort | uniq -c | sort -rn | awk 'NR==1 {print $2}')
  vs_best=$(awk -v m="$MOVES" '{print m / $2 / $5}' "$CACHE/rounds-$fmt" | median)
  vs_floor=$(awk '{print 100 * $1 / $2}' "$CACHE/rounds-$fmt" | median)
  best=$(awk '{print $5}' "$CACHE/rounds-$fmt" | median)
  if [ "$fmt" = csa ]; then csa_best=$best; csa_best_name=$best_name; csa_ours_s=$ours_s; csa_floor=$floor; fi
  printf '| %s | floor (read + decode) | %.0f | | 1 |\n' "$fmt" "$floor"
  printf '| %s | **kifconv -j 1** | %.0f | %.1fx %s | %.0f%% |\n' "$fmt" "$ours" \
    "$vs_best" "$best_name" "$vs_floor"
  if [ "$fmt" = kif ]; then
    # -j 2 and the two halves: every trio of the rounds (-j 1, -j 2, two
    # halves, timed one after another).
    trios=$(wc -l < "$CACHE/scaling-kif")
    two_s=$(awk '{print $2}' "$CACHE/scaling-kif" | median)
    printf '| %s | kifconv -j 2 | %.0f | -j 2 / -j 1 = %.2fx (%d trios, %d at 1.8x or more) | |\n' "$fmt" \
      "$(calc "$MOVES / $two_s")" "$(awk '{print $1 / $2}' "$CACHE/scaling-kif" | median)" \
      "$trios" "$(awk '$1 / $2 >= 1.8' "$CACHE/scaling-kif" | wc -l)"
    halves_s=$(awk '{print $3}' "$CACHE/scaling-kif" | median)
    printf '| %s | two kifconv -j 1 at once, half the folder each | %.0f | two / -j 1 = %.2fx (the ceiling for -j 2) | |\n' "$fmt" \
      "$(calc "$MOVES / $halves_s")" "$(awk '{print $1 / $3}' "$CACHE/scaling-kif" | median)"
    echo "kif trios (-j 1 s, -j 2 s, two halves s):" >&2
    cat "$CACHE/scaling-kif" >&2
  fi
  if [ -n "$BASE" ]; then
    printf '| %s | kifconv -j 1 against --base | | %.3fx (%s); CPU time: %.3fx | |\n' "$fmt" \
      "$(awk '{print $2 / $1}' "$CACHE/base-$fmt" | median)" "$(basename "$BASE")" \
      "$(awk '{print $4 / $3}' "$CACHE/base-$fmt" | median)"
    echo "$fmt against --base (wall s: ours, base; CPU s: ours, base):" >&2
    cat "$CACHE/base-$fmt" >&2
  fi
  echo "$fmt rounds (floor s, kifconv s, -j 2 s, two halves s, fastest peer moves/s, its name, every peer):" >&2
  cat "$CACHE/rounds-$fmt" >&2
done

# UTF-8 KIF against CP932 KIF: the KIF folder transcoded once, each file
# named .kifu; both folders timed in the same rounds, by both builds.
if [ -n "$BASE" ]; then
  utf8="$CACHE/kifu-utf8"
  if [ ! -d "$utf8" ]; then
    python3 - "$CACHE/kif-sjis" "$utf8" <<'PY'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
for root, _, files in os.walk(src):
    for name in files:
        out = os.path.join(dst, os.path.relpath(root, src), name[:-4] + ".kifu")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(os.path.join(root, name), "rb") as f, open(out, "wb") as g:
            g.write(f.read().decode("cp932").encode("utf-8"))
PY
  fi
  : > "$CACHE/utf8-kif"
  for _ in $(seq "$RUNS"); do
    echo "$(RUNS=1 timed "$KIFCONV" "$CACHE/kif-sjis" --to usi -j 1 -q)" \
      "$(RUNS=1 timed "$KIFCONV" "$utf8" --to usi -j 1 -q)" \
      "$(RUNS=1 timed "$BASE" "$CACHE/kif-sjis" --to usi -j 1 -q)" \
      "$(RUNS=1 timed "$BASE" "$utf8" --to usi -j 1 -q)" >> "$CACHE/utf8-kif"
  done
  printf '| kifu (UTF-8) | kifconv -j 1, UTF-8 over CP932 | | %.3fx (--base: %.3fx) | |\n' \
    "$(awk '{print $1 / $2}' "$CACHE/utf8-kif" | median)" "$(awk '{print $3 / $4}' "$CACHE/utf8-kif" | median)"
  printf '| kifu (UTF-8) | kifconv -j 1 against --base | | %.3fx | |\n' \
    "$(awk '{print $4 / $2}' "$CACHE/utf8-kif" | median)"
  echo "kifu rounds (CP932 s, UTF-8 s, --base CP932 s, --base UTF-8 s):" >&2
  cat "$CACHE/utf8-kif" >&2
fi

# The CSA folder as one solid 7z archive, made once with the dev-dependency
# encoders (examples/pack.rs, also writing a tar.xz and a tar.zst).
SEVENZ="$CACHE/archives/csa.7z"
if [ ! -f "$SEVENZ" ]; then
  mkdir -p "$CACHE/archives"
  (cd "$HERE" && cargo build --release --quiet --example pack)
  "$HERE/target/release/examples/pack" "$CACHE/csa" "$CACHE/archives/csa" > /dev/null
fi
sevenz_s=$(timed "$KIFCONV" "$SEVENZ" --to usi -j 1 -q)
sevenz=$(calc "$MOVES / $sevenz_s")
printf '| csa | **kifconv -j 1, one solid 7z** | %.0f | %.1fx %s (on the folder) | %.0f%% of the folder floor; %.2fx kifconv on the folder |\n' \
  "$sevenz" "$(calc "$sevenz / $csa_best")" "$csa_best_name" "$(calc "100 * $sevenz / $csa_floor")" \
  "$(calc "$csa_ours_s / $sevenz_s")"

# CSA -> HCPE against cshogi's loop, by scripts/bench-training.sh.
if [ "$TRAINING" = 1 ]; then
  # Whole output first: `| head -1` would cut the script off at its second
  # line (SIGPIPE), which pipefail makes fatal.
  training=$("$HERE/scripts/bench-training.sh" --runs "$RUNS" --bench "$BENCH")
  line=$(echo "$training" | head -1)
  k=$(echo "$line" | sed -n 's/^kifconv: \([0-9.]*\) s; cshogi loop: \([0-9.]*\) s.*/\1/p')
  c=$(echo "$line" | sed -n 's/^kifconv: \([0-9.]*\) s; cshogi loop: \([0-9.]*\) s.*/\2/p')
  printf '| csa -> hcpe | cshogi loop (parse + to_hcp) | %.0f | | |\n' "$(calc "$MOVES / $c")"
  printf '| csa -> hcpe | **kifconv -j 1 --to hcpe** | %.0f | %.1fx cshogi loop | |\n' \
    "$(calc "$MOVES / $k")" "$(calc "$c / $k")"
fi
