"""kifconv.read, kifconv.read_text and Record."""

import pathlib
import warnings

import pytest

import kifconv
from conftest import FIXTURES, ran_meanwhile

THREE_GAMES = FIXTURES / "kif" / "kifconv-three-games.kifu"
HENKA = FIXTURES / "kif" / "jkf-henka.kif"


def test_read_a_path_as_str_and_as_pathlike():
    by_str = kifconv.read(str(THREE_GAMES))
    by_path = kifconv.read(pathlib.Path(THREE_GAMES))
    assert [r.moves for r in by_str] == [r.moves for r in by_path]
    assert len(by_str) == 3
    assert by_str[0].moves == ["7g7f", "3c3d", "8h2b+", "3a2b"]


def test_read_bytes_and_bytearray_tell_shift_jis_from_the_content():
    text = "▲７六歩　△３四歩　▲２六歩\nまで3手で中断\n"
    data = text.encode("cp932")
    for given in (data, bytearray(data)):
        [record] = kifconv.read(given)
        assert record.moves == ["7g7f", "3c3d", "2g2f"]
        assert record.ending == {"kind": "chudan", "winner": None, "text": "まで3手で中断"}


def test_forced_format_and_encoding():
    data = "+7776FU\n-3334FU\n".encode()
    assert kifconv.read(data, format="csa")[0].moves == ["7g7f", "3c3d"]
    # EUC-JP bytes forced as such read; told from the content they read too.
    euc = "▲７六歩\n".encode("euc_jp")
    assert kifconv.read(euc, encoding="euc-jp")[0].moves == ["7g7f"]
    with pytest.raises(ValueError, match="no such name"):
        kifconv.read(data, format="pgn")
    with pytest.raises(ValueError, match="encoding"):
        kifconv.read(data, encoding="latin-1")


def test_read_takes_no_other_type():
    with pytest.raises(TypeError):
        kifconv.read(42)


def test_read_text_with_and_without_a_format():
    [usi] = kifconv.read_text("position startpos moves 7g7f 3c3d 8h2b+")
    assert usi.moves == ["7g7f", "3c3d", "8h2b+"]
    [csa] = kifconv.read_text("+7776FU\n", "csa")
    assert csa.moves == ["7g7f"]


def test_record_headers_start_positions_and_ending():
    game = kifconv.read(THREE_GAMES)[0]
    assert game.headers["先手"] == "A"
    assert game.headers["手合割"] == "平手"
    assert game.start_sfen == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    positions = game.positions
    assert len(positions) == len(game.moves) + 1
    assert positions[0] == game.start_sfen
    assert positions[1] == "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    assert game.ending == {"kind": "toryo", "winner": "white", "text": "投了"}


def test_record_comments_by_ply_and_variations():
    game = kifconv.read(THREE_GAMES)[0]
    assert game.comments[0] == ["opening comment"]
    assert game.comments[2] == ["a comment"]
    assert len(game.comments) == len(game.moves) + 1
    # 変化：2手 — a second move 8c8d instead of 3c3d, after one ply.
    assert game.variations == [(1, ["8c8d"])]
    henka = kifconv.read(HENKA)[0]
    assert (2, ["7i6h", "3c3d", "6g6f"]) in henka.variations
    assert all(ply < len(henka.moves) for ply, _ in henka.variations)


def test_record_to_text_and_bytes():
    [game] = kifconv.read_text("position startpos moves 7g7f 3c3d")
    assert game.to("usi") == "position startpos moves 7g7f 3c3d\n"
    csa = game.to("csa")
    assert isinstance(csa, str) and "+7776FU" in csa and "-3334FU" in csa
    kif = game.to("kif")
    assert isinstance(kif, bytes)
    assert "７六歩(77)" in kif.decode("cp932")
    assert "７六歩(77)" in game.to("kifu")
    hcpe = game.to("hcpe")
    assert isinstance(hcpe, bytes) and len(hcpe) == 38 * 2
    assert len(game.to("psv")) == 40 * 2
    # Rotated: black's first move 7g7f is white's 3c3d seen from the other side.
    assert game.to("usi", flip=True).startswith("position sfen ")
    assert game.to("usi", flip=True).endswith(" moves 3c3d 7g7f\n")
    with pytest.raises(ValueError, match="no such name"):
        game.to("docx")


