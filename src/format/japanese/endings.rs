//! How Japanese notation says a game ended: the terminal word of a KIF move
//! line or a KI2 move (`投了`, `詰み`, `切れ負け`, `入玉勝ち`, …) and the
//! `まで…` summary (`まで77手で先手の勝ち`, `まで12手で中断`).
//!
//! Two tables, each used by the reader and the writer alike:
//! [`ENDING_WORDS`] for terminal words ([`said`] reads, [`ending_word`]
//! writes) and [`SUMMARIES`] for the summary line ([`trailer_said`] reads,
//! [`trailer`] writes).

use super::digits::decimal_digit;
use super::headers::{side_name, side_named};
use crate::record::raw::{Said, Winner};
use crate::record::{Ending, EndingKind};
use crate::Color;

/// A terminal word: what it means, and the other spellings read for it.
#[derive(Clone, Copy, Debug)]
pub struct EndingWord {
    /// The word as the writers write it.
    pub word: &'static str,
    /// The ending it says.
    pub kind: EndingKind,
    /// Who it says won, seen from the player to move at the terminal line
    /// (the words speak of that player: 投了 is the player to move
    /// resigning).
    pub winner: Winner,
    /// Other spellings read as the same word (81Dojo writes `Time-up`).
    pub also: &'static [&'static str],
}

/// Every terminal word of KIF and KI2.
pub const ENDING_WORDS: [EndingWord; 14] = {
    use EndingKind::*;
    use Winner::*;
    const fn word(
        word: &'static str,
        kind: EndingKind,
        winner: Winner,
        also: &'static [&'static str],
    ) -> EndingWord {
        EndingWord {
            word,
            kind,
            winner,
            also,
        }
    }
    [
        word("投了", Resign, Opponent, &[]),
        word("中断", Abort, Nobody, &[]),
        word("千日手", Repetition, Nobody, &[]),
        word("持将棋", Impasse, Nobody, &[]),
        word("詰み", Checkmate, Opponent, &["詰"]),
        word("不詰", NoMate, Nobody, &[]),
        word("切れ負け", TimeUp, Opponent, &["時間切れ", "Time-up"]),
        word("反則勝ち", FoulWin, ToMove, &[]),
        word("反則負け", FoulLoss, Opponent, &[]),
        word("入玉勝ち", EnteringKing, ToMove, &["宣言勝ち"]),
        word("不戦勝", DefaultWin, ToMove, &[]),
        word("不戦敗", DefaultLoss, Opponent, &[]),
        word("封じ手", Sealed, Nobody, &[]),
        word("トライ", Try, ToMove, &[]),
    ]
};

/// What a Japanese terminal word says; `None` for a word that is none of
/// [`ENDING_WORDS`].
pub fn said(word: &str) -> Option<Said> {
    ENDING_WORDS
        .iter()
        .find(|w| w.word == word || w.also.contains(&word))
        .map(|w| Said::Ending(w.kind, w.winner))
}

/// The kind whose word an ending is written with, when the player to move
/// is `to_move`: a foul the player to move won by is 反則勝ち, the kinds
/// Japanese notation has no word for take the nearest one (a draw is
/// 持将棋, a move limit 中断), and `None` for an unknown ending (written as
/// its text).
fn word_kind(kind: EndingKind, winner: Option<Color>, to_move: Color) -> Option<EndingKind> {
    use EndingKind::*;
    Some(match kind {
        FoulWin | FoulLoss | IllegalMove | PerpetualCheck if winner == Some(to_move) => FoulWin,
        IllegalMove | PerpetualCheck => FoulLoss,
        Draw => Impasse,
        MaxMoves | Matta | Error => Abort,
        Other => return None,
        Resign | Abort | Repetition | Impasse | Checkmate | NoMate | TimeUp | FoulWin
        | FoulLoss | EnteringKing | DefaultWin | DefaultLoss | Sealed | Try => kind,
    })
}

