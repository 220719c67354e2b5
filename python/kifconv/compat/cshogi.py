"""cshogi's record readers (``cshogi.CSA``, ``cshogi.KIF``, ``cshogi.KI2``)
over kifconv's: a script that reads records with cshogi switches by
changing its import::

    from kifconv.compat import cshogi      # instead of: import cshogi
    import cshogi as real_cshogi           # cshogi's Board stays cshogi's

    for kif in cshogi.CSA.Parser.parse_file(path):
        board = real_cshogi.Board(kif.sfen)
        for move in kif.moves:
            board.push(move)

``CSA.Parser.parse_file(file, encoding=None)`` and
``CSA.Parser.parse_str(text)`` give a list of objects, one per game;
``KIF.Parser`` and ``KI2.Parser``'s ``parse_file(path)`` and
``parse_str(text)`` give one object, the first game's (a list of every
game's with ``all_games=True``). Each reads every
format kifconv reads (told from the content); which namespace is used
decides the shape of the object, as cshogi shapes it:

* CSA: ``names`` (``''`` when absent), ``ratings`` (floats, from
  floodgate's ``'black_rate:NAME:RATE`` comments; 0.0 when absent),
  ``sfen``, ``moves`` (cshogi's 32-bit integers: ``7g7f`` is 0x11e3b,
  ``8h2b+`` 0x55630a), ``times`` (whole seconds, 0 for a move without a
  time, then the time written with the ending if any), ``scores`` and
  ``comments`` (per move, from ``'**`` engine comments: the first number
  and the text; 0 and ``''`` without), ``win`` (``BLACK_WIN`` 1,
  ``WHITE_WIN`` 2, ``DRAW`` 0), ``endgame`` (``%TORYO``, …, ``''``
  without), ``version`` (``V2.2``), ``var_info`` (the ``$`` headers) and
  ``comment`` (every other comment line, each as ``'text`` and a newline).
* KIF: ``names`` (None when absent), ``sfen``, ``moves``, ``times``
  (seconds of each move that gives a time, then the ending's),
  ``comments`` (by move, None for a move without one, up to the last move
  commented), ``win``, ``endgame`` (None without a result), ``var_info``
  (the other headers), ``comment`` (the comments before the first move)
  and ``starttime`` (a datetime from 開始日時, or None).
* KI2: as KIF without ``times``; ``comments`` has an item per comment
  line and is padded to the number of moves, ``endgame`` is ``''``
  without a result, and 開始日時 is not in ``var_info``.

Every object also has ``record``, the :class:`kifconv.Record` it was made
from. A record kifconv cannot read raises :class:`kifconv.KifError`.

Where kifconv reads a record differently from cshogi, on purpose:

* Encodings: any file is read in its encoding, told from its content
  (cshogi's CSA ``parse_file`` takes UTF-8 unless told, its KIF one CP932
  unless the name ends in ``.kifu``, its KI2 one CP932 only).
* Start positions: a KIF or KI2 board diagram (BOD) is the start
  position (cshogi starts from 平手 and its moves go wrong); CSA ``P+``
  and ``P-`` piece lists and ``AL`` are read (cshogi's reader crashes).
* Moves: a record is read whole and every move checked legal. A record
  with an illegal move raises KifError, except a foul that ends the game
  (反則勝ち, 反則負け), which ends it before the illegal move (cshogi keeps
  that move in ``moves``, and any move it could not play). A move after
  the end of the game without a ``変化`` line raises KifError (cshogi
  reads on past a 投了 line). The moves of a variation (``変化：``) are
  not the mainline's (cshogi reads them into it when no ``まで`` line
  comes first). KIF moves cshogi's pattern does not match (``同玉``
  without a full-width space) are read (cshogi skips them and goes wrong
  from there), and so are their times (cshogi's pattern misses
  ``(0:01 / 0:00:01)`` and ``( 0:01/)``). KI2 moves are read right
  (cshogi's KI2 reader fails from the third move on one line and can take
  a board move for a drop).
* Endings of KIF and KI2: ``endgame`` and ``win`` come from the ending
  kifconv reads for the mainline: the terminal word's line (投了, 詰み,
  中断, 反則勝ち, …) as well as the ``まで`` line in any wording
  (``まで64手で詰み``); cshogi reads only a ``まで…の勝ち`` (or 千日手,
  持将棋, 中断) line: without one it gives None (KI2: ``''``), and where
  the terminal word and the ``まで`` line disagree it takes the ``まで``
  line.
* Games: cshogi's KIF and KI2 readers stop at the ``まで`` line, so a file
  of several games gives its first; so does this module by default, and
  ``all_games=True`` gives every game, as a list.
* Headers: KIF header values lose their surrounding spaces, and ``#``
  lines are comments, not headers (cshogi keeps a ``#`` line with a
  ``：`` in ``var_info``). A header given twice counts once, as first
  given, with a warning (cshogi takes the last: a second 手合割 changes
  its start position).
* SFEN hands are in SFEN's order (``2g8p``; cshogi's CSA reader keeps the
  order of the ``P+00``/``P-00`` lines); a CSA ``00AL`` puts the remaining
  pieces in hand (cshogi ignores it).
* The winner of a mate: cshogi's CSA reader gives ``%TSUMI`` no winner
  (``DRAW``), and so does this module by default; ``mate_winner=True``
  gives the winner kifconv reads (the player who mates).
* CSA lines joined with commas (``+7776FU,T3,'** 30``): the time and the
  comments after the comma are read (cshogi drops them).
* A CSA move that names a promoted piece by its unpromoted name
  (``+3344KA`` for a horse) is read as the move it is (cshogi gives 0).
* ``version`` is the game's first ``V`` line (cshogi: the last line that
  starts with ``V``).
* The V3.0 ``'CSA encoding=`` line tells the decoder the encoding; it is
  no comment (cshogi keeps it in ``comment``).
* A comment's text: kifconv drops the ``'`` and one ``*`` of a CSA
  comment, so ``comment`` writes ``'*text`` back as ``'text``.
"""

