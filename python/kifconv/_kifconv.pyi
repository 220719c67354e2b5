"""Types of kifconv's extension module (re-exported by ``kifconv``)."""

import os
from collections.abc import Iterator, Mapping
from typing import Any, Literal, TypedDict, final, overload

__version__: str

_StrPath = str | os.PathLike[str]
_Inputs = _StrPath | list[_StrPath]
_ReadFormat = Literal["kif", "ki2", "csa", "usi", "jkf", "western"]
_WriteFormat = Literal[
    "usi", "sfen", "kif", "kifu", "ki2", "ki2u", "csa", "jkf", "western", "hcpe", "hcpe3", "psv"
]
_TrainingKind = Literal["hcpe", "hcpe3", "psv"]

class KifError(Exception):
    """A record that cannot be read, with its place.

    ``str(error)`` is the message as a compiler prints it: ``path:line:column:
    error: …``, the line, a caret under the offending text.
    """

    path: str | None
    """The file read; None for bytes and text."""
    line: int
    """1-based line (0: binary data or no place)."""
    column: int
    """1-based column, in characters."""
    message: str
    """What is wrong, and what was expected."""
    kind: Literal["io", "not_a_record", "unknown_format", "syntax", "illegal", "other"]
    """What kind of error it is."""
    text: str
    """The offending text."""
    ply: int | None
    """The ply of the move concerned, if any."""
    game: int | None
    """In a file of several games, which one (1 for the first)."""

class KifWarning(UserWarning):
    """Something read leniently, or a batch's input that failed; located."""

class _Ending(TypedDict):
    kind: str
    """CSA's word in lower case (``toryo``, ``tsumi``, ``sennichite``, …)."""
    winner: Literal["black", "white"] | None
    text: str
    """The ending as the record writes it."""

@final
class _Headers(Mapping[str, str]):
    """A record's headers (``Record.headers``; the class is not exported).

    Keys as written, in input order; a repeated key keeps its first value.
    A key not written that spells a well-known field finds that field:
    ``headers["先手"]`` is the ``N+`` of a CSA record, ``headers["Event"]``
    the ``棋戦`` of a KIF one. ``dict(headers)`` is the plain dict.
    """

    def __getitem__(self, key: str, /) -> str: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def __contains__(self, key: object, /) -> bool: ...
    def keys(self) -> list[str]: ...  # type: ignore[override]
    def values(self) -> list[str]: ...  # type: ignore[override]
    def items(self) -> list[tuple[str, str]]: ...  # type: ignore[override]

@final
class Record:
    """One game record."""

    @property
    def headers(self) -> _Headers:
        """The headers, keys as written; any spelling of a well-known field finds it."""
    @property
    def black_player(self) -> str | None:
        """Black's player (先手, 下手, ``N+``, ``Sente``)."""
    @property
    def white_player(self) -> str | None:
        """White's player (後手, 上手, ``N-``, ``Gote``)."""
    @property
    def event(self) -> str | None:
        """The event (棋戦, ``$EVENT``, ``Event``)."""
    @property
    def start_time(self) -> str | None:
        """When the game started (開始日時, ``$START_TIME``, ``Date``), as written."""
    @property
    def time_control(self) -> str | None:
        """The time control (持ち時間, ``$TIME_LIMIT``, ``$TIME``, ``TimeControl``), as written."""
    @property
    def start_sfen(self) -> str:
        """The position before the first move, as SFEN."""
    @property
    def moves(self) -> list[str]:
        """The mainline's moves in USI."""
    @property
    def positions(self) -> list[str]:
        """Every mainline position as SFEN: the start, then one after each move."""
    def cshogi_moves(self) -> list[int]:
        """The mainline's moves as cshogi's 32-bit integers (``Board.push`` takes them):
        Apery's move16, the kind moved in bits 16–19 (0 for a drop), the kind captured in 20–23."""
    @property
    def times(self) -> list[float | None]:
        """Seconds spent on each mainline move; None where the record gives none."""
    @property
    def evals(self) -> list[int | None]:
        """Each mainline move's evaluation from its comment, black's view (a mate ±100000); None without one."""
    @property
    def ending(self) -> _Ending | None:
        """How the mainline ended, if the record says."""
    @property
    def ending_time(self) -> float | None:
        """Seconds written with the ending (``T`` after ``%TORYO``, 投了's time), or None."""
    @property
    def ending_comments(self) -> list[str]:
        """The comments written after the ending's line."""
    @property
    def comments(self) -> list[list[str]]:
        """Comments by ply: item 0 before the first move, item N after move N."""
    @property
    def variations(self) -> list[tuple[int, list[str]]]:
        """Each variation: the plies before it branches off, and its USI moves."""
    @property
    def warnings(self) -> list[str]:
        """What was read leniently, as ``line:column: message (`text`)``."""
    @overload
    def to(self, format: Literal["usi", "sfen", "kifu", "ki2u", "csa", "jkf", "western"], flip: bool = False) -> str: ...
    @overload
    def to(self, format: Literal["kif", "ki2", "hcpe", "hcpe3", "psv"], flip: bool = False) -> bytes: ...
    @overload
    def to(self, format: str, flip: bool = False) -> str | bytes:
        """The record written as ``format``, rotated 180° first with ``flip``.

        UTF-8 text is a str; Shift_JIS KIF/KI2 and training data are bytes.
        """

