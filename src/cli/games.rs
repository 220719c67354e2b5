//! The game filters (`--min-rating`, `--min-moves`, `--results`,
//! `--require-eval`) checked, for every command that reads games, and the
//! line that says what they left out.

use super::args::{GameFilterArgs, RatingOf};
use crate::training::filter::{self, Filter, Rejection};
use std::collections::BTreeMap;

/// The filter the options give, `None` when none is given; `--results` is
/// checked against the names kifconv gives, `--min-rating` and
/// `--min-moves` against what a game can have.
pub fn filter(args: GameFilterArgs, max_eval: Option<i32>) -> Result<Option<Filter>, String> {
    let given = args.min_rating.is_some()
        || args.min_moves.is_some()
        || args.results.is_some()
        || args.require_eval
        || max_eval.is_some();
    if !given {
        return Ok(None);
    }
    if let Some(results) = &args.results {
        let known = filter::result_names();
        if let Some(unknown) = results.iter().find(|r| !known.contains(r)) {
            return Err(format!(
                "--results {unknown}: no such ending; the names are {}",
                known.join(", ")
            ));
        }
    }
    if let Some(r) = args.min_rating.filter(|r| r.is_nan() || *r < 0.0) {
        return Err(format!("--min-rating {r}: a rating is at least 0"));
    }
    Ok(Some(Filter {
        results: args.results,
        min_moves: args.min_moves,
        min_rating: args.min_rating,
        rating_of: match args.rating_of {
            RatingOf::Both => filter::RatingOf::Both,
            RatingOf::Loser => filter::RatingOf::Loser,
        },
        require_eval: args.require_eval,
        max_eval,
        spare_entering_king: false,
    }))
}

/// `left out: --min-rating 3 games, --min-moves 1 games`.
pub fn left_out_line(left_out: &BTreeMap<Rejection, usize>) -> String {
    let left: Vec<String> = left_out
        .iter()
        .map(|(why, n)| format!("{} {n} games", why.option()))
        .collect();
    format!("left out: {}", left.join(", "))
}