from __future__ import annotations

import datetime
import os
import re
from typing import IO, Any, Iterable

import kifconv
from kifconv import Record

BLACK_WIN = 1
"""``win`` when Black won."""
WHITE_WIN = 2
"""``win`` when White won."""
DRAW = 0
"""``win`` of a draw (and, in CSA, of any ending without a winner)."""

_ENCODINGS = {
    "utf-8": "utf-8",
    "utf8": "utf-8",
    "utf-8-sig": "utf-8",
    "cp932": "sjis",
    "sjis": "sjis",
    "shift_jis": "sjis",
    "shift-jis": "sjis",
    "ms932": "sjis",
    "euc-jp": "euc-jp",
    "euc_jp": "euc-jp",
    "eucjp": "euc-jp",
}


def _encoding(encoding: str | None) -> str | None:
    if encoding is None:
        return None
    try:
        return _ENCODINGS[encoding.lower()]
    except KeyError:
        raise ValueError(
            f"encoding {encoding!r}: kifconv reads UTF-8, CP932 and EUC-JP"
        ) from None


def _read(file: Any, encoding: str | None = None) -> list[Record]:
    """Every game of a path, an open file (text or binary) or bytes."""
    encoding = _encoding(encoding)
    if isinstance(file, (str, os.PathLike)):
        return kifconv.read(file, encoding=encoding)
    if isinstance(file, (bytes, bytearray)):
        return kifconv.read(bytes(file), encoding=encoding)
    data = file.read()
    if isinstance(data, str):
        return kifconv.read_text(data)
    return kifconv.read(bytes(data), encoding=encoding)