@final
class InputResult:
    """One input of a batch, as the command's report has it."""

    path: str
    status: Literal["ok", "partial", "failed", "skipped"]
    games: int
    moves: int
    warnings: int
    error: str
    """The first error, located (``path:line:column: error: …``), or ""."""
    outputs: list[str]

@final
class Summary:
    """What ``convert`` did."""

    code: int
    """0 when every input converted, 1 when some failed."""
    converted: int
    failed: list[InputResult]
    inputs: list[InputResult]
    games: int
    moves: int
    warnings: int
    output: bytes | None
    """The converted games without an output folder; None with one."""

class _BookMove(TypedDict):
    usi: str
    japanese: str | None
    """The move in Japanese notation with its side's mark (``▲７六歩``)."""
    ponder: str | None
    value: int
    depth: int
    count: int
    sfen_after: str | None

class _BookAnswer(TypedDict):
    """The schema ``kifconv book query --json`` prints."""

    sfen: str
    found: Literal["exact", "flipped", "none"]
    ply: int | None
    moves: list[_BookMove]

class _Mate(TypedDict):
    length: int
    line: list[str]
    jsa: list[str]
    first_moves: list[str]
    unique: bool

class _BookCounts(TypedDict):
    games: int
    positions: int
    moves: int

_BookFormat = Literal["db", "ybb", "bin"]

class _Converted(TypedDict):
    positions: int
    moves: int

class _BookFault(TypedDict):
    line: int
    kind: str
    message: str
    text: str

class _BookChecked(TypedDict):
    positions: int
    moves: int
    faults: list[_BookFault]
    counts: dict[str, int]

class _PetaShocked(TypedDict):
    positions: int
    settled: int
    in_check: int
    check_loop: int
    converged_moves: int

def read(
    path_or_bytes: _StrPath | bytes | bytearray,
    format: _ReadFormat | None = None,
    encoding: str | None = None,
    *,
    errors: Literal["raise", "keep"] = "raise",
) -> list[Record]:
    """Every game of a file or of bytes, format and encoding told from the content.

    A file that cannot be opened raises what ``open()`` raises
    (FileNotFoundError, IsADirectoryError, PermissionError; ``filename`` set).
    A game that cannot be read raises KifError (located); with
    ``errors="keep"`` the good games are returned and each bad game's error
    is warned once as KifWarning (KifError still when no game is left).
    Leniencies warn KifWarning.
    """

def read_text(
    text: str,
    format: _ReadFormat | None = None,
    *,
    errors: Literal["raise", "keep"] = "raise",
) -> list[Record]:
    """Every game of a str, in ``format`` or the one told from the text;
    errors and ``errors="keep"`` as ``read``."""

def convert(
    inputs: _Inputs,
    to: _WriteFormat,
    output: _StrPath | None = None,
    jobs: int | None = None,
    *,
    format: _ReadFormat | None = None,
    encoding: str | None = None,
    out_encoding: Literal["utf-8", "sjis"] | None = None,
    flip: bool = False,
    mainline: bool = False,
    ply: int | None = None,
    all_plies: bool = False,
    force: bool = False,
    glob: str | list[str] | None = None,
    follow: bool = False,
    hidden: bool = False,
    csa_version: Literal["3.0", "2.2"] | None = None,
    errors: Literal["raise", "keep"] = "raise",
    skip_existing: bool = False,
    min_rating: float | None = None,
    rating_of: Literal["both", "loser"] | None = None,
    min_moves: int | None = None,
    results: str | list[str] | None = None,
    require_eval: bool = False,
) -> Summary:
    """Files, folders and archives converted by the batch library, on
    ``jobs`` threads (at most 4 × the cores). A missing input raises
    FileNotFoundError; the first input that fails stops the run and raises
    its KifError, or with ``errors="keep"`` is in ``Summary.failed``.
    Warnings go to :mod:`warnings`; Ctrl-C raises KeyboardInterrupt at once,
    leaving no half-written file."""

