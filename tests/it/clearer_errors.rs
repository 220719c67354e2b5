//! Errors that name the rule or the cause: an illegal pawn drop says 二歩
//! whether or not 打 is written; a line decoded with the wrong encoding
//! says so.

use kifconv::decode::{Encoding, EncodingChoice};
use kifconv::read::{read_bytes, read_text, Format};
use std::path::Path;

/// Black to move with a pawn in hand and a pawn on file 5.
const DIAGRAM: &str = "後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ 歩 ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：歩
";

#[test]
fn a_pawn_drop_on_a_file_with_a_pawn_says_nifu_with_or_without_da() {
    for text in [
        "▲５三歩打    △５二玉    ▲１六歩",
        "▲５三歩    △５二玉    ▲１六歩",
    ] {
        let error = read_text(&format!("{DIAGRAM}{text}\n"), Format::Ki2).unwrap_err();
        assert_eq!(
            (error.location.line, error.location.ply),
            (15, Some(1)),
            "{error:?}"
        );
        assert!(
            error.message.contains("illegal move P*5c: 二歩"),
            "{}",
            error.message
        );
    }
    // As the last move, the foul's reason says 二歩; the foul keeps the
    // drop only when the text marks it (打).
    for (text, mv) in [("▲５三歩打", true), ("▲５三歩", false)] {
        let records = read_text(&format!("{DIAGRAM}{text}\n"), Format::Ki2).unwrap();
        let foul = records[0].ending().unwrap().foul.clone().unwrap();
        assert!(foul.reason.contains("二歩"), "{}", foul.reason);
        assert_eq!(foul.mv.is_some(), mv, "{text}");
    }
}

#[test]
fn a_misdecoded_file_says_the_encoding_may_be_wrong() {
    // UTF-8 bytes forced through CP932: mojibake. A numbered line is a
    // terminal word only when it is one, so the move line is an error, and
    // it says what probably happened.
    let bytes = "手合割：平手\n   1 ７六歩(77)\n".as_bytes();
    let error = read_bytes(
        bytes,
        Path::new("a.kif"),
        Some(Format::Kif),
        EncodingChoice::Forced(Encoding::Cp932),
    )
    .unwrap_err();
    assert_eq!((error.location.line, error.location.column), (2, 6));
    assert!(
        error.message.contains("another encoding"),
        "{}",
        error.message
    );
}
