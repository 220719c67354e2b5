#!/usr/bin/env bash
# Builds the npm package of kifconv for the browser and Node (wasm/) into
# wasm/pkg/, and prints its size.
#
#   scripts/build-wasm.sh
#
# What it needs, installed when missing: Debian's rustc-web and
# rust-web-src (a rustc whose standard library cargo builds for
# wasm32-unknown-unknown itself, -Zbuild-std), binaryen (wasm-opt), and
# wasm-bindgen-cli from crates.io at the version wasm/Cargo.toml pins. The
# link is rustup's rust-lld. The build goes to target/wasm/, which later
# runs reuse.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$HERE"
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
if [ ! -d /usr/lib/rustlib/src/rust/library ] || ! /usr/bin/rustc --version >/dev/null 2>&1 \
   || ! command -v wasm-opt >/dev/null; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq rustc-web rust-web-src binaryen
fi
BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' wasm/Cargo.toml)
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$BINDGEN_VERSION" ]; then
  cargo install --quiet wasm-bindgen-cli --version "$BINDGEN_VERSION"
fi
LLD=$(ls "$(dirname "$(rustup which rustc)")"/../lib/rustlib/*/bin/rust-lld | head -1)

# Small rather than fast: the page downloads it. Panics abort (a panic is
# a bug: the functions answer errors as values). Without reference types:
# Debian's wasm-opt (binaryen 108) breaks the table of references that
# wasm-bindgen sets up when the module uses them.
RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc \
RUSTFLAGS="-C target-feature=-reference-types" \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$LLD" \
CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_PANIC=abort \
CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
CARGO_TARGET_DIR="$HERE/target/wasm" \
  cargo build --quiet -p kifconv-wasm --lib --target wasm32-unknown-unknown --release \
  -Zbuild-std=std,panic_abort

OUT="$HERE/wasm/pkg"
rm -rf "$OUT"
mkdir -p "$OUT"
wasm-bindgen --target web --out-dir "$OUT" --out-name kifconv_wasm \
  "$HERE/target/wasm/wasm32-unknown-unknown/release/kifconv_wasm.wasm"
wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-multivalue -o "$OUT/kifconv_wasm_bg.wasm" "$OUT/kifconv_wasm_bg.wasm"
cp wasm/js/index.js wasm/js/index.d.ts wasm/js/package.json "$OUT/"
rm -f "$OUT/.gitignore"
gz=$(cat "$OUT"/*.js "$OUT"/*.wasm | gzip -9 | wc -c)
raw=$(cat "$OUT"/*.js "$OUT"/*.wasm | wc -c)
echo "wasm/pkg: $raw bytes, $gz gzipped ($((raw / 1024)) KiB, $((gz / 1024)) KiB)"
# The page downloads it: it must stay under 400 KB gzipped.
if [ "$gz" -ge 400000 ]; then
  echo "error: the package is $gz bytes gzipped, over 400,000" >&2
  exit 1
fi
