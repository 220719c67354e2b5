"""kifconv.train: the training-file toolkit from Python, byte for byte what
``kifconv train`` writes and with the counts it says, and training files
read as numpy arrays in cshogi's dtypes whose fields hold what the files
hold. The game of ``fixtures/csa/mog-002-stray-dot.csa`` (258 moves, with
drops and promotions) and the six short games of
``fixtures/training/filters`` are the inputs, made by the command."""

import re
import struct
import warnings

import numpy as np
import pytest

import kifconv
from conftest import FILTERS, FIXTURES
from kifconv import train

GAME = FIXTURES / "csa" / "mog-002-stray-dot.csa"


@pytest.fixture
def made(cli, tmp_path):
    """The training data ``kifconv INPUT --to KIND`` writes, saved as
    ``name``."""

    def make(input, kind, name, *more):
        out = cli(input, "--to", kind, "-q", *more)
        assert out.returncode == 0, out.stderr
        path = tmp_path / name
        path.write_bytes(out.stdout)
        return path

    return make


def said(out):
    return out.stderr.decode()


def square(text):
    """A USI square's number in both move layouts: (file - 1) * 9 + rank - 1."""
    return (int(text[0]) - 1) * 9 + "abcdefghi".index(text[1])


def move16(usi, layout):
    """A USI move's 16-bit code, as cshogi (``"cshogi"``, Apery's layout)
    or YaneuraOu (``"yaneuraou"``) write it."""
    if usi[1] == "*":
        piece = "PLNSBRG".index(usi[0]) + 1
        to = square(usi[2:4])
        return to | (80 + piece) << 7 if layout == "cshogi" else to | piece << 7 | 1 << 14
    code = square(usi[2:4]) | square(usi[0:2]) << 7
    if usi.endswith("+"):
        code |= 1 << 14 if layout == "cshogi" else 1 << 15
    return code


def test_read_gives_cshogi_dtypes_holding_the_files_fields(made):
    hcpe_path = made(GAME, "hcpe", "game.hcpe")
    psv_path = made(GAME, "psv", "game.psv")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kifconv.KifWarning)  # the stray dots
        moves = kifconv.read(GAME)[0].moves
    assert len(moves) == 258

    hcpe = train.read(hcpe_path)
    assert hcpe.dtype == kifconv.HuffmanCodedPosAndEval
    raw = hcpe_path.read_bytes()
    assert hcpe.tobytes() == raw
    # Each field is the bytes at its place, read as cshogi reads them.
    for i in (0, 1, 100, 257):
        hcp, value, best, result = struct.unpack_from("<32shhb", raw, 38 * i)
        assert (hcpe["hcp"][i].tobytes(), hcpe["eval"][i]) == (hcp, value)
        assert (hcpe["bestMove16"][i], hcpe["gameResult"][i]) == (best, result)
    # The moves are the game's, in cshogi's move16; drops and promotions too.
    assert list(hcpe["bestMove16"]) == [move16(m, "cshogi") for m in moves]
    assert any("*" in m for m in moves) and any(m.endswith("+") for m in moves)

    psv = train.read(psv_path)
    assert psv.dtype == kifconv.PackedSfenValue
    assert psv.tobytes() == psv_path.read_bytes()
    assert list(psv["move"]) == [move16(m, "yaneuraou") for m in moves]
    assert list(psv["gamePly"]) == list(range(1, 259))
    # The same result both ways: HCPE's winner (1 black, 2 white, 0 none)
    # is PackedSfenValue's ±1 from the side to move (0 none); here, black
    # to move on even entries.
    black_to_move = np.arange(258) % 2 == 0
    won = hcpe["gameResult"]
    expected = np.where(won == 0, 0, np.where(black_to_move == (won == 1), 1, -1))
    assert list(psv["game_result"]) == list(expected)


def test_evaluations_read_from_the_side_to_move(made):
    hcpe = train.read(made(FILTERS, "hcpe", "all.hcpe"))
    # rated-resign's evaluations are 5, 15, 25, … from black's view; the
    # games are in file order, and it is the fourth.
    first = len(kifconv.read(FILTERS / "aborted.csa")[0].moves) * 2 + 6
    assert list(hcpe["eval"][first : first + 3]) == [5, -15, 25]


def test_read_without_numpy_gives_each_records_bytes(made):
    path = made(GAME, "hcpe", "game.hcpe")
    records = train.read(path, numpy=False)
    assert len(records) == 258 and {len(r) for r in records} == {38}
    assert b"".join(records) == path.read_bytes()
    games = made(FILTERS, "hcpe3", "games.hcpe3")
    blocks = train.read(games, numpy=False)
    assert len(blocks) == 6
    assert b"".join(blocks) == games.read_bytes()
    # As numpy: (header, moves) games, each header's moveNum its moves.
    as_numpy = train.read(games)
    assert [len(moves) for _, moves in as_numpy] == [int(h["moveNum"]) for h, _ in as_numpy]
    assert [len(b) for b in blocks] == [
        36 + sum(6 + 4 * int(info["candidateNum"]) for info, _ in moves)
        for _, moves in as_numpy
    ]


