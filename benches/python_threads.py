"""Two Python threads calling kifconv.book_build at once, against one call
alone, in the same run: with no lock held across a call, two calls on two
cores take little more than one.

    target/py-venv/bin/python benches/python_threads.py [ARCHIVE]

ARCHIVE defaults to ../shared/bench/csa.zip. Each call uses one worker
thread (jobs=1), so two calls want two cores. Prints the best of three
for each, and their ratio.
"""

import sys
import tempfile
import threading
import time
from pathlib import Path

import kifconv

REPO = Path(__file__).resolve().parents[1]
archive = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "bench" / "csa.zip"


def build(folder: Path, name: str) -> None:
    kifconv.book_build(archive, folder / name, jobs=1, max_ply=40, force=True)


def best(run, times=3) -> float:
    seconds = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - started)
    return min(seconds)


with tempfile.TemporaryDirectory() as tmp:
    folder = Path(tmp)

    def one():
        build(folder, "one.db")

    def two():
        threads = [threading.Thread(target=build, args=(folder, f"{n}.db")) for n in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    alone = best(one)
    together = best(two)
    print(f"one call: {alone:.2f} s; two calls in two threads: {together:.2f} s; ratio {together / alone:.2f}")
