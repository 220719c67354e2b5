//! One header vocabulary: the same game read from KIF and from CSA has the
//! same players, event, times and time control, and every writer names
//! them alike whatever format they came from.

use crate::util::bin::{run as kifconv, s, scratch, stdout};
use kifconv::read::{read_text, Format};
use kifconv::record::Field;

/// A game as KIF, its headers under Kakinoki's keys.
const GAME_KIF: &str = "\
先手：羽生善治
後手：谷川浩司
棋戦：名人戦
場所：東京
開始日時：2024/01/02 10:00:00
終了日時：2024/01/02 18:00:00
持ち時間：各6時間
戦型：矢倉
手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 投了
";

/// The same game as CSA, its headers under CSA's keys.
const GAME_CSA: &str = "\
V2.2
N+羽生善治
N-谷川浩司
$EVENT:名人戦
$SITE:東京
$START_TIME:2024/01/02 10:00:00
$END_TIME:2024/01/02 18:00:00
$TIME_LIMIT:各6時間
$OPENING:矢倉
PI
+
+7776FU
-3334FU
%TORYO
";

/// A bishop handicap as KIF, the sides named 下手 and 上手.
const HANDICAP_KIF: &str = "\
手合割：角落ち
下手：A
上手：B
手数----指手---------消費時間--
   1 ３四歩(33)
";

/// The same handicap game as CSA.
const HANDICAP_CSA: &str = "V2.2\nN+A\nN-B\nPI22KA\n-\n-3334FU\n";

/// `text` saved as `name` in a scratch folder and converted `--to target`.
fn converted(name: &str, text: &str, target: &str) -> String {
    let dir = scratch("headers");
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let out = kifconv(&[s(&path), "--to", target, "-q"]);
    assert!(out.status.success(), "{name} to {target}: {out:?}");
    let text = stdout(&out);
    let _ = std::fs::remove_dir_all(&dir);
    text
}

/// The tag lines of a Western text.
fn tags(western: &str) -> Vec<&str> {
    western.lines().filter(|l| l.starts_with('[')).collect()
}

#[test]
fn western_from_kif_and_from_csa_has_the_same_tags() {
    let from_kif = converted("game.kifu", GAME_KIF, "western");
    let from_csa = converted("game.csa", GAME_CSA, "western");
    assert_eq!(tags(&from_kif), tags(&from_csa), "{from_kif}\n{from_csa}");
    assert_eq!(
        tags(&from_csa),
        [
            "[Sente \"羽生善治\"]",
            "[Gote \"谷川浩司\"]",
            "[Event \"名人戦\"]",
            "[Site \"東京\"]",
            "[Date \"2024/01/02 10:00:00\"]",
            "[EndDate \"2024/01/02 18:00:00\"]",
            "[TimeControl \"各6時間\"]",
            "[Opening \"矢倉\"]",
        ]
    );
    // Nothing else was kept as a comment: the two texts are the same.
    assert_eq!(from_kif, from_csa);

    let from_kif = converted("h.kifu", HANDICAP_KIF, "western");
    let from_csa = converted("h.csa", HANDICAP_CSA, "western");
    assert_eq!(tags(&from_kif), tags(&from_csa), "{from_kif}\n{from_csa}");
    assert_eq!(
        tags(&from_kif)[..3],
        ["[Sente \"A\"]", "[Gote \"B\"]", "[Handicap \"Bishop\"]"]
    );
}

#[test]
fn kif_and_csa_write_each_others_keys() {
    let kif = converted("game.csa", GAME_CSA, "kifu");
    for line in [
        "先手：羽生善治",
        "後手：谷川浩司",
        "棋戦：名人戦",
        "場所：東京",
        "開始日時：2024/01/02 10:00:00",
        "終了日時：2024/01/02 18:00:00",
        "持ち時間：各6時間",
        "戦型：矢倉",
    ] {
        assert!(kif.lines().any(|l| l == line), "{line}: {kif}");
    }
    let csa = converted("game.kifu", GAME_KIF, "csa");
    for line in GAME_CSA.lines().skip(1).take(8) {
        // 各6時間 is not in CSA's form (HH:MM+SS): KIF's header is kept
        // as a comment, which reads back as it was.
        let line = line.replace("$TIME_LIMIT:", "'持ち時間:");
        assert!(csa.lines().any(|l| l == line), "{line}: {csa}");
    }
    assert!(!csa.contains("$TIME_LIMIT"), "{csa}");
    let back = converted("back.csa", &csa, "kifu");
    assert!(back.contains("*持ち時間:各6時間\n"), "{back}");
    // The handicap's side names stay in KIF, and are CSA's players in CSA.
    let kif = converted("h.kifu", HANDICAP_KIF, "kifu");
    assert!(kif.contains("下手：A\n上手：B\n"), "{kif}");
    let csa = converted("h.kifu", HANDICAP_KIF, "csa");
    assert!(csa.contains("\nN+A\nN-B\n"), "{csa}");
}

#[test]
fn a_field_is_found_under_any_formats_key() {
    let western = "[Sente \"羽生善治\"]\n[Gote \"谷川浩司\"]\n[Event \"名人戦\"]\n[Date \"2024/01/02 10:00:00\"]\n[TimeControl \"各6時間\"]\n1. P-7f *\n";
    let games = [
        read_text(GAME_KIF, Format::Kif).unwrap().remove(0),
        read_text(GAME_CSA, Format::Csa).unwrap().remove(0),
        read_text(western, Format::Western).unwrap().remove(0),
    ];
    for game in &games {
        assert_eq!(game.black_player(), Some("羽生善治"));
        assert_eq!(game.white_player(), Some("谷川浩司"));
        assert_eq!(game.event(), Some("名人戦"));
        assert_eq!(game.start_time(), Some("2024/01/02 10:00:00"));
        assert_eq!(game.time_control(), Some("各6時間"));
        assert_eq!(game.field(Field::BlackPlayer), game.black_player());
        for key in ["先手", "N+", "Sente", "下手"] {
            assert_eq!(game.header(key), Some("羽生善治"), "{key}");
        }
        assert_eq!(game.header("$EVENT"), Some("名人戦"));
        assert_eq!(game.header("棋戦"), Some("名人戦"));
        assert_eq!(game.header("備考"), None);
    }
    // Keys are kept as written.
    assert_eq!(games[1].headers[1].key, "N+");
}

#[test]
fn flipping_swaps_the_sides_headers_in_every_format() {
    let western = "[Sente \"A\"]\n[Gote \"B\"]\n[Event \"E\"]\n1. P-7f *\n";
    for (text, format) in [
        (GAME_CSA, Format::Csa),
        (GAME_KIF, Format::Kif),
        (HANDICAP_KIF, Format::Kif),
        (western, Format::Western),
    ] {
        let game = read_text(text, format).unwrap().remove(0);
        let flipped = game.flip();
        assert_eq!(flipped.black_player(), game.white_player(), "{text}");
        assert_eq!(flipped.white_player(), game.black_player(), "{text}");
        assert_eq!(flipped.event(), game.event());
        assert_eq!(flipped.flip().headers, game.headers);
    }
}