/// The word a KIF terminal line writes for an ending, with `to_move` the
/// player to move there (the words speak of that player: 反則勝ち is the
/// player to move winning by the other's foul).
pub fn ending_word(ending: &Ending, to_move: Color) -> &str {
    word_kind(ending.kind, ending.winner, to_move)
        .and_then(|kind| ENDING_WORDS.iter().find(|w| w.kind == kind))
        .map_or(ending.text.as_str(), |w| w.word)
}

/// Which side a summary names, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummarySide {
    /// None: `まで12手で中断`.
    Nobody,
    /// The winner: `まで77手で先手の勝ち`.
    Winner,
    /// The loser: `まで30手で後手の反則負け`.
    Loser,
    /// None written; the player who moved last won: `まで49手で詰み`.
    LastMover,
}

/// One way the `まで…` summary says an ending.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// The kinds written this way; the first is the kind read. Empty for
    /// the last entry, which writes every other ending with a winner and
    /// reads as a resignation.
    pub kinds: &'static [EndingKind],
    /// The side it names.
    pub side: SummarySide,
    /// What follows `までN手で`, `{side}` standing for the side's name.
    pub written: &'static str,
    /// The words that, anywhere after `まで…手で`, make the reader take
    /// the summary for this ending (at its start, for
    /// [`SummarySide::LastMover`]).
    pub read: &'static [&'static str],
}

/// Every summary, in the order the reader tries them.
pub const SUMMARIES: [Summary; 11] = {
    use EndingKind::*;
    use SummarySide::*;
    const fn summary(
        kinds: &'static [EndingKind],
        side: SummarySide,
        written: &'static str,
        read: &'static [&'static str],
    ) -> Summary {
        Summary {
            kinds,
            side,
            written,
            read,
        }
    }
    [
        summary(&[Abort, MaxMoves, Matta, Error], Nobody, "中断", &["中断"]),
        summary(&[Repetition], Nobody, "千日手", &["千日手"]),
        summary(&[Impasse, Draw], Nobody, "持将棋", &["持将棋"]),
        summary(&[NoMate], Nobody, "不詰", &["不詰"]),
        summary(&[Sealed], Nobody, "封じ手", &["封じ手"]),
        summary(
            &[FoulLoss, IllegalMove, PerpetualCheck],
            Loser,
            "{side}の反則負け",
            &["反則負け"],
        ),
        summary(&[FoulWin], Winner, "{side}の反則勝ち", &["反則勝ち"]),
        summary(
            &[TimeUp],
            Winner,
            "時間切れにより{side}の勝ち",
            &["時間切れ", "切れ負け"],
        ),
        summary(
            &[EnteringKing],
            Winner,
            "{side}の入玉勝ち",
            &["入玉勝ち", "宣言勝ち"],
        ),
        summary(&[Checkmate], LastMover, "詰み", &["詰"]),
        summary(&[], Winner, "{side}の勝ち", &["の勝ち"]),
    ]
};

/// The summary an ending of `kind` is written with.
fn summary_for(kind: EndingKind) -> &'static Summary {
    let last = &SUMMARIES[SUMMARIES.len() - 1];
    SUMMARIES
        .iter()
        .find(|s| s.kinds.contains(&kind))
        .unwrap_or(last)
}

/// `まで`, which starts every summary.
pub const SUMMARY_START: &str = "まで";

/// The `まで…` summary: `まで77手で先手の勝ち`, `まで12手で中断`, … An
/// ending whose summary would name a side it does not know is summed up
/// by its terminal word (`まで12手で投了`).
pub fn trailer(moves: u64, ending: &Ending, handicap_labels: bool) -> String {
    let summary = summary_for(ending.kind);
    let side = match (summary.side, ending.winner) {
        (SummarySide::Nobody | SummarySide::LastMover, _) => None,
        (SummarySide::Winner, Some(w)) => Some(w),
        (SummarySide::Loser, Some(w)) => Some(!w),
        (SummarySide::Winner | SummarySide::Loser, None) => {
            let word = ending_word(ending, Color::Black);
            return format!("{SUMMARY_START}{moves}手で{word}");
        }
    };
    let what = match side {
        Some(side) => summary
            .written
            .replace("{side}", side_name(side, handicap_labels)),
        None => summary.written.to_string(),
    };
    format!("{SUMMARY_START}{moves}手で{what}")
}

