"""kifconv for Python: shogi game records read, written and converted.

Every common format is read (KIF, KI2, CSA, USI, SFEN, JKF, Western) in
any encoding, told from the content; records are written in any of them,
and as training data for engines (HCPE, hcpe3, PackedSfenValue) or
YaneuraOu opening books.

    >>> import kifconv
    >>> game = kifconv.read_text("position startpos moves 7g7f 3c3d")[0]
    >>> game.moves
    ['7g7f', '3c3d']
    >>> game.to("csa").splitlines()[-2:]
    ['+7776FU', '-3334FU']

Reading, converting, training data and book building release the
interpreter's lock: threads run them in parallel.

A USI engine runs as :class:`Engine` (a context manager: the engine ends
with the block); every move it sends is checked legal. :func:`analyze`
annotates records with an engine's values and lines, which training data
and books made from them read back.

Errors are :class:`KifError` exceptions with the place in the file
(``path``, ``line``, ``column``, ``message``); what is read leniently goes
to :mod:`warnings` as :class:`KifWarning`.

:mod:`kifconv.train` is ``kifconv train``'s toolkit over training files
(shuffle, split, uniq, filter, convert, check), and reads them as arrays.

With numpy installed (``pip install ./python[numpy]``), :func:`as_array`
turns training data into arrays of cshogi's dtypes, which are
``kifconv.HuffmanCodedPosAndEval``, ``kifconv.PackedSfenValue``,
``kifconv.HuffmanCodedPosAndEval3``, ``kifconv.MoveInfo`` and
``kifconv.MoveVisits`` (see :mod:`kifconv.arrays`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ._kifconv import (
    Engine,
    EngineError,
    Info,
    InputResult,
    KifError,
    KifWarning,
    Record,
    Search,
    Summary,
    __version__,
    analyze,
    book_build,
    book_check,
    book_mine,
    book_convert,
    book_peta_shock,
    book_query,
    convert,
    flip,
    mate,
    read,
    read_text,
    training,
    tsume_check,
)
from . import train

if TYPE_CHECKING:
    import numpy

    from .arrays import (
        Hcpe3Game,
        HuffmanCodedPosAndEval,
        HuffmanCodedPosAndEval3,
        MoveInfo,
        MoveVisits,
        PackedSfenValue,
    )

_DTYPES = (
    "HuffmanCodedPosAndEval",
    "PackedSfenValue",
    "HuffmanCodedPosAndEval3",
    "MoveInfo",
    "MoveVisits",
)


def _arrays():
    """kifconv.arrays, imported when first needed: numpy is an extra."""
    try:
        from . import arrays
    except ImportError as error:
        raise ImportError(
            f"kifconv's arrays need numpy ({error}): pip install numpy, "
            "or install kifconv with its extra, pip install ./python[numpy]"
        ) from error
    return arrays


def as_array(
    data: bytes | bytearray | memoryview, kind: Literal["hcpe", "psv", "hcpe3"]
) -> numpy.ndarray | list[Hcpe3Game]:
    """Training data as numpy, in cshogi's dtypes: an array for ``hcpe``
    and ``psv``, a list of ``(header, moves)`` games for ``hcpe3`` (see
    :func:`kifconv.arrays.as_array`). Needs numpy."""
    return _arrays().as_array(data, kind)


def __getattr__(name: str) -> Any:
    if name in _DTYPES:
        return getattr(_arrays(), name)
    raise AttributeError(f"module 'kifconv' has no attribute {name!r}")


# The dtypes are left out of __all__: `from kifconv import *` must not
# need numpy.
__all__ = [
    "Engine",
    "EngineError",
    "Info",
    "InputResult",
    "KifError",
    "KifWarning",
    "Record",
    "Search",
    "Summary",
    "__version__",
    "analyze",
    "as_array",
    "book_build",
    "book_check",
    "book_mine",
    "book_convert",
    "book_peta_shock",
    "book_query",
    "convert",
    "flip",
    "mate",
    "read",
    "read_text",
    "train",
    "training",
    "tsume_check",
]
