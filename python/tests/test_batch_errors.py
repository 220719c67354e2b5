"""The batch functions behave like a Python library: typed exceptions,
warnings through `warnings`, Ctrl-C honoured, paths taken as paths."""

import os
import signal
import tempfile
import threading
import time
from pathlib import Path

import pytest

import kifconv
from conftest import FILTERS, REPO

BENCH = REPO.parent / "shared" / "bench" / "csa.zip"


class Fd2:
    """Captures what is written to file descriptor 2 itself (not only
    `sys.stderr`), as a terminal would see it."""

    def __enter__(self):
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.file.seek(0)
        self.text = self.file.read().decode("utf-8", "replace")
        self.file.close()


def test_a_path_that_looks_like_an_option_is_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("-j.usi").write_text("position startpos moves 7g7f 3c3d\n")
    summary = kifconv.convert("-j.usi", "csa")
    assert summary.converted == 1
    assert b"+7776FU" in summary.output


def test_a_bad_file_raises_kif_error_and_writes_nothing_to_fd_2(tmp_path):
    bad = tmp_path / "bad.csa"
    bad.write_text("+7776FU\n-7776FU\n")
    with Fd2() as fd2, pytest.raises(kifconv.KifError) as raised:
        kifconv.convert([FILTERS / "short.csa", bad], "usi")
    assert fd2.text == ""
    error = raised.value
    assert (error.path, error.line, error.column) == (str(bad), 2, 1)
    assert "move 2" in str(error)
    # errors="keep": the summary holds it, and still nothing on fd 2.
    with Fd2() as fd2:
        summary = kifconv.convert([FILTERS / "short.csa", bad], "usi", errors="keep")
    assert fd2.text == ""
    assert [i.status for i in summary.inputs] == ["ok", "failed"]
    assert summary.failed[0].error.startswith(f"{bad}:2:1: error: move 2")


def test_warnings_go_to_warnings_once(tmp_path):
    # An unknown header line is read leniently, with a warning.
    odd = tmp_path / "odd.kif"
    odd.write_text("先手：a\nこれは何\n手数----指手---------消費時間--\n   1 ７六歩(77)\n")
    with Fd2() as fd2, pytest.warns(kifconv.KifWarning) as caught:
        kifconv.convert(odd, "usi")
    assert fd2.text == ""
    messages = [str(w.message) for w in caught]
    assert messages, "a warning was expected"
    assert len(messages) == len(set(messages))


def test_keywords_are_checked_and_named():
    with pytest.raises(ValueError, match="min_rating must be a number ≥ 0"):
        kifconv.training(FILTERS, min_rating=-1)
    with pytest.raises(ValueError, match="jobs must be between 1 and"):
        kifconv.convert(FILTERS, "usi", jobs=10**6)
    with pytest.raises(ValueError, match="jobs must be between 1 and"):
        kifconv.training(FILTERS, jobs=0)
    with pytest.raises(ValueError, match="errors must be one of"):
        kifconv.convert(FILTERS, "usi", errors="ignore")
    with pytest.raises(ValueError, match="ply and all_plies go with"):
        kifconv.convert(FILTERS, "usi", ply=3)
    with pytest.raises(ValueError, match='results: "resign"'):
        kifconv.training(FILTERS, results=["resign"])
    with pytest.raises(ValueError, match="flip_fold goes with uniq"):
        kifconv.training(FILTERS, flip_fold=True, uniq=True)


def test_missing_inputs_are_the_os_errors(tmp_path):
    missing = tmp_path / "missing.kif"
    with pytest.raises(FileNotFoundError) as raised:
        kifconv.convert(missing, "usi")
    assert raised.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        kifconv.training([FILTERS, missing])
    with pytest.raises(FileNotFoundError):
        kifconv.book_build(missing, tmp_path / "b.db")
    assert not (tmp_path / "b.db").exists()


def test_a_failed_input_leaves_no_book(tmp_path):
    bad = tmp_path / "bad.csa"
    bad.write_text("+7776FU\n-7776FU\n")
    book = tmp_path / "b.db"
    with pytest.raises(kifconv.KifError, match="move 2"):
        kifconv.book_build([FILTERS / "short.csa", bad], book)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csa"]


def test_tsume_check_gives_a_verdict_a_problem():
    tsume = REPO / "fixtures" / "tsume"
    checked = kifconv.tsume_check(tsume, glob=["sound-*"], depth=11, errors="keep")
    assert checked, "the sound problems"
    assert {verdict for _, _, verdict, _ in checked} == {"sound"}
    path, game, _, report = checked[0]
    assert path.startswith(str(tsume)) and game == 1
    assert "shortest mate" in report


def test_ctrl_c_stops_a_long_convert_at_once(tmp_path):
    if not BENCH.exists():
        pytest.fail(f"{BENCH} is missing: the bench archives come with ../shared")
    out = tmp_path / "out"
    sent = [None]

    def send():
        sent[0] = time.monotonic()
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    timer = threading.Timer(0.3, send)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # Long enough to be running when the signal comes: the archive
        # five times over, one thread, into a folder.
        kifconv.convert([BENCH] * 5, "kifu", out, jobs=1)
    stopped = time.monotonic()
    timer.join()
    assert sent[0] is not None
    assert stopped - sent[0] < 1.0
    # Nothing half-written: no temporary file is left.
    left = [p.name for p in out.rglob("*") if p.name.endswith(".tmp")]
    assert left == []


def test_convert_takes_the_walk_the_resume_and_the_game_filters(tmp_path, cli):
    games = tmp_path / "games"
    (games / ".old").mkdir(parents=True)
    for name in ["rated-resign.csa", "short.csa"]:
        (games / name).write_bytes((FILTERS / name).read_bytes())
    (games / ".old" / "hidden.csa").write_bytes((FILTERS / "short.csa").read_bytes())
    out = tmp_path / "out"
    first = kifconv.convert(games, "kifu", out)
    assert [i.path.rsplit("/", 1)[-1] for i in first.inputs] == ["rated-resign.csa", "short.csa"]
    again = kifconv.convert(games, "kifu", out, skip_existing=True)
    assert [i.status for i in again.inputs] == ["skipped", "skipped"]
    assert [i.path.rsplit("/", 1)[-1] for i in kifconv.convert(games, "usi", hidden=True).inputs] == [
        "hidden.csa",
        "rated-resign.csa",
        "short.csa",
    ]
    # The game filters choose games for any target, as the command's do.
    kept = kifconv.convert(FILTERS, "usi", min_moves=10)
    command = cli(FILTERS, "--to", "usi", "--min-moves", "10")
    assert command.returncode == 0, command.stderr
    assert kept.output == command.stdout
    assert kept.output.count(b"\n") < kifconv.convert(FILTERS, "usi").output.count(b"\n")
    with pytest.raises(ValueError, match="skip_existing goes with output"):
        kifconv.convert(games, "usi", skip_existing=True)
