"""kifconv.compat: cshogi's and python-shogi's readers over kifconv's.

The oracle, python/tests/data/cshogi-compat.json, is what cshogi 1.1.0
gives for the repository's CSA, KIF and KI2 fixtures, written by
scripts/compat-cshogi-vectors.py (run it again with the peers' python to
refresh it). The package's tests do not need cshogi."""

import io
import json
import os
import subprocess
import sys
import warnings

import pytest

import kifconv
from conftest import FIXTURES, REPO
from kifconv.compat import cshogi, python_shogi

ORACLE = REPO / "python" / "tests" / "data" / "cshogi-compat.json"
READERS = {"csa": cshogi.CSA.Parser, "kif": cshogi.KIF.Parser, "ki2": cshogi.KI2.Parser}

# Where kifconv reads a fixture differently from cshogi, on purpose: the
# attributes that differ, and the words of kifconv.compat.cshogi's
# documentation that tell why. Every other attribute must be equal.
DOCUMENTED = {
    "fixtures/csa/jkf-illegal-action.csa": ({"times"}, "joined with commas"),
    "fixtures/csa/jkf-yamada-gps-eucjp.csa": ({"times", "comment"}, "joined with commas"),
    "fixtures/csa/kifuforwindows-comma-space.csa": ({"times"}, "joined with commas"),
    "fixtures/csa/mog-002-stray-dot.csa": ({"times"}, "joined with commas"),
    "fixtures/csa/wars-one-line.csa": (
        {"moves", "times", "scores", "comments", "endgame", "win"}, "joined with commas"),
    "fixtures/csa/kifconv-promoted-named-unpromoted.csa": ({"moves"}, "(cshogi gives 0)"),
    "fixtures/csa/shogihome-v3.csa": ({"comment"}, "'CSA encoding="),
    "fixtures/tsume/sound-mate5.csa": ({"comment", "sfen"}, ("SFEN's order", "'CSA encoding=")),
    "fixtures/csa/skc-tsume.csa": ({"sfen", "moves"}, "``00AL``"),
    "fixtures/csa/stray-v-lines.csa": ({"version"}, "first ``V`` line"),
    "fixtures/kif/mog-002-81dojo.kif": (
        {"endgame", "win", "times"}, ("as well as the ``まで`` line", "``( 0:01/)``")),
    "fixtures/kif/mog-017-foul.kif": ({"moves", "comments", "endgame"}, "ends it before the illegal move"),
    "fixtures/kif/jkf-shogidokoro.kifu": (
        {"sfen", "moves", "times"}, ("board diagram", "``(0:01 / 0:00:01)``")),
    "fixtures/kif/kifconv-is-shogi-problems.kifu": (
        {"sfen", "moves", "endgame", "win", "var_info"}, ("board diagram", "cshogi takes the last")),
    "fixtures/kif/kifconv-warned-leniencies.kifu": ({"sfen"}, "a second 手合割"),
    "fixtures/kif/shogihome-entering-king-board.kifu": ({"sfen", "endgame", "win"}, "board diagram"),
    "fixtures/kif/skc-everyday-problem.kifu": (
        {"sfen", "moves", "times", "comments", "endgame", "win", "var_info"},
        ("board diagram", "The moves of a variation")),
}


def oracle():
    with open(ORACLE, encoding="utf-8") as f:
        return [e for e in json.load(f)["files"] if "games" in e]


