//! CSA: V3.0 by default (`'CSA encoding=…` naming the encoding the bytes
//! are written in, times with milliseconds), V2.2 on request (whole-second
//! times). Player names, `$` headers (every `$KEY` as it was read, the
//! KIF and Western keys of a header field under CSA's key for it, by
//! [`crate::record::headers`]; other headers as `'key:value` comments,
//! but for the handicap's name, which the start says), the start as `PI` (with the pieces
//! a handicap removes) or `P1`–`P9` and hands, moves with `T` times,
//! comments as `'*`, the `%` ending, several games separated by `/`. A
//! foul whose move is known is written as that move with its time, then
//! `%ILLEGAL_MOVE`; `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION` stay as they
//! were read. CSA has no variations: the mainline is written.

pub use super::specials::special;
pub use super::values::csa_line;
use crate::format::lines::split_at_endings;
use crate::record::{Ending, EndingKind, Field, MoveTime, Record};
use crate::{Color, Move, PieceKind, Position, Setup, Square};
use std::fmt::Write as _;

/// Which CSA version to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Version {
    /// `V3.0`: an `'CSA encoding=` first line; times keep their
    /// milliseconds (`T1.5`).
    #[default]
    V3_0,
    /// `V2.2`: no encoding line; times in whole seconds, rounded down.
    V2_2,
}

/// The headers that become no CSA header line ([`csa_line`]: CSA has no
/// key for them, their value is not in CSA's form or has a line break), as
/// the `key:value` comments the writer keeps them in (before the start
/// position, so they read back as the first comments of the game), line
/// breaks as spaces.
pub fn header_comments(record: &Record) -> Vec<String> {
    record
        .headers
        .iter()
        .filter(|h| h.key != "V" && Field::of_key(&h.key) != Some(Field::Handicap))
        .filter(|h| csa_line(&h.key, &h.value).is_none())
        .map(|h| format!("{}:{}", h.key, h.value).replace(['\n', '\r'], " "))
        .collect()
}

/// Writes several games, separated by `/` lines. `encoding` names the
/// encoding the text will be written in (`UTF-8`, `Shift_JIS`); a V3.0
/// stream declares it on its first line, in upper case (`'CSA
/// encoding=SHIFT_JIS`), as the CSA standard spells it.
pub fn write_all(records: &[Record], version: Version, encoding: &str) -> String {
    let mut out = String::new();
    if version == Version::V3_0 {
        writeln!(out, "'CSA encoding={}", encoding.to_ascii_uppercase()).unwrap();
    }
    for (i, record) in records.iter().enumerate() {
        if i > 0 {
            out.push_str("/\n");
        }
        write_game(&mut out, record, version);
    }
    out
}

/// Writes one game, declared UTF-8 (the text a `String` holds): the unit
/// tests' shorthand for [`write_all`].
#[cfg(test)]
pub fn write(record: &Record, version: Version) -> String {
    write_all(std::slice::from_ref(record), version, "UTF-8")
}

fn write_game(out: &mut String, record: &Record, version: Version) {
    out.push_str(match version {
        Version::V3_0 => "V3.0\n",
        Version::V2_2 => "V2.2\n",
    });
    for header in &record.headers {
        match csa_line(&header.key, &header.value) {
            Some((key, value)) if key.starts_with('N') => writeln!(out, "{key}{value}").unwrap(),
            Some((key, value)) => writeln!(out, "{key}:{value}").unwrap(),
            None => {}
        }
    }
    // Headers CSA has no place for are kept as comments.
    for comment in header_comments(record) {
        writeln!(out, "'{comment}").unwrap();
    }
    write_start(out, &record.start);
    for comment in record.tree.root().comments() {
        write_comment(out, comment);
    }
    let mut pos = record.start.clone();
    let mut last = crate::record::NodeId::ROOT;
    for id in record.tree.mainline() {
        let node = record.tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        writeln!(out, "{}", move_text(&pos, mv)).unwrap();
        write_time(out, node.time, version);
        for comment in node.comments() {
            write_comment(out, comment);
        }
        pos.play_unchecked(mv);
        last = id;
    }
    if let Some(ending) = record.tree.node(last).ending() {
        // A foul written as its move takes the time on the move's `T` line
        // (a `T` after `%ILLEGAL_MOVE` would belong to nothing the reader
        // keeps); any other ending's time follows its `%` line.
        let foul = crate::format::foul_move(ending, &pos);
        if let Some(mv) = foul {
            writeln!(out, "{}", move_text(&pos, mv)).unwrap();
            write_time(out, ending.time, version);
        }
        writeln!(out, "%{}", ending_word(ending, pos.side_to_move())).unwrap();
        if foul.is_none() {
            write_time(out, ending.time, version);
        }
        for comment in &ending.comments {
            write_comment(out, comment);
        }
    }
}