def test_read_refuses_a_file_cut_short(made, tmp_path):
    path = made(GAME, "psv", "game.psv")
    cut = tmp_path / "cut.psv"
    cut.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(kifconv.KifError, match=r"entry 257 \(byte 10280\): the file ends 37 bytes in"):
        train.read(cut)
    with pytest.raises(ValueError, match="give --format"):
        train.read(FILTERS / "short.csa")


def test_shuffle_writes_what_the_command_writes(cli, made, tmp_path):
    path = made(GAME, "hcpe", "game.hcpe")
    out = cli("train", "shuffle", path, "-o", tmp_path / "cli.hcpe", "--seed", "7", "--memory", "1")
    assert out.returncode == 0
    done = train.shuffle(path, tmp_path / "py.hcpe", seed=7, memory=1)
    assert (tmp_path / "py.hcpe").read_bytes() == (tmp_path / "cli.hcpe").read_bytes()
    assert f"{done['records']} records shuffled ({done['buckets']} buckets)" in said(out)
    assert done["records"] == 258 and done["fault_count"] == 0
    other = train.shuffle([path], tmp_path / "other.hcpe", seed=8, memory=1)
    assert other["records"] == 258
    assert (tmp_path / "other.hcpe").read_bytes() != (tmp_path / "py.hcpe").read_bytes()


def test_an_output_there_is_kept_without_force(made, tmp_path):
    path = made(GAME, "hcpe", "game.hcpe")
    there = tmp_path / "there.hcpe"
    there.write_bytes(b"keep")
    with pytest.raises(FileExistsError, match="force=True"):
        train.shuffle(path, there, seed=1)
    assert there.read_bytes() == b"keep"
    train.shuffle(path, there, seed=1, force=True)
    assert len(there.read_bytes()) == 258 * 38
    # Nor is an input ever written.
    before = path.read_bytes()
    with pytest.raises(kifconv.KifError, match="one of the inputs"):
        train.filter(path, path, drop_draws=True, force=True)
    assert path.read_bytes() == before
    with pytest.raises(FileNotFoundError):
        train.uniq(tmp_path / "none.hcpe", tmp_path / "u.hcpe")


@pytest.mark.parametrize(
    "kind, keywords, args, kept",
    [
        ("hcpe", {"by": "record"}, [], 66),
        ("hcpe", {"by": "position"}, ["--by", "position"], 14),
        ("psv", {"by": "position", "flip_fold": True}, ["--by", "position", "--flip-fold"], 7),
    ],
)
def test_uniq_keeps_what_the_command_keeps(cli, made, tmp_path, kind, keywords, args, kept):
    # The six games, then the same rotated 180°: no record twice, but each
    # position of the second file is a rotation of one of the first's.
    one = made(FILTERS, kind, f"a.{kind}")
    two = made(FILTERS, kind, f"b.{kind}", "--flip")
    out = cli("train", "uniq", one, two, "-o", tmp_path / f"cli.{kind}", *args)
    assert out.returncode == 0
    done = train.uniq([one, two], tmp_path / f"py.{kind}", **keywords)
    written = (tmp_path / f"py.{kind}").read_bytes()
    assert written == (tmp_path / f"cli.{kind}").read_bytes()
    told = tuple(map(int, re.search(r"(\d+) of (\d+) records kept", said(out)).groups()))
    assert (done["kept"], done["read"]) == told == (kept, 66)
    # The same on arrays: the records kept, in cshogi's dtype.
    both = np.concatenate([train.read(one), train.read(two)])
    assert train.uniq(both, **keywords).tobytes() == written


@pytest.mark.parametrize(
    "kind, keywords, args",
    [
        ("hcpe", {"max_abs_eval": 30}, ["--max-abs-eval", "30"]),
        ("psv", {"drop_draws": True, "min_ply": 3}, ["--drop-draws", "--min-ply", "3"]),
        ("hcpe3", {"drop_draws": True}, ["--drop-draws"]),
    ],
)
def test_filter_keeps_what_the_command_keeps(cli, made, tmp_path, kind, keywords, args):
    path = made(FILTERS, kind, f"all.{kind}")
    out = cli("train", "filter", path, "-o", tmp_path / f"cli.{kind}", *args)
    assert out.returncode == 0
    done = train.filter(path, tmp_path / f"py.{kind}", **keywords)
    written = (tmp_path / f"py.{kind}").read_bytes()
    assert written == (tmp_path / f"cli.{kind}").read_bytes()
    kept, read = map(int, re.search(r"(\d+) of (\d+) records kept", said(out)).groups())
    assert (done["kept"], done["read"]) == (kept, read)
    assert 0 < done["kept"] < done["read"]
    records = train.read(path)
    kept_records = train.filter(records, **keywords)
    if kind == "hcpe3":
        assert len(kept_records) == done["kept"]
        assert b"".join(train.read(tmp_path / f"py.{kind}", numpy=False)) == written
    else:
        assert kept_records.tobytes() == written
        assert kept_records.dtype == records.dtype
    if kind == "hcpe":
        assert all(abs(v) <= 30 for v in kept_records["eval"])
    # Bytes in, bytes out.
    assert train.filter(path.read_bytes(), format=kind, **keywords) == written


