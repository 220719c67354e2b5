//! Two small tools: `flip` (a position and moves rotated 180°, for books
//! that store one side only) and `mate` (every mate in one, for checking a
//! problem's solution is unique).

use super::fatal;
use crate::format::japanese::write::write_spec;
use crate::resolve::spec::MoveSpec;
use crate::{Move, Position};

/// Writes a tool's whole output to standard output: a reader that stops
/// reading (`| head`, `| true`) ends the tool quietly, any other failure
/// (a full disk) is an error and exit 2.
pub fn print(text: &[u8]) -> u8 {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => fatal(format_args!("cannot write to standard output: {e}")),
    }
}

/// A position as a tool takes it (see [`crate::read::read_position`]):
/// every move checked, each warning about its start printed as conversion
/// prints a record's. The error names the move and its column and shows
/// the argument with a caret under the fault.
pub fn position(text: &str) -> Result<Position, String> {
    let record = crate::read::read_position(text).map_err(|e| e.render_argument())?;
    for warning in &record.warnings {
        eprintln!("{}", warning.render("<position>"));
    }
    Ok(record.final_position())
}

/// Prints the flipped SFEN, then the flipped moves on one line; each move
/// must be legal in the position (they are its alternatives, as a book's
/// moves for a position are, not a line played one after another).
pub fn flip(sfen: &str, moves: &[String]) -> u8 {
    let pos = match position(sfen) {
        Ok(pos) => pos,
        Err(e) => return fatal(e),
    };
    let mut flipped = Vec::with_capacity(moves.len());
    for text in moves {
        let checked = Move::from_usi(text)
            .map_err(|e| e.to_string())
            .and_then(|mv| pos.check_legal(mv).map(|()| mv).map_err(|e| e.to_string()));
        match checked {
            Ok(mv) => flipped.push(mv.flip().to_string()),
            Err(e) => return fatal(format_args!("{text}: {e} (in {})", pos.sfen())),
        }
    }
    let mut text = pos.flip().sfen() + "\n";
    if !flipped.is_empty() {
        text.push_str(&flipped.join(" "));
        text.push('\n');
    }
    print(text.as_bytes())
}

/// Prints every mate in one (USI and KI2) and whether it is unique.
pub fn mate(sfen: &str) -> u8 {
    let pos = match position(sfen) {
        Ok(pos) => pos,
        Err(e) => return fatal(e),
    };
    let mates: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&mv| {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            after.is_checkmate()
        })
        .collect();
    let mut text = String::new();
    for &mv in &mates {
        text.push_str(&mv.to_string());
        text.push('\t');
        text.push(pos.side_to_move().triangle());
        write_spec(&mut text, &MoveSpec::from_move(&pos, mv, None));
        text.push('\n');
    }
    match mates.len() {
        0 => text.push_str("no mate in one\n"),
        1 => text.push_str("unique mate in one\n"),
        n => text.push_str(&format!("{n} mates in one (not unique: 余詰)\n")),
    }
    // As `mate --depth N`: 0 a mate found, 1 none.
    match print(text.as_bytes()) {
        0 if mates.is_empty() => 1,
        code => code,
    }
}
