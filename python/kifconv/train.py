"""The training-file toolkit, as ``kifconv train`` runs it: shuffle, split,
uniq, filter, convert and check over HCPE (``.hcpe``), dlshogi's hcpe3
(``.hcpe3``) and PackedSfenValue files (``.psv``, and YaneuraOu's
``.pack``).

    >>> from kifconv import train
    >>> train.shuffle(["a.hcpe", "b.hcpe"], "mixed.hcpe", seed=1)  # doctest: +SKIP
    {'records': 516, 'buckets': 1, 'faults': [], 'fault_count': 0}

Each function calls the library the command calls, with the command's
options as keywords (``--max-abs-eval`` is ``max_abs_eval=``, ``--format``
is ``format=``); the files written are byte for byte the command's. An
input's kind is ``format`` (``"hcpe"``, ``"hcpe3"``, ``"psv"``; ``"pack"``
is ``"psv"``) or its extension. A function returns a dict of the counts the
command reports, with the faults of the inputs (an entry that does not
read, a file cut short): ``faults``, a list of dicts (``path``, ``unit``
"entry" or "game", ``index`` from 0, ``offset`` in bytes, ``ply`` in an
hcpe3 game, ``reason``, ``message`` as the command says it; the first 100
of each file), and ``fault_count`` (all of them). Faults do not stop a run:
the records before and after them are used.

Errors: an option the command refuses, ValueError; an input that cannot be
opened, what ``open()`` raises; an output there already, FileExistsError
(give ``force=True``); anything else the run refuses, :class:`KifError`.

In memory: :func:`read` gives a file's records, as numpy arrays in
cshogi's dtypes when numpy is installed; :func:`check`, :func:`uniq` and
:func:`filter` take such arrays (or bytes) too, and give back the same.
The runs release the interpreter's lock.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Literal

from . import _kifconv

if TYPE_CHECKING:
    import numpy

    from .arrays import Hcpe3Game

_StrPath = str | os.PathLike[str]
Kind = Literal["hcpe", "hcpe3", "psv", "pack"]

__all__ = ["check", "convert", "filter", "read", "shuffle", "split", "uniq"]


def _paths(inputs: _StrPath | list[_StrPath]) -> list[_StrPath]:
    """One path or a list of them, as a list."""
    if isinstance(inputs, (str, bytes, os.PathLike)):
        return [inputs]
    return list(inputs)


def _numpy():
    """numpy, or None when it is not installed."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _arrays():
    from . import arrays

    return arrays


def _in_memory(data: Any, kind: str | None) -> tuple[bytes, str, Any]:
    """``data`` as bytes, its kind, and how to give records back in its
    form. A numpy array of cshogi's dtype tells its own kind, and so does
    a list of hcpe3 games as numpy (:func:`read`'s); bytes and a list of
    records' bytes need ``kind``."""
    np = _numpy()
    if np is not None and isinstance(data, np.ndarray):
        arrays = _arrays()
        told = {arrays.HuffmanCodedPosAndEval: "hcpe", arrays.PackedSfenValue: "psv"}.get(
            data.dtype
        )
        if told is None:
            raise ValueError(
                f"an array of dtype {data.dtype}: expected kifconv.HuffmanCodedPosAndEval "
                "or kifconv.PackedSfenValue"
            )
        if kind is not None and _kind(kind) != told:
            raise ValueError(f"format={kind!r}, but the array's dtype is {told}'s")
        dtype = data.dtype
        return np.ascontiguousarray(data).tobytes(), told, lambda b: np.frombuffer(b, dtype)
    if isinstance(data, list) and data and not _is_bytes(data[0]):
        if kind is not None and _kind(kind) != "hcpe3":
            raise ValueError(f"format={kind!r}, but a list of games is hcpe3")
        joined = b"".join(_game_bytes(game) for game in data)
        return joined, "hcpe3", lambda b: _arrays().as_array(b, "hcpe3")
    if kind is None:
        raise ValueError('bytes say no kind: give format="hcpe", "hcpe3" or "psv"')
    told = _kind(kind)
    if isinstance(data, list):
        return (
            b"".join(bytes(r) for r in data),
            told,
            lambda b: _kifconv.train_records(b, told),
        )
    if _is_bytes(data):
        return bytes(data), told, bytes
    raise TypeError(
        f"expected a path, bytes or a numpy array of cshogi's dtype, not {type(data).__name__}"
    )