def _white_to_move_at_end(record: Record, moves: int) -> bool:
    """Whether White is to move after the mainline."""
    white_starts = record.start_sfen.split()[1] == "w"
    return white_starts != (moves % 2 == 1)


_CSA_SPECIALS = {
    "TORYO", "CHUDAN", "SENNICHITE", "OUTE_SENNICHITE", "TIME_UP",
    "ILLEGAL_MOVE", "+ILLEGAL_ACTION", "-ILLEGAL_ACTION", "JISHOGI", "KACHI",
    "HIKIWAKE", "MAX_MOVES", "TSUMI", "FUZUMI", "MATTA", "ERROR",
}


def _csa_word(record: Record, white_to_move: bool) -> str:
    """The ending as a CSA special move (``%TORYO``), or ``''`` without
    one: as written in a CSA record, else the special of kifconv's kind
    of ending (a foul by the player to move is %ILLEGAL_MOVE, by the
    other player the signed %ILLEGAL_ACTION; an ending CSA has no word
    for is %CHUDAN)."""
    ending = record.ending
    if ending is None:
        return ""
    text = ending["text"].lstrip("%")
    if text in _CSA_SPECIALS:
        return "%" + text
    kind, winner = ending["kind"], ending["winner"]
    if kind == "illegal_move" and winner is not None:
        if (winner == "white") == white_to_move:
            return "%+ILLEGAL_ACTION" if winner == "white" else "%-ILLEGAL_ACTION"
        return "%ILLEGAL_MOVE"
    if kind == "other":
        return "%CHUDAN"
    return "%" + kind.upper()


_WINNER = {"black": BLACK_WIN, "white": WHITE_WIN}
_NUMBER = re.compile(r"\s*([+-]?\d+)")
_RATING = re.compile(r"\s*([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)")


def _leading_int(text: str) -> int:
    m = _NUMBER.match(text)
    return int(m.group(1)) if m else 0


def _is_engine(comment: str) -> bool:
    """Whether a kifconv comment was a CSA ``'**`` engine comment."""
    return comment == "*" or comment.startswith("* ")


def _as_written(comment: str) -> str:
    """A kifconv CSA comment as cshogi keeps it in ``comment``."""
    return "'" + ("*" + comment if comment.startswith("*") else comment)


def _rating(comments: Iterable[str], key: str) -> float:
    for comment in comments:
        if comment.startswith(key):
            m = _RATING.match(comment.rsplit(":", 1)[1])
            return float(m.group(1)) if m else 0.0
    return 0.0


def _csa_win(record: Record, endgame: str, moves: int, mate_winner: bool) -> int:
    """cshogi's CSA ``win``: the player to move after the mainline lost
    by %TORYO, %TIME_UP and %ILLEGAL_MOVE and won by %KACHI; a signed
    %ILLEGAL_ACTION names the loser; anything else is DRAW."""
    white = _white_to_move_at_end(record, moves)
    to_move, other = (WHITE_WIN, BLACK_WIN) if white else (BLACK_WIN, WHITE_WIN)
    if endgame in ("%TORYO", "%TIME_UP", "%ILLEGAL_MOVE"):
        return other
    if endgame == "%KACHI":
        return to_move
    if endgame == "%+ILLEGAL_ACTION":
        return WHITE_WIN
    if endgame == "%-ILLEGAL_ACTION":
        return BLACK_WIN
    if endgame == "%TSUMI" and mate_winner:
        winner = (record.ending or {}).get("winner")
        return _WINNER.get(winner, DRAW) if winner else DRAW
    return DRAW


