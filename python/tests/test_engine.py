"""kifconv.Engine and kifconv.analyze against a real engine: YaneuraOu's
material edition from ../shared/tools/engines (a failure when it is
missing and KIFCONV_REQUIRE_SHARED=1, as CI runs; else a skip)."""

import os
import subprocess
from pathlib import Path

import pytest

import kifconv

from conftest import REPO


def yaneuraou() -> str:
    script = REPO.parent / "shared" / "tools" / "engines" / "engine.sh"
    if not script.exists():
        if os.environ.get("KIFCONV_REQUIRE_SHARED") == "1":
            pytest.fail(f"{script} is missing")
        pytest.skip(f"{script} is missing")
    out = subprocess.run(["bash", str(script), "material"], capture_output=True, check=True, text=True)
    return out.stdout.strip()


OPTIONS = {"Threads": "1", "USI_Hash": "16", "BookFile": "no_book"}


def running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def test_an_engine_searches_and_its_moves_are_legal():
    with kifconv.Engine(yaneuraou(), OPTIONS) as engine:
        assert "YaneuraOu" in engine.name
        assert "MultiPV" in engine.options
        search = engine.analyse("position startpos moves 7g7f 3c3d", nodes=2000)
        # The best move and the line play on from the position.
        line = " ".join([search.bestmove, *search.lines[0].pv[1:]])
        kifconv.read_text(f"position startpos moves 7g7f 3c3d {line}")
        best = search.lines[0]
        assert best.multipv == 1 and best.depth and best.nodes
        assert isinstance(best.score_cp, int) and best.mate is None and best.bound == "exact"
        assert any(info.nodes for info in search.infos)
        # Black, a rook up, is well ahead.
        ahead = engine.analyse("4k4/9/9/9/9/9/9/9/4K4 b R 1", depth=6).lines[0]
        assert (ahead.score_cp or 0) > 300 or (ahead.mate or 0) > 0
        engine.set_option("MultiPV", "3")
        assert [line.multipv for line in engine.analyse("startpos", nodes=3000).lines] == [1, 2, 3]
        pid = engine.pid
    assert not running(pid), "the engine ended with the block"
    with pytest.raises(kifconv.EngineError, match="it has quit"):
        engine.analyse("startpos", nodes=10)


def test_engine_errors_are_engine_errors(tmp_path):
    with pytest.raises(kifconv.EngineError, match="cannot start it"):
        kifconv.Engine("/no/such/engine")
    script = tmp_path / "illegal.sh"
    script.write_text(
        "while read -r line; do case \"$line\" in\n"
        "usi) echo 'id name illegal'; echo usiok;;\n"
        "isready) echo readyok;;\n"
        "go*) echo 'bestmove 5e5d';;\n"
        "esac; done\n"
    )
    with kifconv.Engine(f"sh {script}", timeout=5) as engine:
        with pytest.raises(kifconv.EngineError, match="bestmove `5e5d` is not legal"):
            engine.analyse("startpos", nodes=1)
    with pytest.raises(ValueError, match="give one of nodes, depth or movetime"):
        kifconv.Engine(yaneuraou(), OPTIONS).analyse("startpos")


def test_analyze_writes_what_the_command_writes(tmp_path, cli):
    engine = yaneuraou()
    games = REPO / "fixtures" / "csa"
    source = games / "shogihome-v3.csa"
    options = [a for k, v in OPTIONS.items() for a in ("--option", f"{k}={v}")]
    done = cli("analyze", source, "--to", "kif", "--engine", engine, "--nodes", "1000", *options)
    assert done.returncode == 0, done.stderr
    summary = kifconv.analyze(source, "kif", engine=engine, nodes=1000, options=OPTIONS)
    assert summary.output == done.stdout
    assert "#評価値=".encode("cp932") in summary.output
    with pytest.raises(ValueError, match="an analysis is written in comments"):
        kifconv.analyze(source, "usi", engine=engine)


def test_book_mine_digs_the_book_the_command_digs(tmp_path, cli):
    engine = yaneuraou()
    start = "position startpos moves 7g7f 3c3d 2g2f"
    (tmp_path / "from.txt").write_text(start + "\n")
    options = [a for k, v in OPTIONS.items() for a in ("--option", f"{k}={v}")]
    by_cli = tmp_path / "cli.db"
    done = cli(
        "book", "mine", by_cli, "--engine", engine, "--nodes", "1000", "--multipv", "2",
        "--max-ply", "6", "--from", tmp_path / "from.txt", *options,
    )
    assert done.returncode == 0, done.stderr
    by_python = tmp_path / "python.db"
    counts = kifconv.book_mine(
        by_python, engine=engine, nodes=1000, multipv=2, max_ply=6, start=[start], options=OPTIONS
    )
    assert by_python.read_bytes() == by_cli.read_bytes()
    assert counts["searched"] > 0 and counts["failures"] == []
    assert counts["positions"] == counts["searched"]
    sfens = [line for line in by_python.read_text().splitlines() if line.startswith("sfen ")]
    assert sfens and all(" b " in line for line in sfens), "black to move only"
    # Run again: everything is in the book already.
    again = kifconv.book_mine(
        by_python, engine=engine, nodes=1000, multipv=2, max_ply=6, start=[start], options=OPTIONS
    )
    assert again["searched"] == 0 and again["present"] + again["flips"] > 0