/// The `%` word for a record's ending, as the player to move sees it: the
/// word [`special`] chooses, except that a foul read as `±ILLEGAL_ACTION`
/// stays one (it reads back as the same ending either way), and a word
/// kifconv does not know that looks like a CSA word is written as it was
/// read (it reads back as the same unknown word).
pub fn ending_word(ending: &Ending, to_move: Color) -> String {
    use EndingKind::*;
    let written = ending.text.trim().trim_start_matches('%');
    match (ending.kind, ending.winner) {
        (FoulWin | FoulLoss | IllegalMove, Some(winner))
            if ending.foul.is_none() && written.ends_with("ILLEGAL_ACTION") =>
        {
            format!("{}ILLEGAL_ACTION", (!winner).csa_char())
        }
        (Other, _) if is_unknown_csa_word(written) => written.to_string(),
        _ => special(ending.kind, ending.winner, to_move).to_string(),
    }
}

/// A word that could follow `%` in CSA (upper-case letters, digits, `_`,
/// `+`, `-`), so that writing it keeps the line a CSA special.
fn is_unknown_csa_word(word: &str) -> bool {
    !word.is_empty()
        && word.bytes().any(|b| b.is_ascii_uppercase())
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b"_+-".contains(&b))
}

fn write_comment(out: &mut String, comment: &str) {
    for line in split_at_endings(comment) {
        writeln!(out, "'*{line}").unwrap();
    }
}

/// A `T` line, if there is a time.
fn write_time(out: &mut String, time: Option<MoveTime>, version: Version) {
    let Some(MoveTime { spent_ms: ms, .. }) = time else {
        return;
    };
    match version {
        Version::V3_0 if !ms.is_multiple_of(1000) => {
            let text = format!("{}.{:03}", ms / 1000, ms % 1000);
            writeln!(out, "T{}", text.trim_end_matches('0')).unwrap()
        }
        _ => writeln!(out, "T{}", ms / 1000).unwrap(),
    }
}

fn square(sq: Square) -> String {
    format!("{}{}", sq.file(), sq.rank())
}

/// `+7776FU`: the piece as it stands after the move.
pub fn move_text(pos: &Position, mv: Move) -> String {
    let sign = pos.side_to_move().csa_char();
    match mv {
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            let after = kind.promote().filter(|_| promote).unwrap_or(kind);
            format!("{sign}{}{}{}", square(from), square(to), after.csa())
        }
        Move::Drop { kind, to } => format!("{sign}00{}{}", square(to), kind.csa()),
    }
}

