#!/usr/bin/env bash
# Load on `kifconv serve`'s /api/book with a book of about 1 GB, against
# the bench games' book and /api/formats (no file read: the server's own
# floor), served by one server in the same run, driven by wrk.
#
#   scripts/bench-serve.sh [--duration S] [--runs N] [--conns "1 16 256"]
#                          [--games N] [--plies N] [--cold] [--bench DIR]
#
# - The large book: flip-folded DB2016 text of random legal games
#   (examples/random_games.rs, GAMES games of PLIES plies, seed 1), built
#   once by `kifconv book build` and kept in the cache folder
#   ($KIFCONV_BENCH_CACHE, else $TMPDIR/kifconv-bench) for later runs. The
#   bench book is `book build --flip-fold` of ../shared/bench/csa.zip.
# - The requests: each book's own list of positions rotated by a wrk Lua
#   script: three quarters in the book (prefixes of its games at random
#   plies, half of them white to move, so found through the flipped entry)
#   and a quarter not in it (prefixes of other random games past ply 30).
#   Before the load every listed position is asked once, and the answers
#   must be exact / flipped / none as expected.
# - The books are read once before the load, so the figures are for a warm
#   page cache. With --cold (root only) the page cache is dropped once at
#   the end and one more run of the large book with one connection is made.
# - For each connection count (wrk -t2, or -t1 for one connection), each
#   target for S seconds, N rounds: requests/s and latency p50, p90, p99,
#   max (the medians of the rounds), errors and non-2xx answers; then the
#   ratios to the bench book and to the floor, the server's peak resident
#   memory (VmHWM), and the peaks of a server of each book alone under the
#   same load.
# It exits 1 when an answer is not as expected or a request failed.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$HERE/../shared/bench"
DURATION=5
RUNS=3
CONNS="1 16 256"
GAMES=110000
PLIES=100
COLD=0
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --conns) CONNS=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --plies) PLIES=$2; shift 2 ;;
    --cold) COLD=1; shift ;;
    --bench) BENCH=$2; shift 2 ;;
    *)
      echo "usage: $0 [--duration S] [--runs N] [--conns \"1 16 256\"] [--games N] [--plies N] [--cold] [--bench DIR]" >&2
      exit 2 ;;
  esac
done
# The load generator: Debian's wrk.
if ! command -v wrk >/dev/null; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq wrk
fi
(cd "$HERE" && cargo build --release --quiet --bins --example random_games)
K="$HERE/target/release/kifconv"
GEN="$HERE/target/release/examples/random_games"
CACHE=${KIFCONV_BENCH_CACHE:-${TMPDIR:-/tmp}/kifconv-bench}/serve
mkdir -p "$CACHE"
SCRATCH=/dev/shm
[ -d "$SCRATCH" ] && [ -w "$SCRATCH" ] || SCRATCH=${TMPDIR:-/tmp}
OUT=$(mktemp -d -p "$SCRATCH")
SERVER=""
stop_server() {
  if [ -n "$SERVER" ]; then
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    SERVER=""
  fi
}
trap 'stop_server; rm -rf "$OUT"' EXIT

# The books, made once.
GAMES_USI="$CACHE/games-$GAMES-$PLIES.usi"
BIG="$CACHE/big-$GAMES-$PLIES.db"
SMALL="$CACHE/bench.db"
BENCH_USI="$CACHE/bench.usi"
if [ ! -s "$GAMES_USI" ]; then
  echo "making $GAMES random games of $PLIES plies ..." >&2
  "$GEN" "$GAMES" "$PLIES" 1 > "$GAMES_USI.part"
  mv "$GAMES_USI.part" "$GAMES_USI"
fi
if [ ! -s "$BIG" ]; then
  echo "building the large book (sorted runs on disk) ..." >&2
  /usr/bin/time -f "book build: %e s, peak %M KiB" \
    "$K" book build "$GAMES_USI" --flip-fold -q --force -o "$BIG"
fi
[ -s "$SMALL" ] || "$K" book build "$BENCH/csa.zip" --flip-fold -q --force -o "$SMALL"
[ -s "$BENCH_USI" ] || "$K" "$BENCH/csa.zip" --to usi -q > "$BENCH_USI"
big_bytes=$(stat -c %s "$BIG")
small_bytes=$(stat -c %s "$SMALL")
positions() { grep -c '^sfen ' "$1"; }
echo "large book: $big_bytes bytes, $(positions "$BIG") positions ($GAMES random games of up to $PLIES plies)"
echo "bench book: $small_bytes bytes, $(positions "$SMALL") positions (the 10,000 bench games)"
if [ "$big_bytes" -lt 1000000000 ]; then
  echo "note: the large book is under 1.0e9 bytes: raise --games" >&2
