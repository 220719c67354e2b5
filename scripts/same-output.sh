#!/usr/bin/env bash
# Shows that two builds of kifconv write the same bytes: every corpus file,
# every fixture and the three bench archives, converted to every output
# format, to standard output and to standard error (warnings, errors and the
# summary, its timing cut off).
#
#   scripts/same-output.sh BASE [HEAD]
#
# BASE and HEAD are git revisions (HEAD defaults to the working tree). Each
# is built in release mode (BASE in a temporary worktree), both run with -j2
# on the same inputs, and every pair of outputs is compared. Prints one line
# per comparison that differs and a count; exits 1 if any differs, 2 if
# ../shared is missing.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${KIFCONV_SHARED:-$HERE/../shared}
BASE=${1:?usage: scripts/same-output.sh BASE [HEAD]}
HEAD_REV=${2:-}
[ -d "$SHARED/corpus" ] && [ -d "$SHARED/bench" ] || { echo "no ../shared at $SHARED" >&2; exit 2; }
WORK=$(mktemp -d)
cleanup() {
  git -C "$HERE" worktree remove --force "$WORK/base-tree" 2> /dev/null || true
  git -C "$HERE" worktree remove --force "$WORK/head-tree" 2> /dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# build REV DIR: the release binary of REV, built in a worktree at DIR
# (sharing this tree's target folder would rebuild it; each gets its own).
build() {
  git -C "$HERE" worktree add --quiet --detach "$2" "$1"
  (cd "$2" && CARGO_TARGET_DIR=$HERE/target/same-output/$(basename "$2") \
    CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-2} cargo build --release --quiet --bin kifconv)
  echo "$HERE/target/same-output/$(basename "$2")/release/kifconv"
}
BASE_BIN=$(build "$BASE" "$WORK/base-tree")
if [ -n "$HEAD_REV" ]; then
  HEAD_BIN=$(build "$HEAD_REV" "$WORK/head-tree")
else
  (cd "$HERE" && cargo build --release --quiet --bin kifconv)
  HEAD_BIN=$HERE/target/release/kifconv
fi

sources=("$SHARED/corpus" "$HERE/fixtures" "$SHARED/bench/kif-sjis.zip" \
  "$SHARED/bench/ki2-sjis.zip" "$SHARED/bench/csa.zip")
targets=(kif kifu ki2 ki2u csa usi sfen jkf western)
differ=0
compared=0
for src in "${sources[@]}"; do
  for to in "${targets[@]}"; do
    for side in base head; do
      bin=$BASE_BIN
      [ $side = head ] && bin=$HEAD_BIN
      (cd "$HERE" && "$bin" "$src" --to "$to" -j2 > "$WORK/$side.out" 2> "$WORK/$side.err") || true
      # The summary's timing differs from run to run.
      sed -i -E 's/ in [0-9.]+ s \([0-9]+ games\/s\)$//' "$WORK/$side.err"
    done
    for stream in out err; do
      compared=$((compared + 1))
      if ! cmp -s "$WORK/base.$stream" "$WORK/head.$stream"; then
        differ=$((differ + 1))
        echo "differs: $(basename "$src") --to $to (std$stream)"
        diff <(head -c 2000000 "$WORK/base.$stream") <(head -c 2000000 "$WORK/head.$stream") | head -10 || true
      fi
    done
  done
done
echo "$compared comparisons, $differ differ"
[ $differ = 0 ]
