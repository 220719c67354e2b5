#!/usr/bin/env bash
# kifconv's mate solver against YaneuraOu's mate engine on the same
# positions: N plies before the end of the bench games that end in 詰み
# (%TSUMI), the mating side to move, for N = 1, 3, 5, 7. The games are
# those of csa.zip, taken from the bench's ground truth (games.usi and
# manifest.tsv, the same games' moves). Both sides run in one process
# each, and each times its own positions: kifconv reads them all from
# standard input (`kifconv mate - --depth 31 --timed`: shortest mate, five
# million nodes a position, a fresh table each, the microseconds of each
# printed by kifconv itself); the engine runs once, one thread, its hash
# cleared before each position (`usinewgame`, `isready`), timed from `go
# mate 10000` to its `checkmate` line. Prints a Markdown table: mates found
# by each, mean and median time per position, ratios (kifconv's over the
# engine's: under 1 is faster), then the positions where either took over
# a second.
#
#   scripts/bench-tsume.sh [--bench DIR] [GAMES]   (GAMES: the first 100)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$HERE/../shared/bench"
if [ "${1:-}" = "--bench" ]; then BENCH=$2; shift 2; fi
GAMES=${1:-100}
# KIFCONV=path runs a kifconv already built instead of building one.
K=${KIFCONV:-}
if [ -z "$K" ]; then
  (cd "$HERE" && cargo build --release --quiet --bin kifconv)
  K="$HERE/target/release/kifconv"
fi
ENGINE=$("$HERE/../shared/tools/engines/engine.sh" mate)
python3 - "$K" "$ENGINE" "$BENCH" "$GAMES" <<'PY'
import statistics, subprocess, sys, time
kifconv, engine, bench, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ends = {}
with open(f"{bench}/manifest.tsv") as f:
    next(f)
    for line in f:
        id_, _, _, end, plies = line.rstrip("\n").split("\t")
        ends[int(id_)] = (end, int(plies))
lines = open(f"{bench}/games.usi").read().splitlines()
mates = [lines[i - 1] for i in sorted(ends) if ends[i][0] == "TSUMI"][:games]

def before(line, back):
    head, _, moves = line.partition(" moves ")
    moves = moves.split()
    if back > len(moves):
        return None
    kept = moves[: len(moves) - back]
    return head + (" moves " + " ".join(kept) if kept else "")

def ours_all(positions):
    out = subprocess.run([kifconv, "mate", "-", "--depth", "31", "--timed"],
                         input="".join(p + "\n" for p in positions), capture_output=True, text=True, check=True)
    answers = []
    for line in out.stdout.splitlines():
        micros, answer = line.split("\t", 1)
        if answer.startswith("mate in "):
            found = int(answer.split()[-1])
        elif answer == "unknown":
            found = "unknown"
        elif answer == "no mate":
            found = None
        else:
            sys.exit(f"kifconv: {answer}")
        answers.append((int(micros) / 1e6, found))
    assert len(answers) == len(positions)
    return answers

usi = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(text):
    usi.stdin.write(text + "\n")
    usi.stdin.flush()
def until(prefix):
    while True:
        line = usi.stdout.readline()
        if not line:
            sys.exit("the engine stopped")
        if line.startswith(prefix):
            return line.split()
send("usi"); until("usiok")
send("setoption name Threads value 1"); send("setoption name USI_Hash value 256")
send("isready"); until("readyok")

def theirs(pos):
    send("usinewgame")
    send(pos)
    # The engine has done with both (its hash cleared) before the clock starts.
    send("isready"); until("readyok")
    started = time.perf_counter()
    send("go mate 10000")
    words = until("checkmate")
    spent = time.perf_counter() - started
    if words[1:] == ["nomate"]:
        return spent, None
    if words[1:] == ["timeout"]:
        return spent, "unknown"
    return spent, len(words) - 1

print(f"{len(mates)} games ending in mate; kifconv and the engine each one process, timing each position")
print("| plies before the end | positions | kifconv mates | engine mates | kifconv mean ms | engine mean ms | ratio of means | kifconv median ms | engine median ms | ratio of medians |")
print("|---|---|---|---|---|---|---|---|---|---|")
every_ours, every_theirs, shorter, slow = [], [], 0, []
def row(label, a, b, ma, mb):
    mean_a, mean_b = statistics.mean(a) * 1000, statistics.mean(b) * 1000
    med_a, med_b = statistics.median(a) * 1000, statistics.median(b) * 1000
    print(f"| {label} | {len(a)} | {ma} | {mb} | {mean_a:.2f} | {mean_b:.2f} | {mean_a / mean_b:.2g} | {med_a:.2f} | {med_b:.2f} | {med_a / med_b:.2g} |")
for back in (1, 3, 5, 7):
    positions = [p for p in (before(line, back) for line in mates) if p is not None]
    answers = ours_all(positions)
    a, b, ma, mb = [], [], 0, 0
    for pos, (ta, ra) in zip(positions, answers):
        tb, rb = theirs(pos)
        a.append(ta); b.append(tb)
        ma += isinstance(ra, int); mb += isinstance(rb, int)
        if isinstance(ra, int) and isinstance(rb, int) and ra < rb:
            shorter += 1
        if max(ta, tb) > 1.0:
            slow.append((back, ta, ra, tb, rb))
    every_ours += a; every_theirs += b
    row(back, a, b, ma, mb)
print(f"all: kifconv {sum(every_ours):.2f} s, engine {sum(every_theirs):.2f} s over {len(every_ours)} positions (ratio {sum(every_ours) / sum(every_theirs):.2g}); kifconv's mate shorter than the engine's in {shorter}")
for back, ta, ra, tb, rb in slow:
    print(f"over a second: {back} plies before the end: kifconv {ta:.2f} s ({ra}), engine {tb:.2f} s ({rb})")
send("quit")
PY