@overload
def training(
    inputs: _Inputs,
    kind: _TrainingKind = "hcpe",
    output: None = None,
    *,
    jobs: int | None = None,
    min_rating: float | None = None,
    rating_of: Literal["both", "loser"] | None = None,
    min_moves: int | None = None,
    results: str | list[str] | None = None,
    require_eval: bool = False,
    max_eval: int | None = None,
    uniq: bool | Literal["games", "positions"] | None = None,
    flip_fold: bool = False,
    format: _ReadFormat | None = None,
    encoding: str | None = None,
    glob: str | list[str] | None = None,
    follow: bool = False,
    hidden: bool = False,
    force: bool = False,
    errors: Literal["raise", "keep"] = "raise",
    numpy: bool = False,
) -> Any: ...
@overload
def training(
    inputs: _Inputs,
    kind: _TrainingKind,
    output: _StrPath,
    *,
    jobs: int | None = None,
    min_rating: float | None = None,
    rating_of: Literal["both", "loser"] | None = None,
    min_moves: int | None = None,
    results: str | list[str] | None = None,
    require_eval: bool = False,
    max_eval: int | None = None,
    uniq: bool | Literal["games", "positions"] | None = None,
    flip_fold: bool = False,
    format: _ReadFormat | None = None,
    encoding: str | None = None,
    glob: str | list[str] | None = None,
    follow: bool = False,
    hidden: bool = False,
    force: bool = False,
    errors: Literal["raise", "keep"] = "raise",
) -> None:
    """Training data, byte for byte the command's ``--to KIND``: bytes,
    or with ``numpy=True`` cshogi-typed arrays (``as_array``), or written to
    ``output``. The first input that fails raises its KifError, or with
    ``errors="keep"`` is left out with a KifWarning."""

def book_build(
    inputs: _Inputs,
    output: _StrPath,
    *,
    flip_fold: bool = False,
    min_ply: int | None = None,
    max_ply: int | None = None,
    min_count: int | None = None,
    side: Literal["both", "black", "white"] | None = None,
    variations: bool = False,
    uniq: bool = False,
    book_format: _BookFormat | None = None,
    min_rating: float | None = None,
    rating_of: Literal["both", "loser"] | None = None,
    min_moves: int | None = None,
    results: str | list[str] | None = None,
    require_eval: bool = False,
    memory: int | None = None,
    force: bool = False,
    jobs: int | None = None,
    glob: str | list[str] | None = None,
    follow: bool = False,
    hidden: bool = False,
    errors: Literal["raise", "keep"] = "raise",
) -> _BookCounts:
    """A book of the inputs' mainline positions and moves (YaneuraOu's text,
    or ``.ybb`` / ``.bin`` as the output's extension or ``book_format`` says).
    An input that fails raises its KifError and no book is written, or with
    ``errors="keep"`` is left out with a KifWarning."""

def tsume_check(
    inputs: _Inputs,
    *,
    depth: int = 31,
    nodes: int = 5_000_000,
    jobs: int | None = None,
    glob: str | list[str] | None = None,
    follow: bool = False,
    hidden: bool = False,
    errors: Literal["raise", "keep"] = "raise",
) -> list[tuple[str, int, Literal["sound", "unsound", "unknown", "not proven"], str]]:
    """Mate problems checked as ``kifconv tsume check`` does: ``(path, game,
    verdict, report)`` a problem, in input order."""

def book_query(
    book: _StrPath, position: str, *, book_format: _BookFormat | None = None
) -> _BookAnswer:
    """A book's moves for a position (SFEN, ``startpos`` or a position line),
    in a book of any format (its extension, or ``book_format``); ``found`` is
    ``"none"`` when neither the position nor its rotation is there.

    FileNotFoundError (or another OSError) for a book that cannot be opened.
    """

