"""kifconv.as_array and the training-data dtypes (the numpy extra)."""

import os
import subprocess
import sys

import pytest

numpy = pytest.importorskip("numpy")

import kifconv  # noqa: E402

# The layouts, written out: cshogi's HCPE and PSV, dlshogi's hcpe3.
LAYOUTS = {
    "HuffmanCodedPosAndEval": (
        [("hcp", "|u1", (32,)), ("eval", "<i2"), ("bestMove16", "<i2"),
         ("gameResult", "|i1"), ("dummy", "|u1")],
        38,
    ),
    "PackedSfenValue": (
        [("sfen", "|u1", (32,)), ("score", "<i2"), ("move", "<u2"), ("gamePly", "<u2"),
         ("game_result", "|i1"), ("padding", "|u1")],
        40,
    ),
    "HuffmanCodedPosAndEval3": (
        [("hcp", "|u1", (32,)), ("moveNum", "<u2"), ("result", "|u1"), ("opponent", "|u1")],
        36,
    ),
    "MoveInfo": ([("selectedMove16", "<i2"), ("eval", "<i2"), ("candidateNum", "<u2")], 6),
    "MoveVisits": ([("move16", "<i2"), ("visitNum", "<u2")], 4),
}

# The start position as HCP, and 7g7f as move16 (the format notes' vectors).
START_HCP = bytes.fromhex("58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c")
START_PSFEN = bytes.fromhex("58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c")
MOVE_7G7F = 0x1E3B


def test_the_dtypes_are_the_written_layouts():
    for name, (descr, size) in LAYOUTS.items():
        dtype = getattr(kifconv, name)
        assert dtype.descr == descr, name
        assert dtype.itemsize == size, name
        assert dtype == numpy.dtype(descr), name


def _cshogi_descrs():
    """cshogi's HCPE and PSV dtypes, from cshogi imported here, else from
    the Python $CSHOGI_PYTHON names; None when neither has it."""
    code = "import cshogi; print(repr([cshogi.HuffmanCodedPosAndEval.descr, cshogi.PackedSfenValue.descr]))"
    try:
        import cshogi
    except ImportError:
        python = os.environ.get("CSHOGI_PYTHON")
        if not python:
            return None
        done = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
        hcpe, psv = eval(done.stdout)  # noqa: S307 — a repr of lists of tuples
        return hcpe, psv
    return cshogi.HuffmanCodedPosAndEval.descr, cshogi.PackedSfenValue.descr


def test_the_dtypes_equal_cshogis():
    theirs = _cshogi_descrs()
    if theirs is None:
        pytest.skip("cshogi is not importable (nor $CSHOGI_PYTHON set)")
    hcpe, psv = theirs
    assert kifconv.HuffmanCodedPosAndEval == numpy.dtype(hcpe)
    assert kifconv.HuffmanCodedPosAndEval.descr == hcpe
    assert kifconv.PackedSfenValue == numpy.dtype(psv)
    assert kifconv.PackedSfenValue.descr == psv


def test_hcpe_and_psv_entries_as_arrays():
    [game] = kifconv.read_text("position startpos moves 7g7f 3c3d")
    hcpe = kifconv.as_array(game.to("hcpe"), "hcpe")
    assert hcpe.dtype == kifconv.HuffmanCodedPosAndEval and hcpe.shape == (2,)
    assert hcpe[0]["hcp"].tobytes() == START_HCP
    assert hcpe[0]["bestMove16"] == MOVE_7G7F
    psv = kifconv.as_array(game.to("psv"), "psv")
    assert psv.dtype == kifconv.PackedSfenValue and psv.shape == (2,)
    assert psv[0]["sfen"].tobytes() == START_PSFEN
    assert psv[0]["move"] == MOVE_7G7F
    assert list(psv["gamePly"]) == [1, 2]
    # No copy: the array is a view of the bytes.
    data = bytearray(game.to("hcpe"))
    view = kifconv.as_array(data, "hcpe")
    data[32] = 7
    assert view[0]["eval"] & 0xFF == 7


def test_hcpe3_is_a_list_of_games():
    [one] = kifconv.read_text("position startpos moves 7g7f 3c3d 2g2f")
    [two] = kifconv.read_text("position startpos moves 2g2f")
    data = one.to("hcpe3") + two.to("hcpe3")
    games = kifconv.as_array(data, "hcpe3")
    assert len(games) == 2
    header, moves = games[0]
    assert header.dtype == kifconv.HuffmanCodedPosAndEval3
    assert header["hcp"].tobytes() == START_HCP
    assert header["moveNum"] == 3 and len(moves) == 3
    info, visits = moves[0]
    assert info.dtype == kifconv.MoveInfo and visits.dtype == kifconv.MoveVisits
    assert info["selectedMove16"] == MOVE_7G7F and info["candidateNum"] == 1
    assert list(visits["move16"]) == [MOVE_7G7F] and list(visits["visitNum"]) == [1]
    assert games[1][0]["moveNum"] == 1 and len(games[1][1]) == 1
    assert kifconv.as_array(b"", "hcpe3") == []


def test_cut_data_and_unknown_kinds_are_value_errors():
    [game] = kifconv.read_text("position startpos moves 7g7f 3c3d")
    with pytest.raises(ValueError, match=r"^hcpe data is 75 bytes.* the entry at byte 38 is cut after 37 bytes$"):
        kifconv.as_array(game.to("hcpe")[:-1], "hcpe")
    with pytest.raises(ValueError, match=r"40-byte entries"):
        kifconv.as_array(game.to("psv") + b"\0", "psv")
    hcpe3 = game.to("hcpe3")
    with pytest.raises(ValueError, match=r"ends inside game 1: its move 2's candidates at byte 52 needs 4 bytes, 3 are left"):
        kifconv.as_array(hcpe3[:-1], "hcpe3")
    with pytest.raises(ValueError, match=r"ends inside game 2: its header at byte 56"):
        kifconv.as_array(hcpe3 + b"\0", "hcpe3")
    with pytest.raises(ValueError, match=r'kind must be one of "hcpe", "psv" or "hcpe3" \(got \'sfen\'\)'):
        kifconv.as_array(b"", "sfen")


def test_without_numpy_the_package_imports_and_as_array_says_what_to_install():
    # numpy made unimportable in a fresh interpreter.
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from kifconv import *\n"
        "import kifconv\n"
        "try:\n"
        "    kifconv.as_array(b'', 'hcpe')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install ./python[numpy]" in done.stdout, done
    assert done.stderr == ""
