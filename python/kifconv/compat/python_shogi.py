"""python-shogi's record readers (``shogi.CSA``, ``shogi.KIF``) over
kifconv's: ``CSA.Parser.parse_file(path)``, ``CSA.Parser.parse_str(text)``,
``KIF.Parser.parse_file(path)`` and ``KIF.Parser.parse_str(text)`` give,
as python-shogi does, a list of dicts::

    {"names": [black, white], "sfen": start, "moves": ["7g7f", ...],
     "win": "b" | "w" | "-" | None}

``names`` are None when absent, ``moves`` are USI. ``win``: in CSA, the
player to move after the last move lost by ``%TORYO``, ``%TIME_UP`` and
``%ILLEGAL_MOVE``, a signed ``%ILLEGAL_ACTION`` names the loser, anything
else is ``-``; in KIF, the winner of the record's ending, ``-`` for 千日手,
持将棋 and 中断, None for any other ending without a winner (封じ手) and for
a record without an ending.

Where kifconv reads a record differently from python-shogi, on purpose:

* Every game of a file is given (python-shogi's CSA reader refuses a file
  of several games; its KIF reader gives the first).
* Any format and encoding is read, told from the content, and a record
  kifconv cannot read raises :class:`kifconv.KifError` (python-shogi's
  KIF ``parse_file`` gives None).
* Start positions: hands such as ``P+00KI00KI`` and ``AL``, CSA rows that
  do not end in `` * ``, and the side to move of a KIF board diagram are
  read right.
* Variations are not the mainline (python-shogi can read a variation's
  moves into it).
* ``win`` is the winner kifconv reads: from the terminal word, a ``まで``
  line in any wording, or the board; a CSA special move with a time after
  a comma (``%TORYO, T4``) ends the game too (python-shogi gives ``-``).
"""

from __future__ import annotations

import os
from typing import IO, Any, Callable

import kifconv
from kifconv import Record

from . import cshogi as _cshogi


def _csa_win(record: Record) -> str:
    moves = len(record.moves)
    white = _cshogi._white_to_move_at_end(record, moves)
    endgame = _cshogi._csa_word(record, white)
    if endgame in ("%TORYO", "%TIME_UP", "%ILLEGAL_MOVE"):
        return "b" if white else "w"
    if endgame == "%+ILLEGAL_ACTION":
        return "w"
    if endgame == "%-ILLEGAL_ACTION":
        return "b"
    return "-"


def _kif_win(record: Record) -> str | None:
    ending = record.ending
    if ending is None:
        return None
    if ending["winner"] is not None:
        return "b" if ending["winner"] == "black" else "w"
    return "-" if ending["kind"] in _DRAWN else None


# The endings without a winner that python-shogi's KIF reader calls "-".
_DRAWN = {"sennichite", "jishogi", "chudan"}


def _summary(record: Record, win: str | None) -> dict[str, Any]:
    return {
        "names": [record.black_player, record.white_player],
        "sfen": record.start_sfen,
        "moves": record.moves,
        "win": win,
    }


class _Parser:
    """python-shogi's ``Parser`` of one format: its readers, each record's
    ``win`` by the format's rule (``_win``)."""

    _win: Callable[[Record], str | None]

    @classmethod
    def parse_file(cls, path: str | os.PathLike[str] | IO[Any]) -> list[dict[str, Any]]:
        """Every game of a file, as python-shogi's dicts."""
        return [_summary(r, cls._win(r)) for r in _cshogi._read(path)]

    @classmethod
    def parse_str(cls, text: str) -> list[dict[str, Any]]:
        """Every game of a str, as python-shogi's dicts."""
        return [_summary(r, cls._win(r)) for r in kifconv.read_text(text)]


class _CsaParser(_Parser):
    """python-shogi's ``shogi.CSA.Parser``."""

    _win = staticmethod(_csa_win)


class _KifParser(_Parser):
    """python-shogi's ``shogi.KIF.Parser``."""

    _win = staticmethod(_kif_win)


class CSA:
    """``shogi.CSA``: ``CSA.Parser.parse_file``, ``CSA.Parser.parse_str``."""

    Parser = _CsaParser


class KIF:
    """``shogi.KIF``: ``KIF.Parser.parse_file``, ``KIF.Parser.parse_str``."""

    Parser = _KifParser


__all__ = ["CSA", "KIF"]
