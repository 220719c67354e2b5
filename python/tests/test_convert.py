"""kifconv.convert: the batch library from Python."""

import shutil
import threading

import pytest

import kifconv
from conftest import FIXTURES, ran_meanwhile


@pytest.fixture
def folder(tmp_path):
    """Two good records and a bad one, in a folder with a subfolder."""
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    shutil.copy(FIXTURES / "kif" / "kifconv-three-games.kifu", root / "a.kifu")
    (root / "sub" / "b.csa").write_text("+7776FU\n-3334FU\n%TORYO\n")
    (root / "sub" / "c.csa").write_text("+7776FU\n-7776FU\n")
    return root


def test_convert_in_memory_equals_the_command(folder, cli):
    summary = kifconv.convert(folder, "usi", jobs=2, errors="keep")
    command = cli(folder, "--to", "usi", "-j", "2")
    assert command.returncode == 1
    assert summary.code == 1
    assert summary.output == command.stdout
    assert summary.output.count(b"\n") == 4  # three games of a.kifu and b.csa
    assert [i.path.rsplit("/", 1)[-1] for i in summary.inputs] == ["a.kifu", "b.csa", "c.csa"]
    assert summary.converted == 2
    assert summary.games == 4


def test_failures_carry_located_messages(folder):
    summary = kifconv.convert([folder / "sub" / "c.csa", folder / "sub" / "b.csa"], "usi", errors="keep")
    [failed] = summary.failed
    assert failed.status == "failed"
    assert failed.path.endswith("c.csa")
    assert failed.error.startswith(f"{folder / 'sub' / 'c.csa'}:2:1: error: move 2: ")
    assert [i.status for i in summary.inputs] == ["failed", "ok"]
    assert summary.output == b"position startpos moves 7g7f 3c3d\n"


def test_convert_into_a_folder(folder, tmp_path):
    out = tmp_path / "out"
    summary = kifconv.convert(folder, "csa", out, jobs=1, errors="keep")
    assert summary.output is None
    b = next(i for i in summary.inputs if i.path.endswith("b.csa"))
    assert [str(p) for p in b.outputs] == [str(out / "sub" / "b.csa")]
    assert "+7776FU" in (out / "sub" / "b.csa").read_text()
    assert not (out / "sub" / "c.csa").exists()
    # Never over existing outputs without force.
    again = kifconv.convert(folder, "csa", out, errors="keep")
    b_again = next(i for i in again.failed if i.path.endswith("b.csa"))
    assert "exists" in b_again.error
    forced = kifconv.convert(folder, "csa", out, force=True, errors="keep")
    assert [i.status for i in forced.inputs] == ["ok", "ok", "failed"]


def test_options_reach_the_command(folder, cli):
    b = folder / "sub" / "b.csa"
    flipped = kifconv.convert(b, "sfen", flip=True, all_plies=True)
    assert flipped.output == cli(b, "--to", "sfen", "--flip", "--all-plies").stdout
    # Three positions, then the empty line that ends the game.
    lines = flipped.output.decode().split("\n")
    assert len(lines) == 5 and all(lines[:3]) and lines[3:] == ["", ""]
    after_one = kifconv.convert(b, "sfen", ply=1).output
    assert after_one.decode().split(" ")[1] == "w"
    kif = kifconv.convert(b, "kif", out_encoding="utf-8").output.decode("utf-8")
    assert "７六歩(77)" in kif
    only_csa = kifconv.convert(folder, "usi", glob=["*.kifu"])
    assert [i.path.rsplit("/", 1)[-1] for i in only_csa.inputs] == ["a.kifu"]


def test_usage_errors_are_value_errors(folder):
    with pytest.raises(ValueError, match="docx"):
        kifconv.convert(folder, "docx")
    with pytest.raises(ValueError, match='ply and all_plies go with to="sfen"'):
        kifconv.convert(folder, "usi", ply=3)
    with pytest.raises(ValueError, match="no input"):
        kifconv.convert([], "usi")
    with pytest.raises(ValueError, match="jobs must be between 1 and"):
        kifconv.convert(folder, "usi", jobs=0)


def test_a_run_that_cannot_be_made_raises(folder, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OSError, match="cannot write to"):
        kifconv.convert(folder, "usi", blocker / "out")


def test_threads_convert_at_once(folder):
    alone = kifconv.convert(folder, "usi", jobs=1, errors="keep").output
    outputs = [None] * 4

    def work(i):
        outputs[i] = kifconv.convert(folder, "usi", jobs=1, errors="keep").output

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outputs == [alone] * 4


def test_convert_releases_the_interpreter_lock(tmp_path):
    for n in range(300):
        (tmp_path / f"{n}.csa").write_text("+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n")
    assert ran_meanwhile(lambda: kifconv.convert(tmp_path, "kifu", jobs=1)) > 0
