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

Errors are :class:`KifError` exceptions with the place in the file
(``path``, ``line``, ``column``, ``message``); what is read leniently goes
to :mod:`warnings` as :class:`KifWarning`.
"""

from ._kifconv import (
    InputResult,
    KifError,
    KifWarning,
    Record,
    Summary,
    __version__,
    book_build,
    book_query,
    convert,
    flip,
    mate,
    read,
    read_text,
    training,
)

__all__ = [
    "InputResult",
    "KifError",
    "KifWarning",
    "Record",
    "Summary",
    "__version__",
    "book_build",
    "book_query",
    "convert",
    "flip",
    "mate",
    "read",
    "read_text",
    "training",
]
