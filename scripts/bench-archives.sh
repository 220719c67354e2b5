#!/usr/bin/env bash
# Packs the bench folder's 10,000 CSA files (shared/bench/csa.zip) into a
# solid 7z, a tar.xz and a tar.zst with examples/pack.rs (the dev-dependency
# encoders: nothing to install), and prints their sizes and packing times.
# Then reads each back with the archive module (time, peak memory). Time
# kifconv on them once the walker is wired, e.g.
#   target/release/kifconv OUT/csa.7z --to usi > /dev/null
#
#   scripts/bench-archives.sh [--bench DIR] [--out DIR]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$HERE/../shared/bench"
OUT=${KIFCONV_BENCH_CACHE:-${TMPDIR:-/tmp}/kifconv-bench}/archives
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) BENCH=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) echo "usage: $0 [--bench DIR] [--out DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
SRC=$(mktemp -d)
trap 'rm -rf "$SRC"' EXIT
unzip -q "$BENCH/csa.zip" -d "$SRC"
(cd "$HERE" && cargo build --release --quiet --example pack)
"$HERE/target/release/examples/pack" "$SRC" "$OUT/csa"
ls -l "$BENCH/csa.zip" "$OUT"/csa.*
# Read each back with the archive module (one process each, for the peak
# resident memory), through its ignored measurement test.
(cd "$HERE" && cargo test --release --quiet --bin kifconv --no-run 2>/dev/null)
TEST=$(cd "$HERE" && cargo test --release --bin kifconv --no-run --message-format=json 2>/dev/null \
  | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
for archive in "$BENCH/csa.zip" "$OUT"/csa.7z "$OUT"/csa.tar.xz "$OUT"/csa.tar.zst; do
  KIFCONV_BENCH_ARCHIVE=$archive /usr/bin/time -f "  peak resident memory %M KB" \
    "$TEST" --ignored --exact cli::archive::tests::bench_archive --nocapture 2>&1 \
    | grep -E "entries|peak"
done
