#!/bin/sh
# book sort's memory bar: an unsorted book of about SIZE MB (default 1000;
# every position of the CSA bench games with every legal move, written by
# scripts/book-sort-input.py with cshogi from the peers' venv) sorted with
# --memory 64; prints the peak resident memory and time of the sort, and
# checks the sorted copy with book check; then converts the book into a
# .ybb with --memory 64 and prints its peak and time. The baseline is the input's
# size: the sort must stay far below it.
# Needs ../shared, the peers (../shared/tools/peers/setup.sh) and a release
# kifconv (KIFCONV=path, else target/release).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KIFCONV_SHARED:-$root/../shared}
kifconv=${KIFCONV:-${CARGO_TARGET_DIR:-$root/target}/release/kifconv}
python=${PEERS_PYTHON:-${PEERS_HOME:-$HOME/.cache/kifconv-peers}/venv/bin/python}
size=${1:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$kifconv" book build -q --max-ply 400 -o "$tmp/all.db" "$shared/bench/csa.zip"
"$python" "$root/scripts/book-sort-input.py" "$tmp/all.db" "$tmp/big.db" "$size"
/usr/bin/time -v "$kifconv" book sort "$tmp/big.db" -o "$tmp/sorted.db" --memory 64 \
  2> "$tmp/sort.err"
grep -E 'positions, .* moves' "$tmp/sort.err"
grep -E 'Maximum resident|Elapsed' "$tmp/sort.err"
echo "input: $(wc -c < "$tmp/big.db") bytes; output: $(wc -c < "$tmp/sorted.db") bytes"
"$kifconv" book check "$tmp/sorted.db" | tail -1
rm "$tmp/sorted.db"
/usr/bin/time -v "$kifconv" book convert "$tmp/big.db" "$tmp/big.ybb" --memory 64 \
  2> "$tmp/convert.err"
grep -E 'Maximum resident|Elapsed' "$tmp/convert.err"
echo "ybb: $(wc -c < "$tmp/big.ybb") bytes"