/// What a `まで77手で先手の勝ち` line says about the end, if anything: the
/// side it names, or the player who made the last move (the opponent of
/// the player to move there).
pub fn trailer_said(text: &str) -> Option<Said> {
    let rest = text.strip_prefix(SUMMARY_START)?;
    // `まで77手で…`, `まで77手にて…`, `まで49手詰`.
    let rest = rest.trim_start_matches(|c: char| decimal_digit(c).is_some());
    let rest = rest.strip_prefix('手').unwrap_or(rest);
    let rest = rest
        .strip_prefix("にて")
        .or_else(|| rest.strip_prefix('で'))
        .unwrap_or(rest);
    let named = |rest: &str| -> Option<Color> {
        let mut who = rest.split('の').next()?;
        // As `trim_end_matches("により")`, without building a searcher.
        while let Some(before) = who.strip_suffix("により") {
            who = before;
        }
        side_named(who.rsplit('り').next()?)
    };
    let summary = SUMMARIES.iter().find(|s| match s.side {
        SummarySide::LastMover => s.read.iter().any(|word| rest.starts_with(word)),
        _ => s.read.iter().any(|word| occurs_in(rest, word)),
    })?;
    let kind = summary.kinds.first().copied().unwrap_or(EndingKind::Resign);
    let winner = match summary.side {
        SummarySide::Nobody => None,
        SummarySide::Winner => named(rest),
        SummarySide::Loser => named(rest).map(|loser| !loser),
        SummarySide::LastMover => return Some(Said::Ending(kind, Winner::Opponent)),
    };
    Some(Said::Ending(
        kind,
        winner.map_or(Winner::Nobody, Winner::Player),
    ))
}

