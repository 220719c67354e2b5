//! Two small tools: `flip` (a position and moves rotated 180°, for books
//! that store one side only) and `mate` (every mate in one, for checking a
//! problem's solution is unique).

use kifconv::emit::japanese::write_spec;
use kifconv::resolve::describe;
use kifconv::{Move, Position, Setup};

fn position(sfen: &str) -> Result<Position, String> {
    let setup = Setup::from_sfen(sfen).map_err(|e| e.to_string())?;
    Position::from_setup_lenient(setup)
        .map(|(pos, _)| pos)
        .map_err(|e| e.to_string())
}

/// Prints the flipped SFEN, then the flipped moves on one line.
pub fn flip(sfen: &str, moves: &[String]) -> u8 {
    let pos = match position(sfen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut flipped = Vec::with_capacity(moves.len());
    for text in moves {
        match Move::from_usi(text) {
            Ok(mv) => flipped.push(mv.flip().to_string()),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    println!("{}", pos.flip().sfen());
    if !flipped.is_empty() {
        println!("{}", flipped.join(" "));
    }
    0
}

/// Prints every mate in one (USI and KI2) and whether it is unique.
pub fn mate(sfen: &str) -> u8 {
    let pos = match position(sfen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
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
    for &mv in &mates {
        let mut text = String::new();
        text.push(pos.side_to_move().triangle());
        write_spec(&mut text, &describe(&pos, mv, None));
        println!("{mv}\t{text}");
    }
    match mates.len() {
        0 => println!("no mate in one"),
        1 => println!("unique mate in one"),
        n => println!("{n} mates in one (not unique: 余詰)"),
    }
    0
}
