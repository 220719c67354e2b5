#!/bin/sh
# The peta-shock bar: a flip-folded book of the 10,000 bench games to ply 16,
# values filled by book-peta-values.py, peta-shocked by kifconv and by
# YaneuraOu's `makebook peta_shock`; the outputs must be identical (kifconv
# writes CRLF as the engine does). Prints the engine's summary, kifconv's,
# and IDENTICAL or the first differences (exit 1).
# Needs ../shared and a built kifconv (KIFCONV=path, else target/debug).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KIFCONV_SHARED:-$root/../shared}
kifconv=${KIFCONV:-${CARGO_TARGET_DIR:-$root/target}/debug/kifconv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$kifconv" book build --flip-fold --max-ply 16 -q -o "$tmp/counted.db" "$shared/bench/csa.zip"
python3 "$root/scripts/book-peta-values.py" "$tmp/counted.db" "$tmp/book.db"
echo "input: $(grep -c '^sfen ' "$tmp/book.db") positions, $(wc -l < "$tmp/book.db") lines"

engine=$("$shared/tools/engines/engine.sh" material)
printf 'setoption name BookDir value %s\nmakebook peta_shock book.db yaneuraou.db\nquit\n' "$tmp" \
  | "$engine" > "$tmp/engine.log"
grep -A8 'PetaShock Result' "$tmp/engine.log"
"$kifconv" book peta-shock --crlf "$tmp/book.db" "$tmp/kifconv.db"
echo "output: $(wc -l < "$tmp/yaneuraou.db") lines (YaneuraOu), $(wc -l < "$tmp/kifconv.db") lines (kifconv)"

if cmp -s "$tmp/yaneuraou.db" "$tmp/kifconv.db"; then
  echo IDENTICAL
else
  echo "DIFFERENT: $(diff "$tmp/yaneuraou.db" "$tmp/kifconv.db" | grep -c '^[<>]') lines differ; the first:"
  diff "$tmp/yaneuraou.db" "$tmp/kifconv.db" | head -20
  exit 1
fi