def test_round_trip_through_every_text_format():
    [game] = kifconv.read_text("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e")
    for fmt in ("kif", "kifu", "ki2", "ki2u", "csa", "jkf", "western", "usi"):
        written = game.to(fmt)
        again = kifconv.read(written.encode() if isinstance(written, str) else written)
        assert again[0].moves == game.moves, fmt


def test_an_illegal_move_raises_kiferror_with_its_place():
    path = FIXTURES / "bad" / "origin-without-piece.kifu"
    with pytest.raises(kifconv.KifError) as caught:
        kifconv.read(path)
    error = caught.value
    assert error.path == str(path)
    assert error.kind == "illegal"
    assert (error.line, error.column) == (3, 6)
    assert error.ply == 1
    assert "７六歩(75)" in error.text
    assert str(error).startswith(f"{path}:3:6: error: move 1: ")
    assert error.message in str(error)
    assert "^" in str(error)


def test_errors_in_bytes_and_text():
    with pytest.raises(kifconv.KifError) as caught:
        kifconv.read_text("+7776FU\n-7776FU\n")
    e = caught.value
    assert (e.path, e.line, e.column, e.kind, e.ply) == (None, 2, 1, "illegal", 2)
    assert str(e).startswith("<text>:2:1: error:")
    with pytest.raises(kifconv.KifError) as caught:
        kifconv.read(b"\x00\x01binary")
    assert caught.value.kind == "not_a_record"
    assert str(caught.value).startswith("<bytes>:")


def test_a_file_that_cannot_be_opened_raises_what_open_raises(tmp_path):
    missing = tmp_path / "no-such-file.kif"
    with pytest.raises(FileNotFoundError) as caught:
        kifconv.read(missing)
    assert caught.value.filename == str(missing)
    assert str(missing) in str(caught.value)
    assert not isinstance(caught.value, kifconv.KifError)
    with pytest.raises(IsADirectoryError) as caught:
        kifconv.read(tmp_path)
    assert caught.value.filename == str(tmp_path)
    assert not isinstance(caught.value, kifconv.KifError)


def _read_in(path):
    """What kifconv.read(path) raises, as (type name, filename)."""
    try:
        kifconv.read(path)
    except Exception as error:  # noqa: BLE001 — the type is the answer
        return type(error).__name__, getattr(error, "filename", None)
    return "no error", None