def _is_bytes(data: Any) -> bool:
    return isinstance(data, (bytes, bytearray, memoryview))


def _kind(kind: str) -> str:
    kind = kind.lower()
    if kind == "pack":
        return "psv"
    if kind not in ("hcpe", "hcpe3", "psv"):
        raise ValueError(f"format={kind!r}: training data is hcpe, hcpe3 or psv (pack)")
    return kind


def _game_bytes(game: Any) -> bytes:
    """An hcpe3 game as numpy, ``(header, moves)``, joined back."""
    header, moves = game
    parts = [header.tobytes()]
    for info, visits in moves:
        parts.append(info.tobytes())
        parts.append(visits.tobytes())
    return b"".join(parts)


def read(
    path: _StrPath, kind: Kind | None = None, numpy: bool = True
) -> numpy.ndarray | list[Hcpe3Game] | list[bytes]:
    """The records of a training file (its kind ``kind``, or its
    extension's). With numpy installed (and ``numpy`` true): an HCPE file
    is an array of ``kifconv.HuffmanCodedPosAndEval``, a PackedSfenValue
    file one of ``kifconv.PackedSfenValue`` (cshogi's dtypes), and an hcpe3
    file a list of games as :func:`kifconv.as_array` gives them. Without
    numpy, or with ``numpy=False``: a list of the records' bytes (an entry,
    or an hcpe3 game). A file that ends inside a record raises KifError
    naming the record and its byte offset; the records are not decoded
    (:func:`check` does that)."""
    told, data = _kifconv.train_read(path, format=kind)
    if numpy and _numpy() is not None:
        return _arrays().as_array(data, told)
    return _kifconv.train_records(data, told)


def check(
    source: _StrPath | bytes | numpy.ndarray | list, *, format: Kind | None = None
) -> dict[str, Any]:
    """Every record decoded, as ``kifconv train check`` does: the position
    legal, the move legal there, the result code defined, the file made of
    whole records. ``source`` is a file, or records in memory (bytes with
    ``format`` given, an array of cshogi's dtype, or :func:`read`'s list),
    named ``<bytes>`` in faults.

    Returns a dict: ``path``, ``kind``, ``records``, ``faults``,
    ``fault_count``, ``sound`` (no fault, moves of one convention),
    ``summary`` (the command's line), and for PackedSfenValue ``move16``,
    the Move16 convention the moves are legal in (``"yaneuraou"``,
    ``"cshogi"``, ``"mixed"`` or ``"unknown"``: every move reads the same
    both ways), with ``layouts`` its counts (``yaneuraou_only``,
    ``cshogi_only``, ``both``, ``first_yaneuraou``, ``first_cshogi``);
    both None for HCPE and hcpe3."""
    if isinstance(source, (str, os.PathLike)):
        return _kifconv.train_check(source, format=format)
    data, kind, _ = _in_memory(source, format)
    return _kifconv.train_check_bytes(data, kind)


