"""kifconv.training: HCPE, hcpe3 and PackedSfenValue from Python, byte for
byte the command's, and HCPE decoded by numpy with cshogi's dtype."""

import numpy as np
import pytest

import kifconv
from conftest import FILTERS, ran_meanwhile

try:
    from cshogi import HuffmanCodedPosAndEval as HCPE_DTYPE
except ImportError:
    # cshogi's dtype, as cshogi 1.1 declares it: 32 bytes of Huffman-coded
    # position, the evaluation, the move (16 bits), the game's result, a pad
    # byte.
    HCPE_DTYPE = np.dtype(
        [
            ("hcp", np.uint8, 32),
            ("eval", np.int16),
            ("bestMove16", np.int16),
            ("gameResult", np.int8),
            ("dummy", np.uint8),
        ]
    )


def test_hcpe_equals_the_command_and_numpy_decodes_it(cli):
    data = kifconv.training(FILTERS, "hcpe", jobs=2)
    command = cli(FILTERS, "--to", "hcpe", "-j", "2")
    assert command.returncode == 0
    assert data == command.stdout
    assert HCPE_DTYPE.itemsize == 38
    entries = np.frombuffer(data, HCPE_DTYPE)
    moves = sum(len(kifconv.read(p)[0].moves) for p in sorted(FILTERS.glob("*.csa")))
    assert len(entries) == moves
    # rated-resign's evaluations are 5, 15, 25, … from black's view; the
    # games are in file order, and it is the fourth.
    first = len(kifconv.read(FILTERS / "aborted.csa")[0].moves) * 2 + 6
    assert list(entries["eval"][first : first + 3]) == [5, -15, 25]
    assert set(entries["gameResult"]) <= {0, 1, 2}


@pytest.mark.parametrize(
    "filters, args",
    [
        ({"min_moves": 3}, ["--min-moves", "3"]),
        ({"min_rating": 3500, "rating_of": "loser"}, ["--min-rating", "3500", "--rating-of", "loser"]),
        ({"results": ["toryo"], "require_eval": True}, ["--results", "toryo", "--require-eval"]),
        # One string, as the command takes it, or a list: the same games.
        ({"results": "toryo"}, ["--results", "toryo"]),
        ({"results": "toryo,kachi"}, ["--results", "toryo,kachi"]),
        ({"results": ["toryo", "kachi"]}, ["--results", "toryo,kachi"]),
        ({"uniq": True}, ["--uniq"]),
        ({"uniq": "positions", "flip_fold": True}, ["--uniq=positions", "--flip-fold"]),
        ({"max_eval": 25}, ["--max-eval", "25"]),
    ],
)
def test_filters_equal_the_commands(cli, filters, args):
    data = kifconv.training(FILTERS, "hcpe", **filters)
    everything = kifconv.training(FILTERS, "hcpe")
    assert data == cli(FILTERS, "--to", "hcpe", *args).stdout
    assert 0 < len(data) < len(everything)


@pytest.mark.parametrize("kind, size", [("hcpe3", None), ("psv", 40)])
def test_other_kinds_equal_the_commands(cli, kind, size):
    data = kifconv.training(FILTERS / "short.csa", kind)
    assert data == cli(FILTERS / "short.csa", "--to", kind).stdout
    if size:
        assert len(data) == size * 2


def test_training_to_a_file(tmp_path):
    path = tmp_path / "train.hcpe"
    assert kifconv.training(FILTERS, "hcpe", path) is None
    assert path.read_bytes() == kifconv.training(FILTERS, "hcpe")
    with pytest.raises(FileExistsError):
        kifconv.training(FILTERS, "hcpe", path)
    kifconv.training(FILTERS / "short.csa", "hcpe", path, force=True)
    assert len(path.read_bytes()) == 38 * 2
    assert [p.name for p in tmp_path.iterdir()] == ["train.hcpe"]


def test_failed_inputs_raise_or_are_warnings(tmp_path):
    bad = tmp_path / "bad.csa"
    bad.write_text("+7776FU\n-7776FU\n")
    with pytest.raises(kifconv.KifError, match=r"move 2"):
        kifconv.training([bad, FILTERS / "short.csa"], "hcpe")
    with pytest.warns(kifconv.KifWarning, match=r"bad\.csa:2:1: error: move 2"):
        data = kifconv.training([bad, FILTERS / "short.csa"], "hcpe", errors="keep")
    assert len(data) == 38 * 2


def test_bad_choices_are_value_errors():
    with pytest.raises(ValueError, match="hcpe, hcpe3 or psv"):
        kifconv.training(FILTERS, "usi")
    with pytest.raises(ValueError, match='results: "resign" is no ending'):
        kifconv.training(FILTERS, results=["resign"])
    with pytest.raises(ValueError, match='flip_fold goes with uniq="positions"'):
        kifconv.training(FILTERS, flip_fold=True, uniq=True)


def test_cshogi_reads_the_positions_and_moves():
    """Where cshogi is installed (not in CI), its own board decodes every
    entry to the position and move of the records."""
    cshogi = pytest.importorskip("cshogi")
    data = kifconv.training(FILTERS / "rated-resign.csa", "hcpe")
    entries = np.frombuffer(data, cshogi.HuffmanCodedPosAndEval)
    [game] = kifconv.read(FILTERS / "rated-resign.csa")
    board = cshogi.Board()
    for entry, sfen, usi in zip(entries, game.positions[:-1], game.moves, strict=True):
        board.set_hcp(entry["hcp"])
        assert board.sfen().split(" ")[:3] == sfen.split(" ")[:3]
        assert cshogi.move_to_usi(board.move_from_move16(int(entry["bestMove16"]))) == usi


def test_training_releases_the_interpreter_lock():
    assert ran_meanwhile(lambda: kifconv.training([FILTERS] * 200, "hcpe", jobs=1)) > 0