def test_options_the_command_refuses_are_value_errors(made, tmp_path):
    hcpe = made(FILTERS, "hcpe", "all.hcpe")
    with pytest.raises(ValueError, match="HCPE stores no move number"):
        train.filter(hcpe, tmp_path / "x.hcpe", min_ply=3)
    with pytest.raises(ValueError, match="flip-fold goes with --by position"):
        train.uniq(hcpe, tmp_path / "x.hcpe", flip_fold=True)
    with pytest.raises(ValueError, match="by must be one of"):
        train.uniq(hcpe, tmp_path / "x.hcpe", by="game")
    with pytest.raises(ValueError, match="positions=N or parts=N"):
        train.split(hcpe, tmp_path / "part")
    with pytest.raises(ValueError, match="PackedSfenValue input only"):
        train.convert(hcpe, tmp_path / "x.psv", to="psv", move16="cshogi")
    psv = made(FILTERS, "psv", "all.psv")
    with pytest.raises(ValueError, match="every input must be of one kind"):
        train.shuffle([hcpe, psv], tmp_path / "x.hcpe", seed=1)
    assert not (tmp_path / "x.hcpe").exists() and not (tmp_path / "x.psv").exists()


@pytest.mark.parametrize("how, args", [({"parts": 3}, ["--parts", "3"]), ({"positions": 100}, ["--positions", "100"])])
def test_split_cuts_as_the_command_cuts(cli, made, tmp_path, how, args):
    path = made(GAME, "psv", "game.psv")
    (tmp_path / "cli").mkdir()
    (tmp_path / "py").mkdir()
    out = cli("train", "split", path, "-o", tmp_path / "cli" / "part", *args)
    assert out.returncode == 0
    done = train.split(path, tmp_path / "py" / "part", **how)
    names = [p.name for p in sorted((tmp_path / "cli").iterdir())]
    assert [p.rsplit("/", 1)[-1] for p in done["parts"]] == names
    for name in names:
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    assert (done["records"], done["positions"]) == (258, 258)
    assert f"258 records in {len(names)} parts (258 positions)" in said(out)
    with pytest.raises(FileExistsError, match="force=True"):
        train.split(path, tmp_path / "py" / "part", **how)


def test_convert_writes_what_the_command_writes_and_says_the_losses(cli, made, tmp_path):
    path = made(GAME, "hcpe", "game.hcpe")
    out = cli("train", "convert", path, "-o", tmp_path / "cli.hcpe3", "--to", "hcpe3")
    assert out.returncode == 0
    with pytest.warns(kifconv.KifWarning) as caught:
        done = train.convert(path, tmp_path / "py.hcpe3", to="hcpe3")
    assert (tmp_path / "py.hcpe3").read_bytes() == (tmp_path / "cli.hcpe3").read_bytes()
    assert (done["read"], done["written"], done["errors"]) == (258, 258, [])
    assert "each entry is written as an hcpe3 game of one move" in done["losses"]
    for loss in done["losses"]:
        assert f"warning: {loss}" in said(out)
    assert [str(w.message).split(": ", 1)[1] for w in caught] == done["losses"]


def plant_faults(good):
    """The good HCPE file with a fault planted in three entries — an
    illegal move (the start's 7g pawn two squares on), a result code that
    means nothing, a corrupt position — and a tail cut short."""
    data = bytearray(good)
    data[34:36] = struct.pack("<H", move16("7g7e", "cshogi"))
    data[2 * 38 + 36] = 3
    data[4 * 38 : 4 * 38 + 32] = b"\xff" * 32
    return bytes(data) + bytes(5)