def shuffle(
    inputs: _StrPath | list[_StrPath],
    output: _StrPath,
    *,
    seed: int,
    memory: int = 256,
    format: Kind | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """The records of ``inputs`` (all of one kind) in the order ``seed``
    gives, written to ``output``, in about ``memory`` MiB (buckets on disk
    beside the output beyond it): the same seed, inputs and memory give
    the same order. Returns ``records``, ``buckets``, ``faults`` and
    ``fault_count``."""
    return _kifconv.train_shuffle(
        _paths(inputs), output, seed=seed, memory=memory, format=format, force=force
    )


def split(
    input: _StrPath,
    output: _StrPath,
    *,
    positions: int | None = None,
    parts: int | None = None,
    format: Kind | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """``input`` cut into parts, in order: ``positions`` a part, or
    ``parts`` parts as even as the records allow (one of the two; an hcpe3
    game is never cut). The parts are named from the prefix ``output``:
    ``PREFIX-0.hcpe``, ``PREFIX-1.hcpe``, … (numbers padded to the last
    one's width). Returns ``records``, ``positions``, ``parts`` (the files
    written, in order), ``faults`` and ``fault_count``."""
    return _kifconv.train_split(
        input, output, positions=positions, parts=parts, format=format, force=force
    )


def uniq(
    inputs: Any,
    output: _StrPath | None = None,
    *,
    by: Literal["record", "position"] = "record",
    flip_fold: bool = False,
    format: Kind | None = None,
    force: bool = False,
) -> Any:
    """The records of ``inputs`` with repeats left out, the first kept, in
    order: ``by="record"``, the same bytes; ``by="position"``, the same
    position (board, hands, side to move) whatever is stored with it, and
    with ``flip_fold`` its rotation too (HCPE and PackedSfenValue only).

    Files (one path or a list) are written to ``output``; the dict returned
    has ``read``, ``kept``, ``faults`` and ``fault_count``. Records in
    memory (an array of cshogi's dtype, :func:`read`'s list, or bytes with
    ``format``), with no ``output``, come back in the same form, kept ones
    only; a position that does not unpack is kept and given to
    ``warnings.warn``."""
    if output is None:
        data, kind, back = _in_memory(inputs, format)
        return back(_kifconv.train_uniq_bytes(data, kind, by=by, flip_fold=flip_fold))
    return _kifconv.train_uniq(
        _paths(inputs), output, by=by, flip_fold=flip_fold, format=format, force=force
    )


def filter(  # noqa: A001 - the command's name
    inputs: Any,
    output: _StrPath | None = None,
    *,
    max_abs_eval: int | None = None,
    drop_draws: bool = False,
    min_ply: int | None = None,
    format: Kind | None = None,
    force: bool = False,
) -> Any:
    """The records of ``inputs`` that pass every test given: the
    evaluation at most ``max_abs_eval`` in absolute value (HCPE,
    PackedSfenValue), a winner (``drop_draws``), PackedSfenValue's
    ``gamePly`` at least ``min_ply``. hcpe3 games are kept or left out
    whole, by their result.

    Files are written to ``output``; the dict returned has ``read``,
    ``kept``, ``faults`` and ``fault_count``. Records in memory, with no
    ``output``, come back in their own form, as :func:`uniq`'s."""
    if output is None:
        data, kind, back = _in_memory(inputs, format)
        return back(
            _kifconv.train_filter_bytes(
                data, kind, max_abs_eval=max_abs_eval, drop_draws=drop_draws, min_ply=min_ply
            )
        )
    return _kifconv.train_filter(
        _paths(inputs),
        output,
        max_abs_eval=max_abs_eval,
        drop_draws=drop_draws,
        min_ply=min_ply,
        format=format,
        force=force,
    )


def convert(
    input: _StrPath,
    output: _StrPath,
    *,
    to: Kind,
    move16: Literal["yaneuraou", "cshogi"] = "yaneuraou",
    format: Kind | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """``input`` rewritten as ``to`` into ``output``; a PackedSfenValue
    input's moves read as YaneuraOu's Move16 (the format's own) or, with
    ``move16="cshogi"``, as cshogi's (which :func:`check` tells). What the
    target cannot hold is given to ``warnings.warn`` as KifWarning. Returns
    ``read``, ``written``, ``losses`` (those warnings), ``errors`` (records
    that read but could not be written), ``faults`` and ``fault_count``."""
    return _kifconv.train_convert(
        input, output, to=to, move16=move16, format=format, force=force
    )
