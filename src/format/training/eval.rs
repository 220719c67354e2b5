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

use crate::format::csa::write::move_text;
use crate::format::japanese::write::marked_moves as japanese_moves;
use crate::record::{NodeId, Record};
use crate::{Color, Move, Position};

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
        .comments()
        .iter()
        .filter_map(|c| from_comment(c))
}

/// The first two evaluations a node's comments give, black's view: the
/// one used and, when there is one, the second (for a warning), with the
/// comments read once.
pub fn first_two(record: &Record, id: NodeId) -> (Option<i32>, Option<i32>) {
    let mut all = all_black_view(record, id);
    let first = all.next();
    (first, first.and_then(|_| all.next()))
}

/// The evaluation from the view of `mover`, the player who made the move
/// at `id`: black's view negated for white.
pub fn mover_view(record: &Record, id: NodeId, mover: Color) -> Option<i32> {
    black_view(record, id).map(|v| of_mover(v, mover))
}

/// A value from black's view seen from `mover`'s: negated for white.
pub fn of_mover(black: i32, mover: Color) -> i32 {
    match mover {
        Color::Black => black,
        Color::White => -black,
    }
}

/// The comment forms kifconv writes an engine's analysis in: the two
/// [`from_comment`] reads back, each as the program that made it writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// ShogiHome's (KIF and KI2 write `*#評価値=…`): the value or the
    /// mate, then `#読み筋=` in Japanese notation, `#深さ=`, `#エンジン=`.
    ShogiHome,
    /// floodgate's (CSA writes `'** …`): the value, then the moves in CSA
    /// notation, on one line.
    Floodgate,
}

/// An engine's value of a position, black's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Centipawns, positive for black.
    Cp(i32),
    /// A forced mate: who wins and, when the engine said, in how many plies.
    Mate {
        /// The side that mates.
        winner: Color,
        /// Plies to the mate.
        plies: Option<u32>,
    },
}

impl Evaluation {
    /// The value [`from_comment`] reads back: a mate is [`MATE`] for its
    /// winner.
    pub fn black_view(self) -> i32 {
        match self {
            Evaluation::Cp(cp) => cp,
            Evaluation::Mate {
                winner: Color::Black,
                ..
            } => MATE,
            Evaluation::Mate { .. } => -MATE,
        }
    }
}

/// One line of an analysis: its value and the moves from the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The value, black's view.
    pub evaluation: Evaluation,
    /// The principal variation, legal from the position.
    pub pv: Vec<Move>,
    /// The depth searched.
    pub depth: Option<u32>,
}

/// The comments (kept form: without KIF's `*` or CSA's `'`) that say
/// `lines` (best first) of an analysis of `pos` by `engine`. Only the best
/// line gives a value [`from_comment`] reads; the others are numbered
/// (`#評価値2=`, `#読み筋2=`; floodgate's `*2 …`).
pub fn analysis_comments(
    dialect: Dialect,
    pos: &Position,
    lines: &[Line],
    engine: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let rank = if i == 0 {
            String::new()
        } else {
            (i + 1).to_string()
        };
        match dialect {
            Dialect::ShogiHome => {
                out.push(match line.evaluation {
                    Evaluation::Cp(cp) => format!("#評価値{rank}={cp}"),
                    Evaluation::Mate { winner, plies } => {
                        let side = if winner == Color::Black {
                            "先手勝ち"
                        } else {
                            "後手勝ち"
                        };
                        match plies {
                            Some(n) => format!("#詰み{rank}={side}:{n}手"),
                            None => format!("#詰み{rank}={side}"),
                        }
                    }
                });
                if !line.pv.is_empty() {
                    out.push(format!("#読み筋{rank}={}", japanese_moves(pos, &line.pv)));
                }
                if let Some(depth) = line.depth {
                    out.push(format!("#深さ{rank}={depth}"));
                }
            }
            Dialect::Floodgate => {
                let mut text = format!("*{rank} {}", line.evaluation.black_view());
                for mv in csa_moves(pos, &line.pv) {
                    text.push(' ');
                    text.push_str(&mv);
                }
                out.push(text);
            }
        }
    }
    if dialect == Dialect::ShogiHome && !lines.is_empty() {
        out.push(format!("#エンジン={engine}"));
    }
    out
}

