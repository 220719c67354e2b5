//! `kifconv mate --depth`, `kifconv tsume check` and `kifconv tsume
//! generate`: the command-line faces of the library's [`crate::tsume`].

use super::args::{TsumeCheckArgs, TsumeGenerateArgs};
use super::tools::{position, print};
use crate::tsume::{self, jsa_moves, Limits, Outcome};

/// `kifconv mate POSITION --depth N [--nodes N]`: the shortest forced mate,
/// its main line in USI and JSA notation, and whether the first move is
/// unique. Exit 0 for a mate, 1 for none within the depth, 3 for unknown
/// (budget), 2 for a bad position.
pub fn mate(text: &str, depth: u32, nodes: u64) -> u8 {
    let pos = match position(text) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    if pos.king(!pos.side_to_move()).is_none() {
        eprintln!("error: the side not to move has no king to mate");
        return 2;
    }
    let (out, code) = match tsume::solve(&pos, Limits { depth, nodes }) {
        Outcome::Mate(mate) => {
            let usi: Vec<String> = mate.line.iter().map(|m| m.to_string()).collect();
            let mut out = format!("mate in {}\n", mate.len());
            out.push_str(&usi.join(" "));
            out.push('\n');
            out.push_str(&jsa_moves(&pos, &mate.line).join(" "));
            out.push('\n');
            if mate.unique_first() {
                out.push_str("first move unique\n");
            } else {
                let others: Vec<String> = mate.first_moves.iter().map(|m| m.to_string()).collect();
                out.push_str(&format!(
                    "first move not unique (余詰): {} mate in {}\n",
                    others.join(" "),
                    mate.len()
                ));
            }
            (out, 0)
        }
        Outcome::NoMate => (format!("no mate within {depth} plies\n"), 1),
        Outcome::Unknown => (format!("unknown: the budget of {nodes} nodes ran out\n"), 3),
    };
    match print(out.as_bytes()) {
        0 => code,
        failed => failed,
    }
}

/// `kifconv tsume check FILE...`.
pub fn check(_args: &TsumeCheckArgs) -> u8 {
    eprintln!("error: tsume check is not built yet");
    2
}

/// `kifconv tsume generate`.
pub fn generate(_args: &TsumeGenerateArgs) -> u8 {
    eprintln!("error: tsume generate is not built yet");
    2
}
