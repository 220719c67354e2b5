"""Paths and helpers shared by the tests: the repository's fixtures, and
the ``kifconv`` command, whose outputs the package must match."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
FILTERS = FIXTURES / "training" / "filters"


def cli_path() -> Path | None:
    """The command: $KIFCONV_BIN, else the repository's build, else PATH."""
    given = os.environ.get("KIFCONV_BIN")
    if given:
        return Path(given)
    for profile in ("release", "debug"):
        built = REPO / "target" / profile / "kifconv"
        if built.exists():
            return built
    found = shutil.which("kifconv")
    return Path(found) if found else None


@pytest.fixture
def cli():
    """Runs the command with arguments; gives the finished process."""
    path = cli_path()
    if path is None:
        pytest.skip("the kifconv command is not built (cargo build), nor KIFCONV_BIN set")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(path), *map(str, args)], capture_output=True, check=False)

    return run


def ran_meanwhile(call):
    """How many times another Python thread ran while `call()` ran in this
    one. With a switch interval of 100 s the interpreter never takes the
    lock from a thread that holds it, so the other thread runs only when
    `call` lets the lock go: 0 if it keeps it throughout."""
    import sys
    import threading
    import time

    count = 0
    stop = threading.Event()
    started = threading.Event()

    def other():
        nonlocal count
        started.set()
        while not stop.is_set():
            count += 1
            time.sleep(0)  # lets the lock go, for `call`'s thread to take it back

    interval = sys.getswitchinterval()
    thread = threading.Thread(target=other)
    thread.start()
    started.wait()
    sys.setswitchinterval(100)
    try:
        before = count
        call()
        after = count
    finally:
        sys.setswitchinterval(interval)
        stop.set()
        thread.join()
    return after - before
