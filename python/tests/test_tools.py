"""kifconv.flip, kifconv.mate, kifconv.book_build and kifconv.book_query."""

import pytest

import kifconv
from conftest import FILTERS, FIXTURES

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def test_flip_moves_and_positions():
    assert kifconv.flip("7g7f") == "3c3d"
    assert kifconv.flip("8h2b+") == "2b8h+"
    assert kifconv.flip("P*5e") == "P*5e"
    assert kifconv.flip("startpos") == START.replace(" b ", " w ")
    after = kifconv.flip("position startpos moves 7g7f")
    assert after == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2"
    assert kifconv.flip(kifconv.flip(START)) == START
    with pytest.raises(ValueError):
        kifconv.flip("not a position")


def test_mate_in_one(cli):
    # A gold dropped on 5b, in front of the king, the pawn on 5c behind it.
    assert kifconv.mate("4k4/9/4P4/9/9/9/9/9/4K4 b G 1") == ["G*5b"]
    assert kifconv.mate("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", depth=1) == ["G*5b"]
    assert kifconv.mate("startpos") == []
    # The king in the corner, a gold beside the pawn and one in hand: four
    # mates (余詰), in the command's order.
    four = "8k/9/7GP/9/9/9/9/9/K8 b G 1"
    assert kifconv.mate(four) == ["1c1b+", "2c1b", "G*1b", "G*2b"]
    listed = cli("mate", four).stdout.decode().splitlines()[:-1]
    assert kifconv.mate(four) == [line.split("\t")[0] for line in listed]


def test_deeper_mates_wait_for_the_solver():
    with pytest.raises(ValueError, match="only depth 1 in this build"):
        kifconv.mate("startpos", depth=3)
    with pytest.raises(ValueError, match="only depth 1"):
        kifconv.mate("startpos", depth=0)
    with pytest.raises(ValueError):
        kifconv.mate("9/9/9 b - 1")


def test_book_build_and_query_equal_the_command(tmp_path, cli):
    book = tmp_path / "book.db"
    counts = kifconv.book_build(FILTERS, book, flip_fold=True, max_ply=6, jobs=2)
    theirs = tmp_path / "theirs.db"
    command = cli("book", "build", FILTERS, "-o", theirs, "--flip-fold", "--max-ply", "6", "-j", "2")
    assert command.returncode == 0, command.stderr
    assert book.read_bytes() == theirs.read_bytes()
    assert counts["positions"] == book.read_text().count("\nsfen ") + book.read_text().startswith("sfen ")
    assert counts["moves"] > 0
    answer = kifconv.book_query(book, "startpos")
    assert answer["flipped"] is False and answer["sfen"] == START
    assert answer["moves"][0]["move"] == "7g7f"
    assert answer["moves"][0]["count"] == 6
    # White to move: found as its rotation, the moves rotated back.
    white = kifconv.book_query(book, "position startpos moves 7g7f")
    assert white["flipped"] is True
    assert white["moves"][0]["move"] == "3c3d"
    assert kifconv.book_query(book, "9/4k4/9/9/9/9/9/9/4K4 b - 1") is None
    with pytest.raises(FileExistsError):
        kifconv.book_build(FILTERS, book)
    kifconv.book_build(FILTERS / "short.csa", book, force=True)
    assert kifconv.book_query(book, "startpos")["moves"][0]["count"] == 1


def test_a_book_with_failed_inputs_warns(tmp_path):
    bad = tmp_path / "bad.csa"
    bad.write_text("+7776FU\n-7776FU\n")
    with pytest.warns(kifconv.KifWarning, match="left out of the book"):
        counts = kifconv.book_build([bad, FILTERS / "short.csa"], tmp_path / "b.db")
    assert counts == {"positions": 2, "moves": 2}


def test_query_errors(tmp_path):
    with pytest.raises(OSError):
        kifconv.book_query(tmp_path / "missing.db", "startpos")
    with pytest.raises(ValueError):
        kifconv.book_query(FIXTURES / "no.db", "nonsense")