def view(parser, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = parser.parse_file(path)
    games = got if isinstance(got, list) else [got]
    out = []
    for game in games:
        values = {a: getattr(game, a) for a in game._ATTRIBUTES}
        if values.get("starttime") is not None:
            values["starttime"] = values["starttime"].isoformat(sep=" ")
        out.append(values)
    return out


@pytest.mark.parametrize("entry", oracle(), ids=lambda e: e["path"])
def test_every_attribute_is_cshogi_s_but_the_documented(entry):
    theirs = entry["games"]
    ours = view(READERS[entry["format"]], REPO / entry["path"])
    assert len(ours) == len(theirs)
    allowed, reasons = DOCUMENTED.get(entry["path"], (set(), ()))
    for reason in (reasons,) if isinstance(reasons, str) else reasons:
        assert reason in cshogi.__doc__, f"{reason!r} is not documented"
    differing = set()
    for t, o in zip(theirs, ours):
        assert set(t) == set(o), "the attributes are cshogi's"
        for attr in t:
            if t[attr] != o[attr]:
                differing.add(attr)
                assert attr in allowed, f"{attr}: cshogi {t[attr]!r}, kifconv {o[attr]!r}"
    assert differing == allowed


def test_the_oracle_covers_the_three_readers_and_floodgate_s_comments():
    entries = oracle()
    assert {e["format"] for e in entries} == {"csa", "kif", "ki2"}
    games = [g for e in entries for g in e["games"]]
    assert any(g.get("ratings", [0, 0]) != [0.0, 0.0] for g in games)
    assert any(any(g.get("scores", [])) for g in games)
    assert sum(len(g["moves"]) for g in games) > 1000


def test_moves_are_cshogi_s_integers():
    [kif] = cshogi.CSA.Parser.parse_str(
        "PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0045KA\n-2233GI\n+4534KA\n%TORYO\n"
    )
    # The integers cshogi 1.1.0's Board.move_from_usi gives these moves:
    # a promotion that captures a bishop, a silver that captures a horse,
    # a drop (the piece in the origin's bits, no piece moved), a bishop
    # that captures a pawn.
    assert kif.moves == [0x11E3B, 0x10A15, 0x55630A, 0xD4090A, 0x2A9F, 0x40514, 0x150F95]
    assert [cshogi.move_to_usi(m) for m in kif.moves] == kif.record.moves


# Pushes each game's moves on cshogi's Board, each checked legal first,
# and writes them back as USI (the moves up to the first illegal one).
REPLAY = """
import json, sys, cshogi
out = []
for sfen, moves in json.load(sys.stdin):
    board, usi = cshogi.Board(sfen), []
    for move in moves:
        if not board.is_legal(move):
            break
        usi.append(cshogi.move_to_usi(move))
        board.push(move)
    out.append(usi)
print(json.dumps(out))
"""


def cshogi_python():
    """A Python with cshogi: this one, else $CSHOGI_PYTHON; None without."""
    try:
        import cshogi as _  # noqa: F401
    except ImportError:
        return os.environ.get("CSHOGI_PYTHON")
    return sys.executable


def compat_games():
    paths = sorted((FIXTURES / "csa").glob("*.csa")) + sorted(
        (FIXTURES / "training" / "filters").glob("*.csa"))
    games = []
    for path in paths:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                games += cshogi.CSA.Parser.parse_file(path)
        except kifconv.KifError:
            continue
    return games


def test_a_cshogi_loop_replays_every_game_with_kifconv_s_legality():
    """for kif in CSA.Parser.parse_file(...): board.push(move), the
    integers written back as USI and replayed by kifconv, which checks
    every move."""
    replayed = 0
    for kif in compat_games():
        usi = " ".join(cshogi.move_to_usi(m) for m in kif.moves)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [again] = kifconv.read_text(f"position sfen {kif.sfen} moves {usi}".strip())
        assert again.cshogi_moves() == kif.moves
        replayed += len(kif.moves)
    assert replayed > 500


def test_cshogi_s_board_pushes_every_move():
    """The same loop on cshogi's own Board, where cshogi is installed (here
    or in $CSHOGI_PYTHON): every move is legal to it and is the move
    kifconv read."""
    python = cshogi_python()
    if python is None:
        pytest.skip("cshogi is not importable (nor $CSHOGI_PYTHON set)")
    games = compat_games()
    given = json.dumps([[g.sfen, g.moves] for g in games])
    done = subprocess.run([python, "-c", REPLAY], input=given, capture_output=True,
                          text=True, check=True)
    assert json.loads(done.stdout) == [g.record.moves for g in games]


def test_a_mate_has_no_winner_unless_asked():
    text = "PI\n+\n+5756FU\n-5152OU\n%TSUMI\n"
    [kif] = cshogi.CSA.Parser.parse_str(text)
    assert (kif.endgame, kif.win) == ("%TSUMI", cshogi.DRAW)
    [kif] = cshogi.CSA.Parser.parse_str(text, mate_winner=True)
    assert kif.win == {"black": cshogi.BLACK_WIN, "white": cshogi.WHITE_WIN}[kif.record.ending["winner"]]


def test_csa_win_is_told_from_the_player_to_move():
    for ending, win in [("%TORYO", cshogi.WHITE_WIN), ("%KACHI", cshogi.BLACK_WIN),
                        ("%TIME_UP", cshogi.WHITE_WIN), ("%-ILLEGAL_ACTION", cshogi.BLACK_WIN),
                        ("%CHUDAN", cshogi.DRAW)]:
        [kif] = cshogi.CSA.Parser.parse_str(f"PI\n+\n+7776FU\n-3334FU\n{ending}\n")
        assert (kif.endgame, kif.win) == (ending, win)


def test_kif_gives_its_first_game_or_all():
    path = FIXTURES / "kif" / "kifconv-three-games.kifu"
    first = cshogi.KIF.Parser.parse_file(path)
    every = cshogi.KIF.Parser.parse_file(path, all_games=True)
    assert len(every) == 3
    assert first.moves == every[0].moves
    assert [g.record.moves for g in every] == [r.moves for r in kifconv.read(path)]


def test_parse_file_takes_open_files_and_an_encoding():
    path = FIXTURES / "csa" / "jkf-yamada-gps-eucjp.csa"
    by_path = cshogi.CSA.Parser.parse_file(path)
    with open(path, "rb") as f:
        by_file = cshogi.CSA.Parser.parse_file(f, encoding="euc-jp")
    text = path.read_bytes().decode("euc-jp")
    by_text = cshogi.CSA.Parser.parse_file(io.StringIO(text))
    assert by_path[0].names == by_file[0].names == by_text[0].names
    assert by_path[0].names[1].startswith("山田将棋")
    with pytest.raises(ValueError, match="kifconv reads"):
        cshogi.CSA.Parser.parse_file(path, encoding="latin-1")


def test_python_shogi_gives_its_dicts():
    [game] = python_shogi.CSA.Parser.parse_str("N+a\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n")
    assert game == {
        "names": ["a", None],
        "sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "moves": ["7g7f", "3c3d"],
        "win": "w",
    }
    [game] = python_shogi.KIF.Parser.parse_file(FIXTURES / "kif" / "jkf-kyoochi-mixed-eol.kif")
    # python-shogi 1.1.1 gives these for the file.
    assert game["names"] == ["糸谷哲郎", "深浦康市"]
    assert game["sfen"] == "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    assert game["win"] == "b"
    assert game["moves"][:3] == ["3c3d", "2g2f", "2b3c"]
    # An ending python-shogi has no result for: None; 中断: "-".
    sealed = "手合割：平手\n   1 ７六歩(77)\n   2 封じ手\nまで1手で封じ手\n"
    assert python_shogi.KIF.Parser.parse_str(sealed)[0]["win"] is None
    aborted = "手合割：平手\n   1 ７六歩(77)\n   2 中断\nまで1手で中断\n"
    assert python_shogi.KIF.Parser.parse_str(aborted)[0]["win"] == "-"
    # A special move with a time after a comma still ends the game.
    [game] = python_shogi.CSA.Parser.parse_file(FIXTURES / "csa" / "kifuforwindows-comma-space.csa")
    assert game["win"] == "b"


def test_kif_comments_after_the_terminal_word_are_the_last_move_s():
    """What cshogi 1.1.0's KIF reader gives for this text."""
    kif = cshogi.KIF.Parser.parse_str(
        "手合割：平手\n手数----指手---------消費時間--\n"
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n*一手目\n"
        "   2 ３四歩(33)   ( 0:02/00:00:02)\n"
        "   3 投了   ( 0:03/00:00:03)\n*投げた\n*早い\nまで2手で後手の勝ち\n"
    )
    assert kif.comments == ["一手目", "投げた\n早い"]
    assert kif.times == [1, 2, 3]
    assert (kif.win, kif.endgame) == (cshogi.WHITE_WIN, "%TORYO")
    assert (kif.names, kif.var_info, kif.comment, kif.starttime) == ([None, None], {}, "", None)