fi

# The positions asked, as request paths. in_book GAMES N BOOK: N prefixes
# of the file's games from the start position, at random plies short of
# each game's end, black and white to move in turn. out_of_book N BOOK: prefixes of other
# random games (seed 2) past ply 30.
encode='function enc(s) { gsub(/\+/, "%2B", s); gsub(/\*/, "%2A", s); gsub(/ /, "%20", s); return s }'
in_book() {
  local lines
  lines=$(wc -l < "$1")
  awk -v n="$2" -v lines="$lines" -v book="$3" "$encode"'
    BEGIN { srand(7); p = 2 * n / lines }
    $2 == "startpos" && $3 == "moves" && NF > 4 && rand() < p && made < n {
      want = made % 2
      ply = int(rand() * (NF - 3))
      if (ply % 2 != want) ply = ply + 1 < NF - 3 ? ply + 1 : ply - 1
      s = ply == 0 ? "startpos" : "position startpos moves"
      for (i = 4; i < 4 + ply; i++) s = s " " $i
      print (want ? "W" : "B"), "/api/book?book=" book "&position=" enc(s)
      made++
    }' "$1"
}
"$GEN" 2000 60 2 > "$OUT/other.usi"
out_of_book() {
  awk -v n="$1" -v book="$2" "$encode"'
    BEGIN { srand(11) }
    NR <= n {
      ply = 30 + int(rand() * 30)
      if (NF - 3 < ply) ply = NF - 3
      s = "position startpos moves"
      for (i = 4; i < 4 + ply; i++) s = s " " $i
      print "N", "/api/book?book=" book "&position=" enc(s)
    }' "$OUT/other.usi"
}
for book in big bench; do
  source_usi=$GAMES_USI
  [ "$book" = bench ] && source_usi=$BENCH_USI
  { in_book "$source_usi" 1500 "$book"; out_of_book 500 "$book"; } > "$OUT/$book.tagged"
  # Rotated in a shuffled (but fixed) order.
  awk 'BEGIN { srand(3) } { print rand(), $0 }' "$OUT/$book.tagged" | sort -k1,1 |
    cut -d' ' -f2- > "$OUT/$book.shuffled"
done
echo "/api/formats" > "$OUT/formats.paths"

