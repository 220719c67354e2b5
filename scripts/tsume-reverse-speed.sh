#!/bin/sh
# Speed of `kifconv tsume generate --method reverse`: sound problems per
# minute of one core's time (the generator runs on one thread), for each
# length. The CPU time (user + system) is the measure, so a busy machine
# changes the figures less than it would the wall time (both printed).
#
#   cargo build --release
#   scripts/tsume-reverse-speed.sh target/release/kifconv "5:40 7:20 9:5 11:3"
#
# Each "LENGTH:COUNT" makes COUNT problems from seed 1.
set -eu
bin=${1:?the kifconv binary}
sets=${2:-"5:40 7:20 9:5 11:3"}
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for set in $sets; do
    len=${set%%:*}
    count=${set#*:}
    /usr/bin/time -o "$times" -f "%U %S %e" \
        "$bin" tsume generate --moves "$len" --count "$count" --seed 1 --to sfen >/dev/null
    awk -v len="$len" -v n="$count" '{ cpu = $1 + $2; printf "mate in %d: %d problems, %.1f s CPU (%.1f s wall), %.1f per minute per core\n", len, n, cpu, $3, n * 60 / cpu }' "$times"
done