/// `PI` for the even game or a handicap; else the board row by row and
/// the hands.
fn write_start(out: &mut String, start: &Position) {
    let even = Setup::startpos();
    let hands_empty = Color::ALL.into_iter().all(|c| start.hand(c).is_empty());
    let removed_only = hands_empty
        && Square::all()
            .all(|sq| start.piece_at(sq).is_none() || start.piece_at(sq) == even.piece_at(sq));
    if removed_only {
        out.push_str("PI");
        for sq in Square::all() {
            if start.piece_at(sq).is_none() {
                if let Some(piece) = even.piece_at(sq) {
                    write!(out, "{}{}", square(sq), piece.kind.csa()).unwrap();
                }
            }
        }
        out.push('\n');
    } else {
        for rank in 1..=9u8 {
            write!(out, "P{rank}").unwrap();
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).expect("on the board");
                match start.piece_at(sq) {
                    None => out.push_str(" * "),
                    Some(p) => write!(out, "{}{}", p.color.csa_char(), p.kind.csa()).unwrap(),
                }
            }
            out.push('\n');
        }
        for color in Color::ALL {
            let hand = start.hand(color);
            if hand.is_empty() {
                continue;
            }
            write!(out, "P{}", color.csa_char()).unwrap();
            for &kind in PieceKind::HAND.iter().rev() {
                for _ in 0..hand.count(kind) {
                    write!(out, "00{}", kind.csa()).unwrap();
                }
            }
            out.push('\n');
        }
    }
    writeln!(out, "{}", start.side_to_move().csa_char()).unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_text, Format};

    fn read_one(text: &str) -> Record {
        let mut records = read_text(text, Format::Csa).unwrap();
        assert_eq!(records.len(), 1, "{text}");
        records.remove(0)
    }

    #[test]
    fn a_fouls_time_goes_on_its_move() {
        // Black moves a pawn two squares: an illegal move.
        let text = "V3.0\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n+2725FU\nT3.5\n%ILLEGAL_MOVE\n'*反則\n";
        let record = read_one(text);
        let ending = record.ending().unwrap();
        assert_eq!(ending.kind, EndingKind::IllegalMove);
        assert_eq!(ending.time.unwrap().spent_ms, 3_500);
        let written = write(&record, Version::V3_0);
        assert!(
            written.ends_with("+2725FU\nT3.5\n%ILLEGAL_MOVE\n'*反則\n"),
            "{written}"
        );
        let back = read_one(&written);
        assert_eq!(back.ending(), record.ending());
    }

    #[test]
    fn illegal_actions_and_unknown_words_stay_as_read() {
        for (word, to_move_wins) in [
            ("+ILLEGAL_ACTION", true),
            ("-ILLEGAL_ACTION", false),
            ("SOMETHING_NEW", false),
        ] {
            // White to move after one move.
            let text = format!("PI\n+\n+7776FU\n%{word}\nT4\n");
            let record = read_one(&text);
            let written = write(&record, Version::V2_2);
            assert!(written.ends_with(&format!("%{word}\nT4\n")), "{written}");
            let back = read_one(&written);
            let (a, b) = (record.ending().unwrap(), back.ending().unwrap());
            assert_eq!((a.kind, a.winner, &a.text), (b.kind, b.winner, &b.text));
            if word.ends_with("ACTION") {
                assert_eq!(a.winner == Some(Color::White), to_move_wins, "{word}");
            }
        }
    }

    #[test]
    fn every_dollar_header_is_a_header_line() {
        let text = "V3.0\nN+a\n$EVENT:e\n$TIME:600+0+10\n$X_NEW_KEY:v\nPI\n+\n";
        let record = read_one(text);
        let written = write(&record, Version::V3_0);
        assert!(
            written.contains("$TIME:600+0+10\n$X_NEW_KEY:v\n"),
            "{written}"
        );
        assert!(!written.contains("'$"), "{written}");
        assert_eq!(read_one(&written).headers, record.headers);
    }

    #[test]
    fn the_encoding_line_names_the_encoding_written() {
        let record = read_one("PI\n+\n+7776FU\n");
        let records = [record.clone(), record];
        let sjis = write_all(&records, Version::V3_0, "Shift_JIS");
        assert!(
            sjis.starts_with("'CSA encoding=SHIFT_JIS\nV3.0\n"),
            "{sjis}"
        );
        assert_eq!(sjis.matches("'CSA encoding").count(), 1);
        let utf8 = write_all(&records, Version::V3_0, "UTF-8");
        assert!(utf8.starts_with("'CSA encoding=UTF-8\nV3.0\n"), "{utf8}");
        let v2 = write_all(&records, Version::V2_2, "Shift_JIS");
        assert!(v2.starts_with("V2.2\n"), "{v2}");
        assert_eq!(read_text(&sjis, Format::Csa).unwrap().len(), 2);
    }
}