def _kakinoki_result(record: Record, ki2: bool) -> tuple[int | None, str | None]:
    """cshogi's KIF and KI2 ``win`` and ``endgame``, from kifconv's
    ending: a win by a foul of the loser is %ILLEGAL_MOVE, by a foul of
    the winner's (反則勝ち) the signed %ILLEGAL_ACTION, by entering king
    %KACHI, any other win %TORYO; 中断 is %CHUDAN with no winner; any
    千日手 and 持将棋 DRAW, %SENNICHITE (持将棋 in KI2: %JISHOGI); any other
    ending none."""
    ending = record.ending
    if ending is None:
        return None, ("" if ki2 else None)
    kind, winner = ending["kind"], ending["winner"]
    if winner is not None:
        win = _WINNER[winner]
        if kind == "illegal_move":
            if "反則勝ち" in ending["text"]:
                return win, "%+ILLEGAL_ACTION" if winner == "black" else "%-ILLEGAL_ACTION"
            return win, "%ILLEGAL_MOVE"
        if kind == "kachi":
            return win, "%KACHI"
        return win, "%TORYO"
    if kind == "chudan":
        return None, "%CHUDAN"
    if kind == "jishogi":
        return DRAW, "%JISHOGI" if ki2 else "%SENNICHITE"
    if kind == "sennichite":
        return DRAW, "%SENNICHITE"
    # An ending cshogi has no result for (封じ手, say).
    return None, ("" if ki2 else None)


def _starttime(record: Record) -> datetime.datetime | None:
    value = record.headers.get("開始日時")
    if value is None:
        return None
    value = value.rstrip("　")
    for form in ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"):
        try:
            return datetime.datetime.strptime(value, form)
        except ValueError:
            pass
    return None


def _kakinoki_text(comment: str) -> str:
    """A kifconv KIF comment as cshogi gives it after a move: a ``**``
    comment (kifconv keeps one ``*``) loses both."""
    return comment[1:] if comment.startswith("*") else comment


# The terminal words whose line's time cshogi's KIF reader keeps.
_TIMED_ENDINGS = {
    "中断", "投了", "持将棋", "千日手", "詰み", "切れ負け", "反則勝ち", "反則負け",
}
_PLAYERS = {"先手", "下手", "後手", "上手"}
_KIF_SPECIAL = _PLAYERS | {"先手の持駒", "下手の持駒", "後手の持駒", "上手の持駒", "手合割"}


class _Parser:
    """What the three namespaces' objects share."""

    record: Record | None

    def __init__(self) -> None:
        self.record = None

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={getattr(self, name)!r}" for name in self._ATTRIBUTES[:3]
        )
        return f"<kifconv.compat.cshogi {type(self).__qualname__}: {fields}, …>"

    _ATTRIBUTES: tuple[str, ...] = ()


