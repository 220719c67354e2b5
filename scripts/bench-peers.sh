#!/usr/bin/env bash
# Times kifconv against the peer libraries and the floor on the same games,
# in one run, and prints moves per second and ratios.
#
#   scripts/bench-peers.sh [--runs N] [--bench DIR] [--peers cshogi,pyshogi,tsshogi,jkf,rsshogi]
#                          [--no-training]
#
# - kifconv: the whole process, one thread (-j 1), reading a folder of 10,000
#   files and writing USI to /dev/null; the median of N runs.
# - the floor: the same files found, read and decoded (UTF-8/CP932) without
#   parsing (examples/floor.rs); the median of N runs.
# - the peers: shared/tools/peers/bench.sh, parse only, timed inside their
#   own processes (which favours them); its median of N runs.
# - the CSA folder packed as one solid 7z (made once in the cache folder with
#   examples/pack.rs, as scripts/bench-archives.sh does): kifconv reading the
#   archive, against the fastest CSA peer on the folder and against kifconv on
#   the folder.
# - CSA -> HCPE against cshogi's parse + to_hcp loop: scripts/bench-training.sh
#   (whole processes, one thread each; it checks both wrote the same bytes);
#   --no-training leaves it out.
# The three zips of the bench folder are extracted once into a cache folder.
# Needs shared/tools/peers/setup.sh to have been run for the peers.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=3
BENCH="$HERE/../shared/bench"
PEERS="cshogi,pyshogi,tsshogi,jkf,rsshogi"
TRAINING=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --bench) BENCH=$2; shift 2 ;;
    --peers) PEERS=$2; shift 2 ;;
    --no-training) TRAINING=0; shift ;;
    *) echo "usage: $0 [--runs N] [--bench DIR] [--peers LIST] [--no-training]" >&2; exit 2 ;;
  esac
done
CACHE=${KIFCONV_BENCH_CACHE:-${TMPDIR:-/tmp}/kifconv-bench}
mkdir -p "$CACHE"
(cd "$HERE" && cargo build --release --quiet && cargo build --release --quiet --example floor)
KIFCONV="$HERE/target/release/kifconv"
FLOOR="$HERE/target/release/examples/floor"

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
calc() { awk "BEGIN {print $1}"; }
# Wall seconds of a command, N times, median.
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
printf '| format | tool | moves/s | vs fastest peer | vs floor |\n|---|---|---|---|---|\n'
for spec in kif:kif-sjis ki2:ki2-sjis csa:csa; do
  fmt=${spec%%:*}; zip=${spec#*:}
  dir="$CACHE/$zip"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir" && (cd "$dir" && unzip -q "$BENCH/$zip.zip")
  fi
  floor_s=$(timed "$FLOOR" "$dir")
  ours_s=$(timed "$KIFCONV" "$dir" --to usi -j 1 -q)
  ours=$(calc "$MOVES / $ours_s")
  floor=$(calc "$MOVES / $floor_s")
  best=0; best_name=none
  table=$("$HERE/../shared/tools/peers/bench.sh" --runs "$RUNS" --oracles "$PEERS" --format "$fmt" "$dir" 2>/dev/null || true)
  while IFS='|' read -r _ f peer _ _ _ _ _ mps _; do
    peer=$(echo "$peer" | xargs); mps=$(echo "$mps" | xargs)
    [[ "$mps" =~ ^[0-9]+$ ]] || continue
    printf '| %s | %s | %d | | |\n' "$fmt" "$peer" "$mps"
    if [ "$mps" -gt "$best" ]; then best=$mps; best_name=$peer; fi
  done <<< "$table"
  if [ "$fmt" = csa ]; then csa_best=$best; csa_best_name=$best_name; csa_ours_s=$ours_s; csa_floor=$floor; fi
  printf '| %s | floor (read + decode) | %.0f | | 1 |\n' "$fmt" "$floor"
  printf '| %s | **kifconv -j 1** | %.0f | %.1fx %s | %.0f%% |\n' "$fmt" "$ours" \
    "$(calc "$ours / $best")" "$best_name" "$(calc "100 * $ours / $floor")"
  if [ "$fmt" = kif ]; then
    two_s=$(timed "$KIFCONV" "$dir" --to usi -j 2 -q)
    printf '| %s | kifconv -j 2 | %.0f | -j 2 / -j 1 = %.2fx | |\n' "$fmt" \
      "$(calc "$MOVES / $two_s")" "$(calc "$ours_s / $two_s")"
  fi
done

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
