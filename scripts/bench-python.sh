#!/usr/bin/env bash
# The Python package against the command, on the 10,000 KIF bench games
# (Shift_JIS, extracted from kif-sjis.zip into a temporary folder):
#
#  1. kifconv.convert(folder, "usi") from Python against `kifconv folder
#     --to usi` (the same batch runner, the same jobs): the ratio of the
#     best of five runs each, alternated; the bar is 1.3×. The outputs
#     must be the same bytes.
#  2. kifconv.read over every file, by 4 Python threads against 1: the
#     lock is released while a file is read and parsed, so 4 threads must
#     be faster (on 2 cores, at most about 2×). hashlib.sha256, which lets
#     the lock go too, is timed the same way beside it: the parallelism the
#     machine gives at that moment.
#
# Builds the release command and installs ./python into target/py-venv
# (made if missing) first.
#
#   scripts/bench-python.sh [--bench DIR] [-j N]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$HERE/../shared/bench"
JOBS=2
while [ $# -gt 0 ]; do
  case $1 in
    --bench) BENCH=$2; shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    *) echo "usage: $0 [--bench DIR] [-j N]" >&2; exit 2 ;;
  esac
done
cd "$HERE"
cargo build --release --quiet
VENV="$HERE/target/py-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$VENV/bin/python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
  "$BENCH/kif-sjis.zip" "$DIR/kif"
"$VENV/bin/python" - "$HERE/target/release/kifconv" "$DIR/kif" "$JOBS" <<'PY'
import subprocess, sys, threading, time, warnings
from pathlib import Path

import kifconv

cli, folder, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(str(p) for p in Path(folder).rglob("*.kif"))
print(f"{len(files)} KIF files, -j{jobs}")

def command():
    done = subprocess.run([cli, folder, "--to", "usi", "-q", "-j", str(jobs)],
                          capture_output=True, check=True)
    return done.stdout

def python():
    summary = kifconv.convert(folder, "usi", jobs=jobs)
    assert summary.code == 0 and summary.converted == len(files), summary
    return summary.output

def timed(f):
    start = time.perf_counter()
    out = f()
    return time.perf_counter() - start, out

best = {"command": float("inf"), "python": float("inf")}
outputs = {}
for _ in range(5):
    for name, f in (("command", command), ("python", python)):
        seconds, out = timed(f)
        best[name] = min(best[name], seconds)
        outputs[name] = out
same = outputs["command"] == outputs["python"]
ratio = best["python"] / best["command"]
print(f"convert: command {best['command']:.2f} s, kifconv.convert {best['python']:.2f} s, "
      f"ratio {ratio:.2f}x (bar 1.3x: {'met' if ratio <= 1.3 else 'NOT met'}); "
      f"outputs {'identical' if same else 'DIFFER'}")

def read_all(threads):
    """Every file read by `threads` Python threads, each taking the next
    path from one shared iterator; the mainline moves counted."""
    paths = iter(files)
    totals = [0] * threads

    def work(i):
        for path in paths:
            totals[i] += len(kifconv.read(path)[0].moves)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if threads == 1:
            work(0)
        else:
            pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
            for t in pool:
                t.start()
            for t in pool:
                t.join()
    return sum(totals)

# The control: hashlib.sha256, which lets the lock go too, on as many
# bytes by the same threads: how much parallelism the machine gives at the
# moment (other processes share its two cores).
import hashlib
blobs = [b"x" * (1 << 20)] * 500

def hash_all(threads):
    chunks = iter(blobs)

    def work():
        for b in chunks:
            hashlib.sha256(b).digest()

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return len(blobs)

reads = {1: float("inf"), 4: float("inf")}
hashes = {1: float("inf"), 4: float("inf")}
moves = {}
for _ in range(3):
    for threads in (1, 4):
        seconds, moves[threads] = timed(lambda: read_all(threads))
        reads[threads] = min(reads[threads], seconds)
        seconds, _ = timed(lambda: hash_all(threads))
        hashes[threads] = min(hashes[threads], seconds)
assert moves[1] == moves[4]
speedup = reads[1] / reads[4]
control = hashes[1] / hashes[4]
print(f"read: 1 thread {reads[1]:.2f} s, 4 threads {reads[4]:.2f} s, speed-up {speedup:.2f}x "
      f"({moves[1]} moves; bar: faster: {'met' if speedup > 1 else 'NOT met'}); "
      f"control, sha256 by the same threads: {control:.2f}x")
sys.exit(0 if same and ratio <= 1.3 and speedup > 1 else 1)
PY