def book_convert(
    input: _StrPath,
    output: _StrPath,
    *,
    from_format: _BookFormat | None = None,
    book_format: _BookFormat | None = None,
    flip_fold: bool = False,
    crlf: bool = False,
    force: bool = False,
) -> _Converted:
    """A book converted between formats, as ``kifconv book convert`` does;
    what the output cannot hold is given to ``warnings.warn``. KifError for a
    book that cannot be read; FileExistsError without ``force``."""

def book_check(
    book: _StrPath, *, flip_fold: bool = False, book_format: _BookFormat | None = None
) -> _BookChecked:
    """Every fault of a book with its line, as ``kifconv book check`` finds
    them (a binary book's faults have line 0). KifError for a file that is
    no book."""

def book_peta_shock(
    input: _StrPath,
    output: _StrPath,
    *,
    shrink: bool = False,
    crlf: bool = False,
    force: bool = False,
) -> _PetaShocked:
    """YaneuraOu's ``makebook peta_shock`` of a text book, as ``kifconv book
    peta-shock`` does. KifError naming a bad line; FileExistsError without
    ``force``."""

def flip(sfen_or_move: str) -> str:
    """A USI move or a position rotated 180°."""

def mate(position: str, depth: int = 1, nodes: int = 5_000_000) -> _Mate | None:
    """The shortest forced mate of the side to move within ``depth`` plies.

    None: the search ended and there is no mate within ``depth``.
    ValueError: no mate can be asked for (the side not to move has no
    king), or ``depth`` / ``nodes`` below 1. TimeoutError: the ``nodes``
    budget ran out first (unknown, not "no mate"). The attacker needs no
    king.
    """

class EngineError(Exception):
    """A USI engine failed: it could not start, ended, hung past its
    timeout, or sent a move that is not legal."""

class Info:
    """One ``info`` line of a search, or the last line of a MultiPV rank."""

    multipv: int | None
    depth: int | None
    seldepth: int | None
    nodes: int | None
    nps: int | None
    time_ms: int | None
    hashfull: int | None
    score_cp: int | None
    """Centipawns for the side to move (None for a mate)."""
    mate: int | None
    """Plies to a mate, positive when the side to move mates."""
    mate_sign: Literal["+", "-"] | None
    """Who mates when the engine gave no count (``mate +``, ``mate -``)."""
    bound: Literal["exact", "lower", "upper"] | None
    pv: list[str]
    string: str | None

class Search:
    """A finished search."""

    bestmove: str
    """The move chosen (USI), ``"resign"`` or ``"win"``."""
    ponder: str | None
    lines: list[Info]
    """The last line of each MultiPV rank, best first; moves checked legal."""
    infos: list[Info]
    elapsed: float
    warnings: list[str]

