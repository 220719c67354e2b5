//! Engine evaluations written in records' comments, black's view, in the
//! forms the programs that write them use. Readers keep a comment without
//! its format's marker (KIF's first `*`, CSA's `'`), so the forms are, as
//! kept:
//!
//! | written as | kept as | by |
//! |---|---|---|
//! | CSA `'** -35 +2625FU …`, KIF `** -35 …` | `* -35 …` | floodgate, dlshogi's scripts, CSA to KIF converters |
//! | KIF `**評価値=-64`, JKF `"*評価値=-64"` | `*評価値=-64` | Kifu for Windows, usi-csa-bridge, tsshogi |
//! | KIF `*#評価値=-102` | `#評価値=-102` | ShogiHome |
//! | KIF `**対局 深さ 8 … 評価値 -35 読み筋 …` (or `**検討 …`) | `*対局 … 評価値 -35 …` | ShogiGUI |
//! | KIF `**詰み=先手勝ち:7手`, `*#詰み=後手勝ち` | `*詰み=先手勝ち:7手`, `#詰み=後手勝ち` | Kifu for Windows, ShogiHome |
//!
//! A mate note (`詰み=先手勝ち` or `詰み=後手勝ち`, with or without the
//! moves to mate) is the mate score [`MATE`] for the side it names,
//! whatever the distance: the score dlshogi's scripts take for a mate.
//! All of them give the score from black's side (the players' scores run
//! smoothly through a game in every sample of the corpus, where a mover's
//! view would flip sign at every move). A mate written in words (`詰`) is
//! no number and gives none.

use crate::record::{NodeId, Record};
use crate::Color;

/// The score a mate note stands for, black's view for black's win
/// (dlshogi's scripts cut a game at it, and `--max-eval 100000` does).
pub const MATE: i32 = 100_000;

/// The evaluation one kept comment gives, black's view, if it is one of the
/// forms above.
///
/// ```
/// use kifconv::training::eval::from_comment;
///
/// assert_eq!(from_comment("* -35 +2625FU -8485FU"), Some(-35));
/// assert_eq!(from_comment("*評価値=120"), Some(120));
/// assert_eq!(from_comment("#評価値=-102"), Some(-102));
/// assert_eq!(from_comment("*対局 深さ 8 ノード数 12345 評価値 -35 読み筋 ▲２五歩(26)"), Some(-35));
/// assert_eq!(from_comment("*読み筋=▲２五歩"), None);
/// assert_eq!(from_comment("*詰み=先手勝ち:7手"), Some(100000));
/// assert_eq!(from_comment("#詰み=後手勝ち"), Some(-100000));
/// ```
pub fn from_comment(comment: &str) -> Option<i32> {
    let mate = comment
        .strip_prefix("*詰み=")
        .or_else(|| comment.strip_prefix("#詰み="));
    if let Some(rest) = mate {
        let winner = rest.split([':', ' ']).next()?;
        return match winner {
            "先手勝ち" => Some(MATE),
            "後手勝ち" => Some(-MATE),
            _ => None,
        };
    }
    if let Some(rest) = comment.strip_prefix("* ") {
        return whole_number(rest.split(' ').next()?);
    }
    let tagged = comment
        .strip_prefix("*評価値=")
        .or_else(|| comment.strip_prefix("#評価値="));
    if let Some(rest) = tagged {
        return whole_number(rest.split(' ').next()?);
    }
    let analysis = comment
        .strip_prefix("*対局 ")
        .or_else(|| comment.strip_prefix("*検討 "))?;
    let mut words = analysis.split(' ');
    words.find(|w| *w == "評価値")?;
    whole_number(words.next()?)
}

/// An optionally signed whole number, nothing else.
fn whole_number(text: &str) -> Option<i32> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The evaluation a node's comments give, black's view: the first comment
/// in one of the forms [`from_comment`] reads.
pub fn black_view(record: &Record, id: NodeId) -> Option<i32> {
    all_black_view(record, id).next()
}

/// Every evaluation a node's comments give, black's view, in their order.
fn all_black_view(record: &Record, id: NodeId) -> impl Iterator<Item = i32> + '_ {
    record
        .tree
        .node(id)
        .comments
        .iter()
        .filter_map(|c| from_comment(c))
}

/// When a node's comments give more than one evaluation: the first (the
/// one used) and the second, black's view, for a warning.
pub fn two(record: &Record, id: NodeId) -> Option<(i32, i32)> {
    let mut all = all_black_view(record, id);
    Some((all.next()?, all.next()?))
}

/// The evaluation from the view of `mover`, the player who made the move
/// at `id`: black's view negated for white.
pub fn mover_view(record: &Record, id: NodeId, mover: Color) -> Option<i32> {
    black_view(record, id).map(|v| match mover {
        Color::Black => v,
        Color::White => -v,
    })
}

#[cfg(test)]
mod tests {
    use super::from_comment;

    #[test]
    fn the_forms_and_their_edges() {
        for (comment, score) in [
            ("* 0", Some(0)),
            ("* +15 7g7f", Some(15)),
            ("* -100000", Some(-100000)),
            ("* 12x", None),
            ("* ", None),
            ("*評価値=+8", Some(8)),
            ("*評価値=", None),
            ("*評価値=詰", None),
            ("#評価値=1000001", Some(1_000_001)),
            (
                "*検討 候補1 時間 00:01.0 深さ 10 評価値 -8 読み筋 ▲２四歩",
                Some(-8),
            ),
            ("*対局 深さ 2 評価値 +詰 読み筋", None),
            ("*対局 深さ 2 ノード数 960", None),
            ("評価値=5", None),
            ("互角", None),
            // Beyond i32: no number kifconv can hold.
            ("* 99999999999", None),
            // Kifu for Windows' and ShogiHome's mate notes (as in the
            // corpus: shogihome/scenario/1/record.kifu, tsshogi's
            // sample04.jkf).
            ("*詰み=先手勝ち", Some(100000)),
            ("*詰み=先手勝ち:15手", Some(100000)),
            ("#詰み=後手勝ち:8手", Some(-100000)),
            ("*詰み=後手勝ち", Some(-100000)),
            ("*詰み=", None),
            ("*詰み=不明", None),
            ("詰み=先手勝ち", None),
        ] {
            assert_eq!(from_comment(comment), score, "{comment:?}");
        }
    }
}
