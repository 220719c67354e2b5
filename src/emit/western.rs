//! Western (Hodges) notation with a tag block, as the Western reader reads
//! it: `1. P-7f P-3d 2. Bx2b+ Sx2b 3. B*4e`. An origin is written only when
//! another piece of the same kind could make the same move (the minimal
//! form, like chess SAN); `x` for a capture, `-` otherwise, `*` for a drop,
//! `+` / `=` where promotion was possible, `#` on a mate, comments in
//! braces. The mainline only: the notation has no variations.

use crate::record::Record;
use crate::{Color, Move, PieceKind, Position};
use std::fmt::Write as _;

/// The Western letters of a piece: `P` … `K`, `+P` … `+R` promoted.
pub fn piece_letters(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.usi_letter())
    } else {
        kind.usi_letter().to_string()
    }
}

/// The tag name for a header of another format.
fn tag_name(key: &str) -> &str {
    match key {
        "先手" | "下手" | "N+" => "Sente",
        "後手" | "上手" | "N-" => "Gote",
        "棋戦" | "$EVENT" => "Event",
        "場所" | "$SITE" => "Site",
        "開始日時" | "$START_TIME" => "Date",
        other => other,
    }
}

/// Writes one game: tags, then the numbered moves.
pub fn write(record: &Record) -> String {
    let mut out = String::new();
    for header in &record.headers {
        let key = tag_name(&header.key);
        if matches!(key, "手合割" | "V" | "SFEN" | "Handicap") {
            continue;
        }
        if !key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '+' || c == '-')
        {
            continue;
        }
        writeln!(out, "[{key} \"{}\"]", escape(&header.value)).unwrap();
    }
    // A game needs at least one tag or move to be a game; an empty record
    // from the standard start writes its start.
    let empty = out.is_empty() && record.tree.is_empty();
    if record.start != *crate::Handicap::Even.setup_ref() || empty {
        writeln!(out, "[SFEN \"{}\"]", record.start.sfen()).unwrap();
    }
    let (mut pos, _) = Position::from_setup_lenient(record.start.clone())
        .expect("a record's start was checked when it was read");
    for comment in &record.tree.root().comments {
        writeln!(out, "{{{}}}", brace_safe(comment)).unwrap();
    }
    let mut line = String::new();
    let mut number = 1;
    let mut first = true;
    for id in record.tree.mainline() {
        let node = record.tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        let black = pos.side_to_move() == Color::Black;
        if black {
            if !first {
                number += 1;
            }
            write!(line, "{number}. ").unwrap();
        } else if first {
            write!(line, "{number}... ").unwrap();
        }
        first = false;
        line.push_str(&move_text(&pos, mv));
        for comment in &node.comments {
            write!(line, " {{{}}}", brace_safe(comment)).unwrap();
        }
        line.push(' ');
        if line.len() > 70 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        pos.play_unchecked(mv);
    }
    if !line.is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment without the braces that would end it early.
fn brace_safe(comment: &str) -> String {
    comment
        .replace('{', "(")
        .replace('}', ")")
        .replace('\n', " ")
}

/// The minimal Western text of a legal move.
pub fn move_text(pos: &Position, mv: Move) -> String {
    let mut text = String::with_capacity(10);
    match mv {
        Move::Drop { kind, to } => {
            write!(text, "{}*{to}", piece_letters(kind)).unwrap();
        }
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            text.push_str(&piece_letters(kind));
            let twins = pos
                .candidates(kind, to)
                .iter()
                .filter_map(|m| m.from())
                .any(|other| other != from);
            if twins {
                write!(text, "{from}").unwrap();
            }
            text.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            write!(text, "{to}").unwrap();
            let could_promote = pos.is_legal(Move::Normal {
                from,
                to,
                promote: true,
            });
            if promote {
                text.push('+');
            } else if could_promote {
                text.push('=');
            }
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(mv);
    if after.is_checkmate() {
        text.push('#');
    }
    text
}
