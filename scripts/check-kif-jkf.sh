#!/usr/bin/env bash
# Checks that json-kifu-format reads every KIF kifconv writes.
#
#   scripts/check-kif-jkf.sh [-v]
#
# Converts every KIF, KI2, CSA and JKF file of ../shared/corpus and every
# fixture kifconv reads (fixtures/**, not the bad/ folders) to KIF with the
# release binary (`kifconv FILE --to kifu -q`), cuts each output into its
# games (each starts with its `#KIF version=` line), and has
# json-kifu-format read each game (../shared/tools/peers/run.sh jkf). A game
# passes when json-kifu-format reads it and finds the start and the
# mainline kifconv read from the original file (`--to usi`). The one error
# accepted is the replay failing on the move right after kifconv's
# mainline: a final illegal move, which kifconv writes as the move it was
# (the game was lost by it). Three known limits of json-kifu-format are
# counted apart, each checked by reading the game again without that one
# line: a `手数＝N` line and a `まで…の入玉勝ち` summary (its grammar has
# neither; kifconv writes that summary only when the record's winner is not
# the player a 入玉勝ち line would name), and a final illegal move its board
# refuses to play (二歩, a move the piece cannot make). Prints the counts,
# every limit and every failure; exits 1 if any game fails, 2 if the peers
# are not installed. -v lists every game.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=${KIFCONV_CORPUS:-$HERE/../shared/corpus}
PEERS=${KIFCONV_PEERS:-$HERE/../shared/tools/peers}
VERBOSE=0
[ "${1:-}" = -v ] && VERBOSE=1
[ -x "$PEERS/run.sh" ] || { echo "no peers at $PEERS (see its README)" >&2; exit 2; }
(cd "$HERE" && CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} nice cargo build --release --quiet)
KIFCONV=$HERE/target/release/kifconv
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/games"

{
  [ -d "$CORPUS" ] && find "$CORPUS" -type f \( -iname '*.kif' -o -iname '*.kifu' \
    -o -iname '*.ki2' -o -iname '*.ki2u' -o -iname '*.csa' -o -iname '*.jkf' \
    -o -iname '*.json' \)
  find "$HERE/fixtures" -type f -not -path '*/bad/*' -not -name '*.md'
} | sort > "$WORK/inputs"

# Each input: its KIF, cut into games, and kifconv's own mainline of each.
: > "$WORK/list"
: > "$WORK/expected"
unread=0
i=0
while IFS= read -r input; do
  i=$((i + 1))
  if ! "$KIFCONV" "$input" --to kifu -q > "$WORK/$i.kifu" 2> /dev/null \
    || ! "$KIFCONV" "$input" --to usi -q > "$WORK/$i.usi" 2> /dev/null; then
    unread=$((unread + 1))
    continue
  fi
  awk -v dir="$WORK/games" -v n="$i" '
    /^#KIF version=/ { g++; file = sprintf("%s/%d-%d.kif", dir, n, g) }
    file != "" { print > file }' "$WORK/$i.kifu"
  g=0
  while IFS= read -r usi; do
    g=$((g + 1))
    printf '%s\t%s\t%s\n' "$WORK/games/$i-$g.kif" "$input" "$usi" >> "$WORK/expected"
    echo "$WORK/games/$i-$g.kif" >> "$WORK/list"
  done < "$WORK/$i.usi"
done < "$WORK/inputs"

"$PEERS/run.sh" jkf --format kif --files-from "$WORK/list" > "$WORK/jkf.out" || true

python3 - "$WORK" "$PEERS" "$unread" "$VERBOSE" <<'PY'
import os, re, subprocess, sys

work, peers, unread, verbose = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
startpos = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

def usi_game(line):
    """(start SFEN without its move number, moves) of a USI position line."""
    words = line.split()
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    if words[1] == "startpos":
        start = startpos
    else:
        end = words.index("moves") if "moves" in words else len(words)
        start = " ".join(words[2:end])
    return " ".join(start.split()[:3]), moves

def blocks_of(output):
    blocks, path = {}, None
    for line in output.splitlines():
        if line.startswith("# "):
            path = line[2:]
            blocks[path] = {"errors": []}
        elif path and ":" in line:
            key, _, value = line.partition(":")
            if key == "error":
                blocks[path]["errors"].append(value.strip())
            else:
                blocks[path][key] = value.strip()
    return blocks

