#!/usr/bin/env bash
# Builds a book of the 10,000 CSA bench games (every ply, both sides) in
# memory and in sorted runs on disk (the default limit), and says whether
# the two books are the same bytes and each run's time and peak resident
# memory (GNU time), for -j1 and -j2.
#
#   scripts/bench-book.sh [--bench DIR]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$HERE/../shared/bench"
[ "${1:-}" = "--bench" ] && BENCH=$2
(cd "$HERE" && cargo build --release --quiet)
K="$HERE/target/release/kifconv"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
run() { # name, args...
  local name=$1; shift
  /usr/bin/time -f "$name: %e s, peak %M KiB" "$K" book build "$BENCH/csa.zip" -q --force "$@"
}
run "in memory, -j1" -o "$OUT/memory.db" -j 1 --memory 100000
for j in 1 2; do
  run "runs on disk (default --memory), -j$j" -o "$OUT/disk$j.db" -j "$j"
  if cmp -s "$OUT/memory.db" "$OUT/disk$j.db"; then
    echo "-j$j: the same book as in memory ($(wc -c < "$OUT/memory.db") bytes)"
  else
    echo "-j$j: the book differs from the one built in memory" >&2
    exit 1
  fi
done
