"""Warnings go through `warnings`, once each, and nothing is written to
the process's standard error (fd 2) by the functions that read, query
and solve: a library must not print behind its caller's back."""

import contextlib
import os
import sys
import warnings

import pytest

import kifconv
from conftest import FIXTURES

LENIENT = FIXTURES / "kif" / "kifconv-warned-leniencies.kifu"
PARTIAL = FIXTURES / "partial" / "csa-bad-second-game.csa"
# Two black pawns on file 5 (二歩): read, with a warning.
NIFU = "4k4/9/4P4/4P4/9/9/9/9/9 b G 1"


@contextlib.contextmanager
def fd2_into(path):
    """Everything written to fd 2 meanwhile goes into the file `path`."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "wb") as sink:
        os.dup2(sink.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def warned(call):
    """The KifWarning messages `call()` gives, with every warning shown."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert all(w.category is kifconv.KifWarning for w in caught), caught
    return [str(w.message) for w in caught]


def raises(error, call):
    def run():
        with pytest.raises(error):
            call()

    return run


def test_nothing_reaches_fd_2_and_each_warning_comes_once(tmp_path):
    book = tmp_path / "book.db"
    book.write_text(
        "#YANEURAOU-DB2016 1.00\n"
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
        "7g7f none 0 0 1\n"
    )
    # A warning for each leniency the records hold, and for each bad game
    # left out (the second of PARTIAL).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        leniencies = len(kifconv.read(LENIENT)[0].warnings)
        kept = sum(len(r.warnings) for r in kifconv.read(PARTIAL, errors="keep"))
    assert leniencies >= 4 and kept >= 1
    # (call, how many warnings it must give)
    calls = [
        (lambda: kifconv.read(LENIENT), leniencies),
        (lambda: kifconv.read_text(LENIENT.read_text()), leniencies),
        (lambda: kifconv.read(PARTIAL, errors="keep"), kept + 1),
        (lambda: kifconv.flip(NIFU), 1),
        (lambda: kifconv.mate(NIFU, depth=3), 1),
        (lambda: kifconv.book_query(book, NIFU), 1),
        (lambda: kifconv.book_query(book, "startpos"), 0),
        (raises(kifconv.KifError, lambda: kifconv.read(PARTIAL)), 0),
        (raises(FileNotFoundError, lambda: kifconv.read(tmp_path / "none.kif")), 0),
        (raises(ValueError, lambda: kifconv.mate("4k4/9/9/9/9/9/9/9/9 w G 1")), 0),
        (raises(ValueError, lambda: kifconv.read(b"x", errors="nope")), 0),
        (raises(TimeoutError, lambda: kifconv.mate(NIFU, depth=9, nodes=1)), 1),
    ]
    sink = tmp_path / "fd2.txt"
    for number, (call, expected) in enumerate(calls):
        with fd2_into(sink):
            messages = warned(call)
        assert sink.read_bytes() == b"", (number, sink.read_text())
        assert len(messages) == expected, (number, messages)
        assert len(set(messages)) == len(messages), (number, messages)