/// Whether a kept comment is one [`analysis_comments`] writes in
/// `dialect`: what a new analysis replaces.
pub fn is_analysis(dialect: Dialect, comment: &str) -> bool {
    match dialect {
        Dialect::ShogiHome => ["#評価値", "#詰み", "#読み筋", "#深さ", "#エンジン="]
            .iter()
            .any(|key| comment.starts_with(key)),
        Dialect::Floodgate => {
            let rest = comment.strip_prefix('*').unwrap_or("");
            let rank = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            comment.starts_with('*') && rank.starts_with(' ') && {
                let value = rank[1..].split(' ').next().unwrap_or("");
                whole_number(value).is_some()
            }
        }
    }
}

/// `moves` from `pos` in CSA notation (`+7776FU`).
fn csa_moves(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    moves
        .iter()
        .map(|&mv| {
            let text = move_text(&pos, mv);
            pos.play_unchecked(mv);
            text
        })
        .collect()
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

    #[test]
    fn analysis_comments_read_back_as_their_value() {
        use super::*;
        let mut pos = Position::startpos();
        pos.play_usi_line("7g7f 3c3d").unwrap();
        let pv: Vec<Move> = ["8h2b+", "3a2b", "B*4e"]
            .iter()
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        let best = Line {
            evaluation: Evaluation::Cp(-35),
            pv: pv.clone(),
            depth: Some(12),
        };
        let second = Line {
            evaluation: Evaluation::Cp(-80),
            pv: pv[..1].to_vec(),
            depth: Some(12),
        };
        let lines = [best, second];
        let home = analysis_comments(Dialect::ShogiHome, &pos, &lines, "YaneuraOu");
        assert_eq!(
            home,
            [
                "#評価値=-35",
                "#読み筋=▲２二角成△同　銀▲４五角",
                "#深さ=12",
                "#評価値2=-80",
                "#読み筋2=▲２二角成",
                "#深さ2=12",
                "#エンジン=YaneuraOu",
            ]
        );
        let gate = analysis_comments(Dialect::Floodgate, &pos, &lines, "YaneuraOu");
        assert_eq!(gate, ["* -35 +8822UM -3122GI +0045KA", "*2 -80 +8822UM"]);
        for (dialect, comments) in [(Dialect::ShogiHome, &home), (Dialect::Floodgate, &gate)] {
            let values: Vec<i32> = comments.iter().filter_map(|c| from_comment(c)).collect();
            assert_eq!(
                values,
                [-35],
                "{dialect:?}: the best line's value alone is read"
            );
            assert!(
                comments.iter().all(|c| is_analysis(dialect, c)),
                "{dialect:?}"
            );
        }
        let mate = Line {
            evaluation: Evaluation::Mate {
                winner: Color::White,
                plies: Some(5),
            },
            pv: Vec::new(),
            depth: None,
        };
        let comments =
            analysis_comments(Dialect::ShogiHome, &pos, std::slice::from_ref(&mate), "e");
        assert_eq!(comments, ["#詰み=後手勝ち:5手", "#エンジン=e"]);
        assert_eq!(from_comment(&comments[0]), Some(-MATE));
        let comments = analysis_comments(Dialect::Floodgate, &pos, &[mate], "e");
        assert_eq!(comments, ["* -100000"]);
        for other in ["*評価値=3", "* no", "#読みたい", "*2x 5", "hello"] {
            assert!(!is_analysis(Dialect::Floodgate, other), "{other}");
        }
        assert!(!is_analysis(Dialect::ShogiHome, "#評判"));
    }
}