class _CsaParser(_Parser):
    """A CSA game as cshogi's ``CSA.Parser`` gives it."""

    _ATTRIBUTES = (
        "names", "ratings", "sfen", "moves", "times", "scores", "comments",
        "win", "endgame", "version", "var_info", "comment",
    )

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = ["", ""]
        self.ratings: list[float] = [0.0, 0.0]
        self.sfen = ""
        self.moves: list[int] = []
        self.times: list[int] = []
        self.scores: list[int] = []
        self.comments: list[str] = []
        self.win = DRAW
        self.endgame = ""
        self.version = ""
        self.var_info: dict[str, str] = {}
        self.comment = ""

    @classmethod
    def _of(cls, record: Record, mate_winner: bool = False) -> _CsaParser:
        p = cls()
        p.record = record
        p.names = [record.black_player or "", record.white_player or ""]
        all_comments = record.comments
        root = all_comments[0]
        p.ratings = [_rating(root, "black_rate:"), _rating(root, "white_rate:")]
        p.sfen = record.start_sfen
        p.moves = record.cshogi_moves()
        n = len(p.moves)
        p.times = [int(t) if t is not None else 0 for t in record.times]
        ending_time = record.ending_time
        if ending_time is not None:
            p.times.append(int(ending_time))
        p.scores = [0] * n
        p.comments = [""] * n
        written: list[str] = []
        for c in root:
            if not (c.startswith("black_rate:") or c.startswith("white_rate:")):
                written.append(_as_written(c))

        def engine_or_written(ply: int, comments: Iterable[str]) -> None:
            for c in comments:
                if _is_engine(c) and ply > 0:
                    p.comments[ply - 1] = c[2:]
                    p.scores[ply - 1] = _leading_int(c[2:])
                else:
                    written.append(_as_written(c))

        for ply in range(1, n + 1):
            engine_or_written(ply, all_comments[ply])
        engine_or_written(n, record.ending_comments)
        p.comment = "".join(w + "\n" for w in written)
        p.endgame = _csa_word(record, _white_to_move_at_end(record, n))
        if not p.endgame and any(
            c.startswith("summary:max_moves:")
            for c in all_comments[n] + record.ending_comments
        ):
            # floodgate stopped the game at its move limit.
            p.endgame = "%JISHOGI"
        p.win = _csa_win(record, p.endgame, n, mate_winner)
        version = record.headers.get("V")
        p.version = "" if version is None else "V" + version
        p.var_info = {
            k[1:]: v for k, v in record.headers.items() if k.startswith("$")
        }
        return p

    @staticmethod
    def parse_file(
        file: str | os.PathLike[str] | IO[Any],
        encoding: str | None = None,
        *,
        mate_winner: bool = False,
    ) -> list[_CsaParser]:
        """Every game of a file (a path or an open file), one object each.
        ``encoding`` (``utf-8``, ``cp932``, ``euc-jp``) overrides the one
        told from the content; ``mate_winner=True`` gives ``%TSUMI`` its
        winner."""
        return [
            _CsaParser._of(r, mate_winner) for r in _read(file, encoding)
        ]

    @staticmethod
    def parse_str(text: str, *, mate_winner: bool = False) -> list[_CsaParser]:
        """Every game of a str, one object each."""
        return [_CsaParser._of(r, mate_winner) for r in kifconv.read_text(text)]

    def parse_csa_file(self, file: Any, encoding: str | None = None) -> None:
        """Reads the one game of a file into this object."""
        self._fill(_read(file, encoding))

    def parse_csa_str(self, text: str) -> None:
        """Reads the one game of a str into this object."""
        self._fill(kifconv.read_text(text))

    def _fill(self, records: list[Record]) -> None:
        if len(records) != 1:
            raise ValueError("Dont support multiple matches in str")
        self.__dict__.update(_CsaParser._of(records[0]).__dict__)


class _KakinokiParser(_Parser):
    """A KIF or KI2 game as cshogi's ``KIF.Parser`` or ``KI2.Parser``
    gives it."""

    _KI2 = False

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str | None] = [None, None]
        self.sfen = ""
        self.moves: list[int] = []
        self.comments: list[str | None] = []
        self.win: int | None = None
        self.endgame: str | None = "" if self._KI2 else None
        self.var_info: dict[str, str] = {}
        self.comment = ""
        self.starttime: datetime.datetime | None = None

    @classmethod
    def _of(cls, record: Record) -> _KakinokiParser:
        p = cls()
        p.record = record
        headers = record.headers
        names: list[str | None] = [None, None]
        for key, value in headers.items():
            value = value.rstrip("　")
            if key in ("先手", "下手"):
                names[0] = value
            elif key in ("後手", "上手"):
                names[1] = value
            elif key not in _KIF_SPECIAL and not (cls._KI2 and key == "開始日時"):
                p.var_info[key] = value
        p.names = names
        p.sfen = record.start_sfen
        p.moves = record.cshogi_moves()
        n = len(p.moves)
        all_comments = record.comments
        p.comment = "\n".join(all_comments[0])
        comments: list[str | None] = []
        for ply in range(1, n + 1):
            lines = [_kakinoki_text(c) for c in all_comments[ply]]
            if ply == n and not cls._KI2:
                # The comments after the terminal word's line, which
                # cshogi's KIF reader gives the last move.
                lines += [_kakinoki_text(c) for c in record.ending_comments]
            if not lines:
                continue
            if cls._KI2:
                for line in lines:
                    if ply - len(comments) > 1:
                        comments.extend([None] * (ply - len(comments) - 1))
                    comments.append(line)
            else:
                comments.extend([None] * (ply - 1 - len(comments)))
                comments.append("\n".join(lines))
        if cls._KI2 and len(comments) < n:
            comments.extend([None] * (n - len(comments)))
        p.comments = comments
        p.win, p.endgame = _kakinoki_result(record, cls._KI2)
        p.starttime = _starttime(record)
        p._times(record)
        return p

    def _times(self, record: Record) -> None:
        pass

    @classmethod
    def _first_or_all(cls, records: list[Record], all_games: bool) -> Any:
        if all_games:
            return [cls._of(r) for r in records]
        return cls._of(records[0])

    @classmethod
    def parse_file(
        cls,
        path: str | os.PathLike[str] | IO[Any],
        encoding: str | None = None,
        *,
        all_games: bool = False,
    ) -> Any:
        """The first game of a file (a path or an open file); every game,
        as a list, with ``all_games=True``. ``encoding`` overrides the one
        told from the content."""
        return cls._first_or_all(_read(path, encoding), all_games)

    @classmethod
    def parse_str(cls, text: str, *, all_games: bool = False) -> Any:
        """The first game of a str; every game, as a list, with
        ``all_games=True``."""
        return cls._first_or_all(kifconv.read_text(text), all_games)


