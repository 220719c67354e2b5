#!/bin/sh
# The peta-shock bar: a flip-folded book of the 10,000 bench games to ply 16,
# values filled by book-peta-values.py, peta-shocked by kifconv and by
# YaneuraOu's `makebook peta_shock`; the outputs must be identical (kifconv
# writes CRLF as the engine does); and the same with `shrink` (best moves
# only); and the same book as a .ybb, peta-shocked into a .ybb by both. Prints the engine's summary, kifconv's, and IDENTICAL or the first
# differences (exit 1).
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
status=0
for mode in full shrink; do
  option=; flag=
  [ "$mode" = shrink ] && option=' shrink' && flag=--shrink
  printf 'setoption name BookDir value %s\nmakebook peta_shock book.db yaneuraou-%s.db%s\nquit\n' \
    "$tmp" "$mode" "$option" | "$engine" > "$tmp/engine-$mode.log"
  grep -A8 'PetaShock Result' "$tmp/engine-$mode.log"
  "$kifconv" book peta-shock --crlf $flag "$tmp/book.db" "$tmp/kifconv-$mode.db"
  echo "$mode: $(wc -l < "$tmp/yaneuraou-$mode.db") lines (YaneuraOu), $(wc -l < "$tmp/kifconv-$mode.db") lines (kifconv)"
  if cmp -s "$tmp/yaneuraou-$mode.db" "$tmp/kifconv-$mode.db"; then
    echo "$mode: IDENTICAL"
  else
    echo "$mode: DIFFERENT: $(diff "$tmp/yaneuraou-$mode.db" "$tmp/kifconv-$mode.db" | grep -c '^[<>]') lines differ; the first:"
    diff "$tmp/yaneuraou-$mode.db" "$tmp/kifconv-$mode.db" | head -20
    status=1
  fi
done
# The same book as a .ybb, peta-shocked into a .ybb by both.
"$kifconv" book convert "$tmp/book.db" "$tmp/book.ybb" 2>/dev/null
for mode in full shrink; do
  option=; flag=
  [ "$mode" = shrink ] && option=' shrink' && flag=--shrink
  printf 'setoption name BookDir value %s\nsetoption name BookFile value no_book\nmakebook peta_shock book.ybb yaneuraou-%s.ybb%s\nquit\n' \
    "$tmp" "$mode" "$option" | "$engine" > "$tmp/engine-ybb-$mode.log"
  "$kifconv" book peta-shock $flag "$tmp/book.ybb" "$tmp/kifconv-$mode.ybb" 2>/dev/null
  if cmp -s "$tmp/yaneuraou-$mode.ybb" "$tmp/kifconv-$mode.ybb"; then
    echo "$mode .ybb: IDENTICAL ($(wc -c < "$tmp/kifconv-$mode.ybb") bytes)"
  else
    echo "$mode .ybb: DIFFERENT"
    status=1
  fi
done
exit $status