def test_a_file_without_read_permission_raises_permissionerror(tmp_path):
    import os

    locked = tmp_path / "locked.kif"
    locked.write_text("position startpos moves 7g7f\n")
    locked.chmod(0)
    if os.geteuid() != 0:
        assert _read_in(locked) == ("PermissionError", str(locked))
        return
    # Root reads any file: the check runs in a child that gives root up
    # (kifconv is already loaded) and sends its answer back through a pipe.
    tmp_path.chmod(0o755)
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        try:
            os.close(read_end)
            os.setgid(65534)
            os.setuid(65534)
            answer = "\t".join(map(str, _read_in(locked)))
            os.write(write_end, answer.encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        answer = pipe.read()
    os.waitpid(child, 0)
    assert answer == f"PermissionError\t{locked}"


def test_errors_keep_keeps_the_good_games_and_warns_each_bad_one_once():
    path = FIXTURES / "partial" / "csa-bad-second-game.csa"
    # By default one bad game fails the file.
    with pytest.raises(kifconv.KifError):
        kifconv.read(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games = kifconv.read(path, errors="keep")
    assert [g.moves for g in games] == [["7g7f", "3c3d"], ["2g2f", "8c8d"]]
    messages = [str(w.message) for w in caught if w.category is kifconv.KifWarning]
    bad = [m for m in messages if ": error: game 2 of 3: " in m]
    assert len(bad) == 1, messages
    assert bad[0].startswith(f"{path}:19:1: error: game 2 of 3: expected a move")
    # read_text the same, the text named <text>.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games = kifconv.read_text(path.read_text(), errors="keep")
    assert len(games) == 2
    assert sum(str(w.message).startswith("<text>:19:1: error: game 2 of 3") for w in caught) == 1
    # Nothing left to keep: the error is raised.
    with pytest.raises(kifconv.KifError, match="move 2"):
        kifconv.read_text("+7776FU\n-7776FU\n", errors="keep")


def test_errors_takes_raise_or_keep():
    with pytest.raises(ValueError, match='errors must be one of "raise" or "keep" \\(got "skip"\\)'):
        kifconv.read(b"+7776FU\n", errors="skip")
    with pytest.raises(ValueError, match="errors must be"):
        kifconv.read_text("+7776FU\n", errors="ignore")


def test_the_bad_game_of_a_stream_names_its_game():
    with pytest.raises(kifconv.KifError) as caught:
        kifconv.read(FIXTURES / "partial" / "csa-bad-second-game.csa")
    assert caught.value.game == 2
    assert caught.value.line > 1


def test_leniencies_are_warnings():
    lenient = FIXTURES / "kif" / "kifconv-warned-leniencies.kifu"
    with pytest.warns(kifconv.KifWarning, match=r"kifconv-warned-leniencies\.kifu:7:1: warning: "):
        [game] = kifconv.read(lenient)
    assert game.warnings and game.warnings[0].startswith("7:1: ")
    # Turned into errors by a filter, as any Python warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error", kifconv.KifWarning)
        with pytest.raises(kifconv.KifWarning):
            kifconv.read(lenient)


def test_a_clean_record_warns_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kifconv.read_text("position startpos moves 7g7f")


def test_training_data_files_read_back_as_records(tmp_path):
    [game] = kifconv.read_text("position startpos moves 7g7f 3c3d 2g2f")
    path = tmp_path / "game.hcpe"
    path.write_bytes(game.to("hcpe"))
    # A record per entry: the position before each move, and the move.
    entries = kifconv.read(path)
    assert [e.start_sfen.split(" ")[:3] for e in entries] == [
        p.split(" ")[:3] for p in game.positions[:-1]
    ]
    assert [e.moves for e in entries] == [[m] for m in game.moves]


def test_threads_read_the_same_records_as_one():
    from concurrent.futures import ThreadPoolExecutor

    paths = sorted((FIXTURES / "kif").glob("*.kif*")) * 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = [[r.moves for r in kifconv.read(p)] for p in paths]
        with ThreadPoolExecutor(4) as pool:
            many = list(pool.map(lambda p: [r.moves for r in kifconv.read(p)], paths))
    assert len(one) > 40 and all(one)
    assert many == one


def test_reading_releases_the_interpreter_lock(tmp_path):
    line = "position startpos moves " + " ".join(["5i5h", "5a5b", "5h5i", "5b5a"] * 50) + "\n"
    text = line * 3000
    path = tmp_path / "many.usi"
    path.write_text(text)
    by_read = ran_meanwhile(lambda: kifconv.read(path))
    by_text = ran_meanwhile(lambda: kifconv.read_text(text))
    assert by_read > 0 and by_text > 0
    # The check itself: a call that keeps the lock lets the other thread
    # run hardly at all (0 on an idle machine; a few dozen times once, on a
    # loaded one, when the operating system delayed the switch of interval),
    # far less than a call that lets it go (thousands).
    kept = ran_meanwhile(lambda: sum(range(3_000_000)))
    assert kept * 10 < min(by_read, by_text), (kept, by_read, by_text)


def test_record_evals_and_times_by_move():
    text = (
        "手数----指手---------消費時間--\n"
        "   1 ７六歩(77)   ( 0:03/00:00:03)\n"
        "*#評価値=120\n"
        "   2 ３四歩(33)   ( 1:30/00:01:30)\n"
        "   3 ２六歩(27)\n"
        "*#評価値=-45\n"
    )
    [game] = kifconv.read_text(text, "kif")
    assert game.moves == ["7g7f", "3c3d", "2g2f"]
    assert game.evals == [120, None, -45]
    assert game.times == [3.0, 90.0, None]
    assert game.positions == game.positions  # a property, like moves
    assert len(game.positions) == 4