cat > "$OUT/rotate.lua" <<'LUA'
-- Rotates over the request paths in $PATHS, each thread from its own
-- place, and times each request itself: the time from handing wrk a
-- request to its answer, on the monotonic clock. A request and its answer
-- are paired by the position's SFEN (the line of $SFENS beside its path,
-- the answer's "sfen"), so that a thread's connections may answer in any
-- order; with $SFENS empty (/api/formats), by order, which is right only
-- for one connection a thread. A position is asked by one request at a
-- time in a thread (the list holds each once, and is longer than a
-- thread's connections), so a request's time overwrites any earlier one
-- of its position: wrk calls request() once more than it sends, when it
-- starts, and that time must not wait for an answer. done() prints one
-- line for the script.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long sec; long nsec; } kc_timespec;
  int clock_gettime(int clock, kc_timespec *t);
]]
local clock = ffi.new("kc_timespec")
local function now()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.sec) * 1e6 + tonumber(clock.nsec) / 1e3
end
local paths, keys = {}, {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local sfens = os.getenv("SFENS") or ""
if sfens ~= "" then
  for line in io.lines(sfens) do keys[#keys + 1] = line end
end
local i, started, waiting = 0, 0, {}
latencies, unpaired, not_ok = {}, 0, 0
local threads = {}
function setup(thread)
  thread:set("start", started)
  started = started + 997
  threads[#threads + 1] = thread
end
function init(args)
  i = (start or 0) % #paths
end
function request()
  i = i % #paths + 1
  waiting[keys[i] or "-"] = now()
  return wrk.format("GET", paths[i])
end
function response(status, headers, body)
  local t = now()
  if status ~= 200 then not_ok = not_ok + 1 end
  local key = #keys > 0 and body:match('"sfen":"([^"]*)"') or "-"
  local asked = key and waiting[key]
  if asked then
    latencies[#latencies + 1] = t - asked
    waiting[key] = nil
  else
    unpaired = unpaired + 1
  end
end
function done(summary, latency, requests)
  local all, unmatched, bad = {}, 0, 0
  for _, thread in ipairs(threads) do
    for _, l in ipairs(thread:get("latencies")) do all[#all + 1] = l end
    unmatched = unmatched + thread:get("unpaired")
    bad = bad + thread:get("not_ok")
  end
  table.sort(all)
  local function at(p) return all[math.max(1, math.ceil(#all * p))] or 0 end
  local e = summary.errors
  io.write(string.format("RESULT %d %.6f %.0f %.0f %.0f %.0f %d %d %d %d\n",
    summary.requests, summary.duration / 1e6, at(0.5), at(0.9), at(0.99), at(1),
    e.connect + e.read + e.write + e.timeout, bad, #all, unmatched))
end
LUA

# start_server ARGS...: the server in the background, its URL in $URL.
start_server() {
  "$K" serve "$@" --addr 127.0.0.1:0 > "$OUT/serve.out" 2> "$OUT/serve.err" &
  SERVER=$!
  URL=""
  for _ in $(seq 100); do
    URL=$(sed -n '1s/^kifconv serve: \(http:[^ ]*\)\/$/\1/p' "$OUT/serve.out")
    [ -n "$URL" ] && return
    kill -0 "$SERVER" 2>/dev/null || break
    sleep 0.1
  done
  echo "the server did not start:" >&2
  cat "$OUT/serve.err" >&2
  exit 1
}
# peak / rss: the server's peak and current resident memory, in KiB.
peak() { awk '/^VmHWM:/ {print $2}' "/proc/$SERVER/status"; }
threads() { awk '/^Threads:/ {print $2}' "/proc/$SERVER/status"; }
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER/status"; }

# check BOOK: every listed position asked once; each answer must be found
# as its tag says (B exact, W flipped, N none). Then the paths the load
# rotates over, each position once, and their SFENs beside them.
check() {
  local book=$1
  sed "s|^\([BWN]\) \(.*\)|url = \"$URL\2\"|" "$OUT/$book.shuffled" > "$OUT/$book.curl"
  curl -sS --fail-with-body -w '\n' -K "$OUT/$book.curl" > "$OUT/$book.answers"
  sed 's/.*"found":"\([a-z]*\)".*/\1/' "$OUT/$book.answers" > "$OUT/$book.kinds"
  sed 's/.*"sfen":"\([^"]*\)".*/\1/' "$OUT/$book.answers" > "$OUT/$book.sfen"
  paste -d' ' <(cut -d' ' -f1 "$OUT/$book.shuffled") "$OUT/$book.kinds" |
    sort | uniq -c > "$OUT/$book.found"
  echo "$book: $(awk '{printf "%s%s %s: %d", (NR > 1 ? ", " : ""), $2, $3, $1}' "$OUT/$book.found") (B black to move, W white, N not in the book)"
  if awk '($2 == "B" && $3 != "exact") || ($2 == "W" && $3 != "flipped") || ($2 == "N" && $3 != "none") {bad = 1} END {exit !bad}' "$OUT/$book.found" ||
    [ "$(wc -l < "$OUT/$book.answers")" != "$(wc -l < "$OUT/$book.shuffled")" ]; then
    echo "$book: an answer is not what its position's tag says" >&2
    exit 1
  fi
  paste -d' ' <(cut -d' ' -f2 "$OUT/$book.shuffled") "$OUT/$book.sfen" | tr -d '\r' |
    awk '!seen[substr($0, index($0, " ") + 1)]++' > "$OUT/$book.both"
  cut -d' ' -f1 "$OUT/$book.both" > "$OUT/$book.paths"
  cut -d' ' -f2- "$OUT/$book.both" > "$OUT/$book.sfens"
  echo "$book: $(wc -l < "$OUT/$book.paths") distinct positions rotated over"
}

# load NAME CONNS: one wrk run on NAME's paths, its RESULT line added to
# $OUT/NAME.CONNS.runs.
load() {
  local name=$1 c=$2 threads=2 sfens=""
  [ "$c" -lt 2 ] && threads=1
  [ -f "$OUT/$name.sfens" ] && sfens="$OUT/$name.sfens"
  PATHS="$OUT/$name.paths" SFENS="$sfens" wrk -t"$threads" -c"$c" -d"${DURATION}s" \
    --timeout 10s -s "$OUT/rotate.lua" "$URL" > "$OUT/wrk.out"
  grep '^RESULT' "$OUT/wrk.out" | cut -d' ' -f2- >> "$OUT/$name.$c.runs"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# col NAME CONNS FIELD: the median of a field of the runs (1 requests,
# 2 seconds, 3 p50, 4 p90, 5 p99, 6 max, in µs); total: the sum (7
# failed requests, 8 answers not 200, 9 timed, 10 answers not paired).
col() { awk -v f="$3" '{print $f}' "$OUT/$1.$2.runs" | median; }
total() { awk -v f="$3" '{s += $f} END {print s}' "$OUT/$1.$2.runs"; }
rps() { awk '{print $1 / $2}' "$OUT/$1.$2.runs" | median; }
ms() { awk -v us="$1" 'BEGIN {printf "%.2f", us / 1000}'; }

echo "machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), shared with the load generator"
# Warm page cache: the books read once.
cat "$BIG" "$SMALL" > /dev/null

start_server --book "$BIG=big" --book "$SMALL=bench"
echo "server: $URL, pid $SERVER, peak $(peak) KiB after opening the books"
check big
check bench
for _ in $(seq "$RUNS"); do
  for c in $CONNS; do
    for name in big bench formats; do
      load "$name" "$c"
    done
  done
done
two_books_peak=$(peak)
two_books_rss=$(rss)
two_books_threads=$(threads)
echo
echo "$RUNS round(s) of ${DURATION} s a target, wrk -t2 (-t1 for one connection); medians of the rounds"
echo "(mean: connections / requests per second; percentiles timed by the Lua script, not"
echo "wrk's own histogram; /api/formats's answers cannot be paired with more than one"
echo "connection a thread, so its percentiles are given for one connection only)"
printf '%-6s %-13s %8s %8s %8s %8s %8s %8s %7s %7s\n' conns target "req/s" "mean ms" "p50 ms" "p90 ms" "p99 ms" "max ms" failed "not 200"
failed=0
for c in $CONNS; do
  for name in big bench formats; do
    label=$name
    [ "$name" = big ] && label="large book"
    [ "$name" = bench ] && label="bench book"
    [ "$name" = formats ] && label="/api/formats"
    r=$(rps "$name" "$c")
    p50=$(ms "$(col "$name" "$c" 3)") p90=$(ms "$(col "$name" "$c" 4)")
    p99=$(ms "$(col "$name" "$c" 5)") max=$(ms "$(col "$name" "$c" 6)")
    if [ "$name" = formats ] && [ "$c" -gt 1 ]; then p50=- p90=- p99=- max=-; fi
    printf '%-6s %-13s %8.0f %8.2f %8s %8s %8s %8s %7s %7s\n' "$c" "$label" "$r" \
      "$(awk -v c="$c" -v r="$r" 'BEGIN {print c / r * 1000}')" "$p50" "$p90" "$p99" "$max" \
      "$(total "$name" "$c" 7)" "$(total "$name" "$c" 8)"
    [ "$(total "$name" "$c" 7)" = 0 ] && [ "$(total "$name" "$c" 8)" = 0 ] || failed=1
    if [ "$name" != formats ] && [ "$(total "$name" "$c" 10)" != 0 ]; then
      echo "  note: $(total "$name" "$c" 10) answers could not be paired with their request" >&2
    fi
  done
done
echo
echo "ratios of requests/s:"
for c in $CONNS; do
  awk -v c="$c" -v big="$(rps big "$c")" -v small="$(rps bench "$c")" -v floor="$(rps formats "$c")" \
    'BEGIN {printf "  %s connection(s): large / bench %.2f, large / floor %.2f, bench / floor %.2f\n", c, big / small, big / floor, small / floor}'
done
echo
echo "server of both books: peak resident $two_books_peak KiB, now $two_books_rss KiB, $two_books_threads threads (after every run)"
stop_server

# A server of each book alone, under the same load (the heaviest of the
# run, on its book): their peaks side by side.
max_c=$(echo "$CONNS" | tr ' ' '\n' | sort -g | tail -1)
for name in big bench; do
  path=$BIG label="the large book"
  [ "$name" = bench ] && path=$SMALL label="the bench book"
  start_server --book "$path=$name"
  : > "$OUT/$name.$max_c.runs"
  load "$name" "$max_c"
  echo "server of $label alone: peak resident $(peak) KiB, $(threads) threads" \
    "(after $max_c connections on it for ${DURATION} s)"
  stop_server
done

if [ "$COLD" = 1 ]; then
  start_server --book "$BIG=big" --book "$SMALL=bench"
  if sync && echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; then
    : > "$OUT/big.1.runs"
    load big 1
    echo "cold page cache, 1 GB book, 1 connection, ${DURATION} s: $(rps big 1 | awk '{printf "%.0f", $1}') req/s," \
      "p50 $(ms "$(col big 1 3)") ms, p99 $(ms "$(col big 1 5)") ms, max $(ms "$(col big 1 6)") ms"
    command -v fincore >/dev/null && echo "after it, in the page cache: $(fincore -n -o RES "$BIG")"
  else
    echo "--cold: the page cache cannot be dropped here (root and a writable /proc/sys/vm/drop_caches needed)"
  fi
  stop_server
fi
exit "$failed"
