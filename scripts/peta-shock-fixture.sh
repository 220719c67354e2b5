#!/bin/sh
# Makes the peta-shock test fixture in tests/it/data/peta_shock:
#   book.db      the first 40 bench games and the planted lines of
#                planted.usi (a repetition from the start position, a
#                perpetual check from both sides), counted flip-folded to
#                ply 10, values filled by book-peta-values.py;
#   yaneuraou.db what YaneuraOu's `makebook peta_shock` writes for it.
# Needs ../shared (bench games and the engine) and a built kifconv
# (KIFCONV=path, else target/debug/kifconv under CARGO_TARGET_DIR).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KIFCONV_SHARED:-$root/../shared}
out=$root/tests/it/data/peta_shock
kifconv=${KIFCONV:-${CARGO_TARGET_DIR:-$root/target}/debug/kifconv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

head -n 40 "$shared/bench/games.usi" > "$tmp/games.usi"
cat "$out/planted.usi" >> "$tmp/games.usi"
"$kifconv" book build --flip-fold --max-ply 10 -q -o "$tmp/counted.db" "$tmp/games.usi"
rm -f "$out/book.db" "$out/yaneuraou.db"
python3 "$root/scripts/book-peta-values.py" "$tmp/counted.db" "$out/book.db"

engine=$("$shared/tools/engines/engine.sh" material)
printf 'setoption name BookDir value %s\nmakebook peta_shock book.db yaneuraou.db\nquit\n' "$out" \
  | "$engine" > "$tmp/engine.log"
grep -A8 'PetaShock Result' "$tmp/engine.log"
