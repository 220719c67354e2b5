//! CSA: V3.0 by default (`'CSA encoding=UTF-8`, times with milliseconds),
//! V2.2 on request (whole-second times). Player names, `$` headers, the
//! start as `PI` (with the pieces a handicap removes) or `P1`–`P9` and
//! hands, moves with `T` times, comments as `'*`, the `%` ending, several
//! games separated by `/`. CSA has no variations: the mainline is written.

use crate::record::{EndingKind, Record};
use crate::{Color, Move, PieceKind, Position, Setup, Square};
use std::fmt::Write as _;

/// Which CSA version to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Version {
    #[default]
    V3_0,
    V2_2,
}

/// The CSA header key for a header of another format, if CSA has one.
fn csa_key(key: &str) -> Option<&'static str> {
    Some(match key {
        "先手" | "下手" | "N+" | "Sente" => "N+",
        "後手" | "上手" | "N-" | "Gote" => "N-",
        "棋戦" | "$EVENT" | "Event" => "$EVENT",
        "場所" | "$SITE" | "Site" => "$SITE",
        "開始日時" | "$START_TIME" => "$START_TIME",
        "終了日時" | "$END_TIME" => "$END_TIME",
        "持ち時間" | "$TIME_LIMIT" => "$TIME_LIMIT",
        "戦型" | "$OPENING" => "$OPENING",
        "$TIME" => "$TIME",
        "$MAX_MOVES" => "$MAX_MOVES",
        "$JISHOGI" => "$JISHOGI",
        "$NOTE" => "$NOTE",
        _ => return None,
    })
}

/// The headers CSA has no key for, as the `key:value` comments the writer
/// keeps them in (before the start position, so they read back as the
/// first comments of the game).
pub fn header_comments(record: &Record) -> Vec<String> {
    record
        .headers
        .iter()
        .filter(|h| csa_key(&h.key).is_none() && h.key != "V" && h.key != "手合割")
        .map(|h| format!("{}:{}", h.key, h.value))
        .collect()
}

/// Writes several games, separated by `/` lines.
pub fn write_all(records: &[Record], version: Version) -> String {
    let mut out = String::new();
    for (i, record) in records.iter().enumerate() {
        if i > 0 {
            out.push_str("/\n");
        }
        write_game(&mut out, record, version, i == 0);
    }
    out
}

/// Writes one game.
pub fn write(record: &Record, version: Version) -> String {
    write_all(std::slice::from_ref(record), version)
}

fn write_game(out: &mut String, record: &Record, version: Version, first: bool) {
    if first && version == Version::V3_0 {
        out.push_str("'CSA encoding=UTF-8\n");
    }
    out.push_str(match version {
        Version::V3_0 => "V3.0\n",
        Version::V2_2 => "V2.2\n",
    });
    for header in &record.headers {
        match csa_key(&header.key) {
            Some(key) if key.starts_with('N') => writeln!(out, "{key}{}", header.value).unwrap(),
            Some(key) => writeln!(out, "{key}:{}", header.value).unwrap(),
            None => {}
        }
    }
    // Headers CSA has no place for are kept as comments.
    for comment in header_comments(record) {
        writeln!(out, "'{comment}").unwrap();
    }
    write_start(out, &record.start);
    for comment in &record.tree.root().comments {
        write_comment(out, comment);
    }
    let (mut pos, _) = Position::from_setup_lenient(record.start.clone())
        .expect("a record's start was checked when it was read");
    let mut last = crate::record::NodeId::ROOT;
    for id in record.tree.mainline() {
        let node = record.tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        write_move(out, &pos, mv);
        if let Some(time) = node.time {
            write_time(out, time.spent_ms, version);
        }
        for comment in &node.comments {
            write_comment(out, comment);
        }
        pos.play_unchecked(mv);
        last = id;
    }
    if let Some(ending) = &record.tree.node(last).ending {
        if let Some(mv) = super::foul_move(ending, &pos) {
            write_move(out, &pos, mv);
        }
        writeln!(
            out,
            "%{}",
            special(ending.kind, ending.winner, pos.side_to_move())
        )
        .unwrap();
        if let Some(time) = ending.time {
            write_time(out, time.spent_ms, version);
        }
        for comment in &ending.comments {
            write_comment(out, comment);
        }
    }
}

/// The `%` word for an ending, as the player to move sees it.
pub fn special(kind: EndingKind, winner: Option<Color>, to_move: Color) -> &'static str {
    use EndingKind::*;
    match kind {
        FoulWin | FoulLoss | IllegalMove => match winner {
            // The player to move broke the rules.
            Some(w) if w != to_move => "ILLEGAL_MOVE",
            Some(Color::Black) => "-ILLEGAL_ACTION",
            Some(Color::White) => "+ILLEGAL_ACTION",
            None => "ILLEGAL_MOVE",
        },
        Other | DefaultWin | DefaultLoss | Sealed | Try => "CHUDAN",
        other => other.csa_word().unwrap_or("CHUDAN"),
    }
}

fn write_comment(out: &mut String, comment: &str) {
    for line in comment.split('\n') {
        writeln!(out, "'*{line}").unwrap();
    }
}

fn write_time(out: &mut String, ms: u64, version: Version) {
    match version {
        Version::V3_0 if ms % 1000 != 0 => {
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
            let after = if promote {
                kind.promote().unwrap_or(kind)
            } else {
                kind
            };
            format!("{sign}{}{}{}", square(from), square(to), after.csa())
        }
        Move::Drop { kind, to } => format!("{sign}00{}{}", square(to), kind.csa()),
    }
}

fn write_move(out: &mut String, pos: &Position, mv: Move) {
    out.push_str(&move_text(pos, mv));
    out.push('\n');
}

/// `PI` for the even game or a handicap; else the board row by row and
/// the hands.
fn write_start(out: &mut String, start: &Setup) {
    let even = Setup::startpos();
    let hands_empty = start.hands.iter().all(|h| h.is_empty());
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
            let hand = &start.hands[color.index()];
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
    writeln!(out, "{}", start.side_to_move.csa_char()).unwrap();
}