def jkf(paths):
    with open(os.path.join(work, "retry-list"), "w", encoding="utf-8") as f:
        f.write("".join(p + "\n" for p in paths))
    out = subprocess.run([os.path.join(peers, "run.sh"), "jkf", "--format", "kif",
                          "--files-from", os.path.join(work, "retry-list")],
                         capture_output=True, text=True).stdout
    if len(paths) == 1:  # run.sh prints no "# PATH" line for one file
        out = f"# {paths[0]}\n" + out
    return blocks_of(out)

def verdict(block, start, moves):
    """None when json-kifu-format read the game as kifconv did, else why not."""
    if block is None:
        return "no answer from json-kifu-format"
    theirs = block.get("moves", "").split()
    # The replay stopping at the move after kifconv's mainline: the final
    # illegal move kifconv writes for a game lost by one.
    errors = [e for e in block["errors"]
              if not e.startswith(f"illegal move at ply {len(moves) + 1}:")]
    if errors:
        return "; ".join(errors)
    if theirs != moves:
        return f"json-kifu-format read {len(theirs)} moves, kifconv {len(moves)}"
    their_start = " ".join(block.get("startsfen", "").split()[:3])
    if their_start != start:
        return f"json-kifu-format starts from {their_start}, kifconv from {start}"
    return None

def without_known_limits(path, moves):
    """The game without the lines json-kifu-format is known not to take, and
    what they were: `手数＝N` (its grammar has no such line), a `…の入玉勝ち`
    summary (nor such a summary; kifconv writes one only when no 入玉勝ち
    terminal line can say it), and a final illegal move its board refuses (a
    second pawn on a file, a move the piece cannot make), i.e. the numbered
    move line after kifconv's mainline."""
    lines = open(path, encoding="utf-8").read().split("\n")
    kept, dropped, seen = [], [], 0
    in_mainline = True
    for line in lines:
        if line.startswith("変化："):
            in_mainline = False
        if line.startswith("手数＝"):
            dropped.append("手数＝ line")
            continue
        if line.startswith("まで") and "の入玉勝ち" in line:
            dropped.append("入玉勝ち summary")
            line = line.replace("の入玉勝ち", "の勝ち")
        if in_mainline and re.match(r"^ *[0-9]+ ", line):
            seen += 1
            if seen == len(moves) + 1 and re.search(r"\([1-9][1-9]\)|打", line):
                dropped.append("final illegal move " + line.split()[1])
                continue
        kept.append(line)
    return "\n".join(kept), dropped

expected = [row.rstrip("\n").split("\t") for row in open(os.path.join(work, "expected"), encoding="utf-8")]
blocks = blocks_of(open(os.path.join(work, "jkf.out"), encoding="utf-8").read())
passed, limits, failures, retries = 0, [], [], []
for game, source, usi in expected:
    start, moves = usi_game(usi)
    name = f"{source} (game {game.rsplit('-', 1)[1][:-4]})"
    why = verdict(blocks.get(game), start, moves)
    if why is None:
        passed += 1
        if verbose:
            print(f"ok {name}")
        continue
    text, dropped = without_known_limits(game, moves)
    if not dropped:
        failures.append(f"{name}: {why}")
        continue
    retry = game[:-4] + ".retry.kif"
    open(retry, "w", encoding="utf-8").write(text)
    retries.append((retry, name, start, moves, dropped, why))

answers = jkf([r[0] for r in retries]) if retries else {}
for retry, name, start, moves, dropped, why in retries:
    if verdict(answers.get(retry), start, moves) is None:
        limits.append(f"{name}: json-kifu-format reads it all but its {', '.join(dropped)} ({why})")
    else:
        failures.append(f"{name}: {why}")

for limit in limits:
    print("LIMIT", limit)
for failure in failures:
    print("FAIL", failure)
print(f"{len(expected)} games written as KIF: {passed} read by json-kifu-format with kifconv's "
      f"start and mainline; {len(limits)} read so once a line its grammar or board refuses is "
      f"taken out (手数＝N, 入玉勝ち summary, a final illegal move); {len(failures)} failed; "
      f"{unread} inputs kifconv does not read (skipped)")
sys.exit(1 if failures else 0)
PY
