"""Training data as numpy arrays, in the dtypes cshogi and dlshogi use.

Needs numpy (``pip install ./python[numpy]``). The dtypes are cshogi's,
field for field, so arrays made here go straight into code written for
cshogi's (``hcpe["hcp"]``, ``psv["score"]``…):

* ``HuffmanCodedPosAndEval`` (HCPE, 38 bytes): ``hcp`` u1×32, ``eval`` i2,
  ``bestMove16`` i2, ``gameResult`` i1, ``dummy`` u1;
* ``PackedSfenValue`` (PSV, 40 bytes): ``sfen`` u1×32, ``score`` i2,
  ``move`` u2, ``gamePly`` u2, ``game_result`` i1, ``padding`` u1;
* hcpe3, dlshogi's game-by-game blocks: ``HuffmanCodedPosAndEval3`` (the
  36-byte header: ``hcp`` u1×32, ``moveNum`` u2, ``result`` u1,
  ``opponent`` u1), then per move ``MoveInfo`` (``selectedMove16`` i2,
  ``eval`` i2, ``candidateNum`` u2) and ``candidateNum`` × ``MoveVisits``
  (``move16`` i2, ``visitNum`` u2).

Every field is little-endian, as the files are.
"""

from __future__ import annotations

from typing import Literal

import numpy

_HCP = numpy.dtype((numpy.uint8, 32))

HuffmanCodedPosAndEval = numpy.dtype(
    [
        ("hcp", _HCP),
        ("eval", "<i2"),
        ("bestMove16", "<i2"),
        ("gameResult", "i1"),
        ("dummy", "u1"),
    ]
)
PackedSfenValue = numpy.dtype(
    [
        ("sfen", _HCP),
        ("score", "<i2"),
        ("move", "<u2"),
        ("gamePly", "<u2"),
        ("game_result", "i1"),
        ("padding", "u1"),
    ]
)
HuffmanCodedPosAndEval3 = numpy.dtype(
    [
        ("hcp", _HCP),
        ("moveNum", "<u2"),
        ("result", "u1"),
        ("opponent", "u1"),
    ]
)
MoveInfo = numpy.dtype(
    [
        ("selectedMove16", "<i2"),
        ("eval", "<i2"),
        ("candidateNum", "<u2"),
    ]
)
MoveVisits = numpy.dtype(
    [
        ("move16", "<i2"),
        ("visitNum", "<u2"),
    ]
)

_FIXED = {"hcpe": HuffmanCodedPosAndEval, "psv": PackedSfenValue}

Hcpe3Move = tuple["numpy.void", "numpy.ndarray"]
"""One move of an hcpe3 game: its MoveInfo, and its MoveVisits array."""
Hcpe3Game = tuple["numpy.void", list[Hcpe3Move]]
"""One hcpe3 game: its HuffmanCodedPosAndEval3 header, and its moves."""


def as_array(
    data: bytes | bytearray | memoryview, kind: Literal["hcpe", "psv", "hcpe3"]
) -> numpy.ndarray | list[Hcpe3Game]:
    """Training data as numpy, without copying ``data``.

    ``hcpe`` and ``psv`` give one structured array, an entry per row
    (``numpy.frombuffer`` in :data:`HuffmanCodedPosAndEval` or
    :data:`PackedSfenValue`). An hcpe3 game's length depends on its
    moves and their candidates, so hcpe3 cannot be one array: it gives a
    list of games, each ``(header, moves)``, ``header`` a
    :data:`HuffmanCodedPosAndEval3` record and ``moves`` a list of
    ``(info, visits)``, ``info`` a :data:`MoveInfo` record and ``visits``
    a :data:`MoveVisits` array of ``info["candidateNum"]`` rows.

    ValueError for another ``kind``, or for data that ends inside an entry
    (naming the byte offset where the cut entry starts).
    """
    if kind in _FIXED:
        dtype = _FIXED[kind]
        cut = len(data) % dtype.itemsize
        if cut:
            whole = len(data) - cut
            raise ValueError(
                f"{kind} data is {len(data)} bytes, not a multiple of its "
                f"{dtype.itemsize}-byte entries: the entry at byte {whole} is cut "
                f"after {cut} bytes"
            )
        return numpy.frombuffer(data, dtype)
    if kind == "hcpe3":
        return _hcpe3_games(data)
    raise ValueError(f'kind must be one of "hcpe", "psv" or "hcpe3" (got {kind!r})')


def _hcpe3_games(data: bytes | bytearray | memoryview) -> list[Hcpe3Game]:
    """The games of hcpe3 ``data``, each a view into it."""
    buffer = memoryview(data).cast("B")
    size = len(buffer)
    games: list[Hcpe3Game] = []
    offset = 0

    def take(dtype: numpy.dtype, count: int, what: str) -> numpy.ndarray:
        nonlocal offset
        end = offset + dtype.itemsize * count
        if end > size:
            raise ValueError(
                f"hcpe3 data ends inside game {len(games) + 1}: its {what} at byte "
                f"{offset} needs {end - offset} bytes, {size - offset} are left"
            )
        array = numpy.frombuffer(buffer, dtype, count, offset)
        offset = end
        return array

    while offset < size:
        header = take(HuffmanCodedPosAndEval3, 1, "header")[0]
        moves: list[Hcpe3Move] = []
        for ply in range(1, int(header["moveNum"]) + 1):
            info = take(MoveInfo, 1, f"move {ply}")[0]
            visits = take(MoveVisits, int(info["candidateNum"]), f"move {ply}'s candidates")
            moves.append((info, visits))
        games.append((header, moves))
    return games