/// Whether `word` occurs in `text`, as [`str::contains`] says, by a plain
/// scan over the few bytes of a summary line.
fn occurs_in(text: &str, word: &str) -> bool {
    // A match of a whole character sequence starts on a character boundary.
    let word = word.as_bytes();
    let Some(&last) = word.last() else {
        return true;
    };
    // The last byte first: it rules out most places without a comparison
    // of the whole word.
    text.as_bytes()
        .windows(word.len())
        .any(|at| at[word.len() - 1] == last && at == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a terminal word means, with `to_move` the player to move there.
    fn ending_for_word(word: &str, to_move: Color) -> Option<(EndingKind, Option<Color>)> {
        said(word).map(|said| said.ending(to_move))
    }

    /// What a summary line says, with `last_mover` the player who moved
    /// last.
    fn ending_for_trailer(text: &str, last_mover: Color) -> Option<(EndingKind, Option<Color>)> {
        trailer_said(text).map(|said| said.ending(!last_mover))
    }
    use EndingKind::*;

    fn ending(kind: EndingKind, winner: Option<Color>) -> Ending {
        Ending::new(kind, winner, "text")
    }

    #[test]
    fn occurs_in_says_what_contains_says() {
        let texts = ["", "で先手の勝ち", "時間切れにより後手の勝ち", "ab", "の"];
        for text in texts {
            for s in SUMMARIES {
                for word in s.read.iter().chain(["", "の", "ab", "b", "abc"].iter()) {
                    assert_eq!(occurs_in(text, word), text.contains(word), "{text} {word}");
                }
            }
        }
    }

    #[test]
    fn every_word_written_reads_back_as_itself() {
        for w in ENDING_WORDS {
            for to_move in [Color::Black, Color::White] {
                let winner = w.winner.color(to_move);
                let e = ending(w.kind, winner);
                let written = ending_word(&e, to_move);
                assert_eq!(written, w.word, "{:?} {winner:?}", w.kind);
                assert_eq!(
                    ending_for_word(written, to_move),
                    Some((w.kind, winner)),
                    "{written}"
                );
            }
        }
    }

    #[test]
    fn every_spelling_read_maps_to_its_written_word() {
        let mut seen = std::collections::HashSet::new();
        for w in ENDING_WORDS {
            for spelling in std::iter::once(w.word).chain(w.also.iter().copied()) {
                // Each spelling belongs to one word.
                assert!(seen.insert(spelling), "{spelling} twice");
                let (kind, winner) = ending_for_word(spelling, Color::White).unwrap();
                let e = ending(kind, winner);
                assert_eq!(ending_word(&e, Color::White), w.word, "{spelling}");
            }
        }
        assert_eq!(ending_for_word("TORYO", Color::Black), None);
    }

    #[test]
    fn every_ending_has_a_word_that_says_its_winner_where_one_can() {
        for kind in EndingKind::ALL {
            for winner in [None, Some(Color::Black), Some(Color::White)] {
                for to_move in [Color::Black, Color::White] {
                    let e = ending(kind, winner);
                    let word = ending_word(&e, to_move);
                    if kind == Other {
                        assert_eq!(word, "text");
                        continue;
                    }
                    let (read, _) = ending_for_word(word, to_move).expect(word);
                    let foul = [FoulWin, FoulLoss, IllegalMove, PerpetualCheck];
                    let draw_like = [Abort, Impasse];
                    assert!(
                        read == kind
                            || (foul.contains(&kind) && foul.contains(&read))
                            || draw_like.contains(&read),
                        "{kind:?} written {word}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_summary_written_reads_back() {
        for kind in EndingKind::ALL {
            for winner in [None, Some(Color::Black), Some(Color::White)] {
                for labels in [false, true] {
                    let e = ending(kind, winner);
                    let text = trailer(77, &e, labels);
                    let read = ending_for_trailer(&text, Color::Black);
                    let summary = summary_for(kind);
                    let expected = match (summary.side, winner) {
                        // Summed up by the terminal word instead.
                        (SummarySide::Winner | SummarySide::Loser, None) => {
                            let word = ending_word(&e, Color::Black);
                            assert_eq!(text, format!("まで77手で{word}"));
                            continue;
                        }
                        (SummarySide::Nobody, _) => (summary.kinds[0], None),
                        (SummarySide::LastMover, _) => (summary.kinds[0], Some(Color::Black)),
                        (_, Some(w)) => (*summary.kinds.first().unwrap_or(&Resign), Some(w)),
                    };
                    assert_eq!(read, Some(expected), "{text}");
                }
            }
        }
    }

    #[test]
    fn every_summary_spelling_read_maps_to_its_entry() {
        for summary in SUMMARIES {
            for word in summary.read {
                let text = match summary.side {
                    SummarySide::Nobody | SummarySide::LastMover => format!("まで9手で{word}"),
                    _ if word.starts_with('の') => format!("まで9手で後手{word}"),
                    _ => format!("まで9手で後手の{word}"),
                };
                let (kind, winner) = ending_for_trailer(&text, Color::Black).expect(&text);
                assert_eq!(kind, *summary.kinds.first().unwrap_or(&Resign), "{text}");
                // Written back, the ending gives this entry's form, naming
                // the same side (後手: the winner or the loser).
                let written = trailer(9, &ending(kind, winner), false);
                let expected = format!("まで9手で{}", summary.written.replace("{side}", "後手"));
                assert_eq!(written, expected, "{text}");
            }
        }
        assert_eq!(
            ending_for_trailer("まで64手にて時間切れにより上手の勝ち", Color::Black),
            Some((TimeUp, Some(Color::White)))
        );
        assert_eq!(
            ending_for_trailer("まで49手詰", Color::White),
            Some((Checkmate, Some(Color::White)))
        );
        assert_eq!(ending_for_trailer("まで10手でTime-up", Color::White), None);
        assert_eq!(ending_for_trailer("先手の勝ち", Color::White), None);
    }
}
