"""Record.headers and the typed header properties: one vocabulary, whatever
format the record came from."""

import collections.abc
import json

import pytest

import kifconv

KIF = """先手：羽生善治
後手：谷川浩司
棋戦：名人戦
開始日時：2024/01/02 10:00:00
持ち時間：各6時間
手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
"""

CSA = """V2.2
N+羽生善治
N-谷川浩司
$EVENT:名人戦
$START_TIME:2024/01/02 10:00:00
$TIME_LIMIT:各6時間
PI
+
+7776FU
"""

WESTERN = """[Sente "羽生善治"]
[Gote "谷川浩司"]
[Event "名人戦"]
[Date "2024/01/02 10:00:00"]
[TimeControl "各6時間"]
1. P-7f *
"""

GAMES = {"kif": KIF, "csa": CSA, "western": WESTERN}


@pytest.mark.parametrize("fmt", sorted(GAMES))
def test_typed_properties_are_the_same_for_every_format(fmt):
    [game] = kifconv.read_text(GAMES[fmt], fmt)
    assert game.black_player == "羽生善治"
    assert game.white_player == "谷川浩司"
    assert game.event == "名人戦"
    assert game.start_time == "2024/01/02 10:00:00"
    assert game.time_control == "各6時間"


@pytest.mark.parametrize("fmt", sorted(GAMES))
def test_headers_answer_to_every_spelling_of_a_field(fmt):
    [game] = kifconv.read_text(GAMES[fmt], fmt)
    headers = game.headers
    for key in ("先手", "下手", "N+", "Sente"):
        assert headers[key] == "羽生善治", key
        assert key in headers
        assert headers.get(key) == "羽生善治"
    for key in ("棋戦", "$EVENT", "Event"):
        assert headers[key] == "名人戦", key
    assert headers["後手"] == "谷川浩司"
    assert "備考" not in headers
    assert headers.get("備考") is None
    assert headers.get("備考", "none") == "none"
    assert headers.get(1) is None
    with pytest.raises(KeyError):
        headers["備考"]


def test_headers_iterate_their_keys_as_written():
    [game] = kifconv.read_text(CSA, "csa")
    headers = game.headers
    keys = ["V", "N+", "N-", "$EVENT", "$START_TIME", "$TIME_LIMIT"]
    assert list(headers) == keys
    assert headers.keys() == keys
    assert len(headers) == len(keys)
    assert headers.items()[1] == ("N+", "羽生善治")
    assert headers.values()[1] == "羽生善治"
    # A key not written is found, but is not one of the keys.
    assert "先手" in headers and "先手" not in list(headers)
    plain = dict(headers)
    assert plain == {k: v for k, v in headers.items()}
    assert headers == plain
    assert headers == game.headers
    assert headers != {}
    assert json.loads(json.dumps(plain)) == plain
    assert isinstance(headers, collections.abc.Mapping)


def test_a_key_given_twice_keeps_its_first_value():
    [game] = kifconv.read_text("先手：A\n先手：B\n手数----指手--\n   1 ７六歩(77)\n", "kif")
    assert game.headers["先手"] == "A"
    assert list(game.headers) == ["先手"]
    assert game.black_player == "A"


def test_absent_fields_are_none():
    [game] = kifconv.read_text("position startpos moves 7g7f", "usi")
    assert game.black_player is None
    assert game.event is None
    assert len(game.headers) == 0
    assert "先手" not in game.headers


def test_western_tags_are_the_same_from_kif_and_from_csa():
    [kif] = kifconv.read_text(KIF, "kif")
    [csa] = kifconv.read_text(CSA, "csa")

    def tags(game):
        return [line for line in game.to("western").splitlines() if line.startswith("[")]

    assert tags(kif) == tags(csa)
    assert tags(csa)[:2] == ['[Sente "羽生善治"]', '[Gote "谷川浩司"]']