class _KifParser(_KakinokiParser):
    """A KIF game as cshogi's ``KIF.Parser`` gives it."""

    _ATTRIBUTES = (
        "names", "sfen", "moves", "times", "comments", "win", "endgame",
        "var_info", "comment", "starttime",
    )

    def __init__(self) -> None:
        super().__init__()
        self.times: list[int] = []

    def _times(self, record: Record) -> None:
        self.times = [int(t) for t in record.times if t is not None]
        ending = record.ending
        if ending is not None and record.ending_time is not None:
            words = ending["text"].split()
            if words and words[-1] in _TIMED_ENDINGS:
                self.times.append(int(record.ending_time))


class _Ki2Parser(_KakinokiParser):
    """A KI2 game as cshogi's ``KI2.Parser`` gives it."""

    _KI2 = True
    _ATTRIBUTES = (
        "names", "sfen", "moves", "comments", "win", "endgame", "var_info",
        "comment", "starttime",
    )


class _Namespace:
    BLACK_WIN = BLACK_WIN
    WHITE_WIN = WHITE_WIN
    DRAW = DRAW


class CSA(_Namespace):
    """``cshogi.CSA``: ``CSA.Parser.parse_file``, ``CSA.Parser.parse_str``."""

    Parser = _CsaParser


class KIF(_Namespace):
    """``cshogi.KIF``: ``KIF.Parser.parse_file``, ``KIF.Parser.parse_str``."""

    Parser = _KifParser


class KI2(_Namespace):
    """``cshogi.KI2``: ``KI2.Parser.parse_file``, ``KI2.Parser.parse_str``."""

    Parser = _Ki2Parser


_SQUARES = [f"{s // 9 + 1}{'abcdefghi'[s % 9]}" for s in range(81)]
_DROPPED = "PLNSBRG"


def move_to_usi(move: int) -> str:
    """A cshogi move integer (or its low 16 bits, HCPE's move16) in USI,
    as ``cshogi.move_to_usi`` writes it."""
    to = move & 0x7F
    origin = (move >> 7) & 0x7F
    if origin >= 81:
        return f"{_DROPPED[origin - 81]}*{_SQUARES[to]}"
    promote = "+" if move & (1 << 14) else ""
    return f"{_SQUARES[origin]}{_SQUARES[to]}{promote}"


__all__ = ["BLACK_WIN", "CSA", "DRAW", "KI2", "KIF", "WHITE_WIN", "move_to_usi"]
