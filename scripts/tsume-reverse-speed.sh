#!/bin/sh
# Speed of `kifconv tsume generate --method reverse`: sound problems per
# minute on one core (the generator runs on one thread), for each length.
#
#   cargo build --release
#   scripts/tsume-reverse-speed.sh target/release/kifconv "5:40 7:20 9:5 11:3"
#
# Each "LENGTH:COUNT" makes COUNT problems from seed 1 and prints the rate.
set -eu
bin=${1:?the kifconv binary}
sets=${2:-"5:40 7:20 9:5 11:3"}
for set in $sets; do
    len=${set%%:*}
    count=${set#*:}
    start=$(date +%s.%N)
    "$bin" tsume generate --moves "$len" --count "$count" --seed 1 --to sfen >/dev/null
    end=$(date +%s.%N)
    echo "$len $count $start $end" | awk '{ s = $4 - $3; printf "mate in %d: %d problems in %.1f s, %.1f per minute per core\n", $1, $2, s, $2 * 60 / s }'
done