class Engine:
    """A running USI engine; a context manager that ends it."""

    def __init__(
        self, command: str, options: dict[str, str] | None = None, *, timeout: float = 600.0
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def pid(self) -> int: ...
    @property
    def options(self) -> list[str]: ...
    def set_option(self, name: str, value: str) -> None: ...
    def new_game(self) -> None: ...
    def analyse(
        self,
        position: str,
        *,
        nodes: int | None = None,
        depth: int | None = None,
        movetime: float | None = None,
    ) -> Search: ...
    def mate(self, position: str, *, movetime: float | None = None) -> list[str] | None: ...
    def quit(self) -> bool: ...
    def __enter__(self) -> Engine: ...
    def __exit__(self, *args: object) -> bool: ...

def analyze(
    inputs: _Inputs,
    to: Literal["kif", "kifu", "ki2", "ki2u", "csa", "jkf"],
    output: _StrPath | None = None,
    *,
    engine: str,
    nodes: int | None = None,
    depth: int | None = None,
    movetime: float | None = None,
    multipv: int = 1,
    engines: int = 1,
    options: dict[str, str] | None = None,
    variations: bool = False,
    timeout: float = 600.0,
    format: str | None = None,
    encoding: str | None = None,
    out_encoding: str | None = None,
    force: bool = False,
    skip_existing: bool = False,
    glob: str | list[str] | None = None,
    follow: bool = False,
    hidden: bool = False,
    errors: Literal["raise", "keep"] = "raise",
) -> Summary: ...

class _Mined(TypedDict):
    searched: int
    present: int
    flips: int
    again: int
    cut: int
    no_move: int
    failures: list[tuple[str, str]]
    positions: int

def book_mine(
    book: _StrPath,
    *,
    engine: str,
    nodes: int = 10_000,
    multipv: int = 1,
    engines: int = 1,
    start: list[str] | None = None,
    max_ply: int = 16,
    eval_limit: int | None = None,
    save_every: int = 100,
    options: dict[str, str] | None = None,
    timeout: float = 600.0,
) -> _Mined: ...

# The training-file toolkit (``kifconv train``); ``kifconv.train`` wraps
# these with one path or a list, and with numpy arrays.

_TrainKind = Literal["hcpe", "hcpe3", "psv", "pack"]

class _TrainFault(TypedDict):
    path: str
    """The file, or ``<bytes>``."""
    unit: Literal["entry", "game"]
    index: int
    """Which entry or hcpe3 game, from 0."""
    offset: int
    """The byte offset of the field at fault."""
    ply: int | None
    """In an hcpe3 game, the move concerned (1 for the first)."""
    reason: str
    message: str
    """The fault as the command says it: ``path: entry N (byte B): reason``."""

class _TrainRun(TypedDict):
    faults: list[_TrainFault]
    """The first 100 faults of each input."""
    fault_count: int

class _Shuffled(_TrainRun):
    records: int
    buckets: int

class _Kept(_TrainRun):
    read: int
    kept: int

class _TrainConverted(_TrainRun):
    read: int
    written: int
    losses: list[str]
    errors: list[str]

class _Parts(_TrainRun):
    records: int
    positions: int
    parts: list[str]

class _Layouts(TypedDict):
    yaneuraou_only: int
    cshogi_only: int
    both: int
    first_yaneuraou: int | None
    first_cshogi: int | None

class _TrainChecked(_TrainRun):
    path: str
    kind: Literal["hcpe", "hcpe3", "psv"]
    records: int
    sound: bool
    summary: str
    move16: Literal["yaneuraou", "cshogi", "mixed", "unknown"] | None
    layouts: _Layouts | None

def train_shuffle(
    inputs: list[_StrPath],
    output: _StrPath,
    *,
    seed: int,
    memory: int = 256,
    format: _TrainKind | None = None,
    force: bool = False,
) -> _Shuffled:
    """``kifconv train shuffle``."""

def train_uniq(
    inputs: list[_StrPath],
    output: _StrPath,
    *,
    by: Literal["record", "position"] = "record",
    flip_fold: bool = False,
    format: _TrainKind | None = None,
    force: bool = False,
) -> _Kept:
    """``kifconv train uniq``."""

def train_filter(
    inputs: list[_StrPath],
    output: _StrPath,
    *,
    max_abs_eval: int | None = None,
    drop_draws: bool = False,
    min_ply: int | None = None,
    format: _TrainKind | None = None,
    force: bool = False,
) -> _Kept:
    """``kifconv train filter``."""

def train_convert(
    input: _StrPath,
    output: _StrPath,
    *,
    to: _TrainKind,
    move16: Literal["yaneuraou", "cshogi"] = "yaneuraou",
    format: _TrainKind | None = None,
    force: bool = False,
) -> _TrainConverted:
    """``kifconv train convert``; losses also go to ``warnings.warn``."""

def train_split(
    input: _StrPath,
    output: _StrPath,
    *,
    positions: int | None = None,
    parts: int | None = None,
    format: _TrainKind | None = None,
    force: bool = False,
) -> _Parts:
    """``kifconv train split``."""

def train_check(path: _StrPath, *, format: _TrainKind | None = None) -> _TrainChecked:
    """``kifconv train check`` of one file."""

def train_check_bytes(data: bytes, kind: _TrainKind) -> _TrainChecked:
    """``train_check`` of bytes in memory, named ``<bytes>``."""

def train_uniq_bytes(
    data: bytes, kind: _TrainKind, *, by: Literal["record", "position"] = "record", flip_fold: bool = False
) -> bytes:
    """The records of ``data`` kept by ``train uniq``."""

def train_filter_bytes(
    data: bytes,
    kind: _TrainKind,
    *,
    max_abs_eval: int | None = None,
    drop_draws: bool = False,
    min_ply: int | None = None,
) -> bytes:
    """The records of ``data`` kept by ``train filter``."""

def train_read(path: _StrPath, *, format: _TrainKind | None = None) -> tuple[Literal["hcpe", "hcpe3", "psv"], bytes]:
    """A training file's kind and bytes, its records checked whole."""

def train_records(data: bytes, kind: _TrainKind) -> list[bytes]:
    """Training data cut into its records' bytes."""
