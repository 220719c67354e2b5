//! Mate problems (詰将棋): a solver for the shortest forced mate, a
//! soundness check of a problem and its recorded answer, and a generator of
//! sound problems.
//!
//! The attacker (詰方) is the side to move; each of its moves must check,
//! and the defender (玉方) may answer with any legal move. Everything rests
//! on the rules core ([`Position`](crate::Position)): legality, check, and
//! 打ち歩詰め, which is simply not a legal move.
//!
//! ```
//! use kifconv::tsume::{solve, Limits, Outcome};
//! use kifconv::position::KingRule;
//! use kifconv::{Position, Setup};
//!
//! // A gold dropped on the king's head, held up by a pawn.
//! let setup = Setup::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
//! let pos = Position::from_setup(setup, KingRule::MayBeMissing).unwrap();
//! let Outcome::Mate(mate) = solve(&pos, Limits::default()) else { panic!() };
//! assert_eq!(mate.line[0].to_string(), "G*5b");
//! assert!(mate.unique_first());
//! ```

mod check;
mod checks;
mod dfpn;
mod extract;
mod generate;
mod length;
mod notation;
mod quality;
mod record;
mod reverse;
mod rules;
mod solver;

pub use crate::types::SplitMix;
pub use check::{check, check_record, hand_text, IllegalAnswer, Report, Rivals, Soundness};
pub use checks::{check_moves, gives_check, mate_in_one, mates_in_one};
pub use dfpn::{Prover, Verdict};
pub use extract::{as_problem, final_mate, mine, reduce, Found, Mined, Mining};
pub use generate::{generate, Problem};
pub use notation::jsa_moves;
pub use quality::{quality, Quality, WEIGHTS};
pub use record::problem_record;
pub use reverse::{generate_reverse, generate_reverse_from, Rated};
pub use rules::{Finding, Rule, Severity};
pub use solver::{is_interposition, solve, Limits, Mate, Outcome};

/// A problem position of the tests, from its SFEN; the attacker may have
/// no king.
#[cfg(test)]
pub(crate) fn problem(sfen: &str) -> crate::Position {
    let setup = crate::Setup::from_sfen(sfen).unwrap();
    crate::Position::from_setup(setup, crate::position::KingRule::MayBeMissing).unwrap()
}
