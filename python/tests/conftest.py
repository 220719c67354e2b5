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