def test_check_names_each_fault_as_the_command_does(cli, made, tmp_path):
    good = made(FILTERS, "hcpe", "good.hcpe")
    clean = train.check(good)
    assert (clean["records"], clean["fault_count"], clean["sound"]) == (33, 0, True)
    assert clean["move16"] is None and clean["kind"] == "hcpe"
    bad = tmp_path / "bad.hcpe"
    bad.write_bytes(plant_faults(good.read_bytes()))
    out = cli("train", "check", bad)
    assert out.returncode == 1
    checked = train.check(bad)
    assert not checked["sound"]
    assert (checked["records"], checked["fault_count"]) == (33, 4)
    places = [(f["unit"], f["index"], f["offset"]) for f in checked["faults"]]
    assert places == [("entry", 0, 34), ("entry", 2, 112), ("entry", 4, 152), ("entry", 33, 1254)]
    assert "illegal move 7g7e" in checked["faults"][0]["reason"]
    assert checked["faults"][1]["reason"] == "the result 3 means nothing"
    # Each fault, then the summary: the command's lines.
    lines = [f["message"] for f in checked["faults"]] + [checked["summary"]]
    assert lines == out.stdout.decode().splitlines()
    # In memory, the same faults at the same places.
    in_memory = train.check(bad.read_bytes(), format="hcpe")
    assert [(f["index"], f["offset"], f["reason"]) for f in in_memory["faults"]] == [
        (f["index"], f["offset"], f["reason"]) for f in checked["faults"]
    ]


def as_cshogi(psv):
    """PackedSfenValue entries with their moves rewritten in cshogi's
    move16: a promotion's bit 15 becomes bit 14, a drop's piece goes to
    the origin as 80 plus the piece."""
    out = psv.copy()
    code = out["move"].astype(np.uint32)
    to = code & 0x7F
    drop = (code & (1 << 14)) != 0
    promote = (code & (1 << 15)) != 0
    piece = (code >> 7) & 0x7F
    out["move"] = np.where(
        drop, to | (80 + piece) << 7, np.where(promote, (code & 0x3FFF) | 1 << 14, code)
    )
    return out


def test_check_tells_the_move16_convention(cli, made, tmp_path):
    path = made(GAME, "psv", "yaneuraou.psv")
    psv = train.read(path)
    rewritten = as_cshogi(psv)
    assert (rewritten["move"] != psv["move"]).any()
    cshogi = tmp_path / "cshogi.psv"
    cshogi.write_bytes(rewritten.tobytes())
    out = cli("train", "check", path, cshogi)
    assert out.returncode == 0
    ours, theirs = train.check(path), train.check(cshogi)
    assert [ours["summary"], theirs["summary"]] == out.stdout.decode().splitlines()
    assert (ours["move16"], theirs["move16"]) == ("yaneuraou", "cshogi")
    told = ours["layouts"]["yaneuraou_only"]
    assert told > 0 and theirs["layouts"]["cshogi_only"] == told
    assert train.check(rewritten)["move16"] == "cshogi"
    # Half of each is mixed, and not sound.
    mixed = train.check(np.concatenate([psv[:129], rewritten[129:]]))
    assert (mixed["move16"], mixed["sound"]) == ("mixed", False)
    # Read as cshogi's, the file converts back to YaneuraOu's.
    done = train.convert(cshogi, tmp_path / "fixed.psv", to="psv", move16="cshogi")
    assert done["written"] == 258
    assert (tmp_path / "fixed.psv").read_bytes() == path.read_bytes()


def test_pack_is_packed_sfen_values(made, tmp_path):
    psv = made(GAME, "psv", "game.psv")
    pack = tmp_path / "teacher.pack"
    pack.write_bytes(psv.read_bytes())
    assert train.check(pack)["kind"] == "psv"
    assert train.read(pack).dtype == kifconv.PackedSfenValue
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert train.check(pack.read_bytes(), format="pack")["records"] == 258


def test_the_first_hundred_faults_of_a_file_are_listed_all_counted(cli, tmp_path):
    bad = tmp_path / "bad.hcpe"
    bad.write_bytes(b"\xff" * 38 * 150)
    out = cli("train", "check", bad)
    assert out.returncode == 1
    checked = train.check(bad)
    assert (checked["records"], checked["fault_count"], len(checked["faults"])) == (150, 150, 100)
    assert [f["index"] for f in checked["faults"]] == list(range(100))
    lines = out.stdout.decode().splitlines()
    assert lines[:100] == [f["message"] for f in checked["faults"]]
    assert lines[100] == f"{bad}: 50 more faults not listed"
    assert lines[101] == checked["summary"]
    # A run that writes keeps the records it could not compare, and lists
    # them the same way.
    done = train.uniq(bad, tmp_path / "u.hcpe", by="position")
    assert (done["read"], done["kept"], done["fault_count"], len(done["faults"])) == (150, 150, 150, 100)


def test_without_numpy_read_gives_bytes(made, monkeypatch):
    path = made(GAME, "psv", "game.psv")
    monkeypatch.setattr(train, "_numpy", lambda: None)
    records = train.read(path)
    assert isinstance(records, list) and len(records) == 258
    assert b"".join(records) == path.read_bytes()
    # And a list of records' bytes goes through filter as bytes again.
    kept = train.filter(records, format="psv", min_ply=250)
    assert kept == records[249:]
