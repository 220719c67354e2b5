//! Which games, and how much of each, go into training data: the filters
//! of dlshogi's `csa_to_hcpe` and `csa_to_hcpe3` scripts, each one a
//! choice. A game passes them in this order, and the first it fails is the
//! reason it is left out (the summary counts games by reason):
//!
//! 1. how it ended ([`Filter::results`]), then its length
//!    ([`Filter::min_moves`]);
//! 2. the players' ratings ([`Filter::min_rating`], [`Filter::rating_of`]),
//!    from floodgate's comments ([`super::floodgate::rating`]);
//! 3. evaluations on both sides ([`Filter::require_eval`]).
//!
//! A game that passes is then cut at its first mate score
//! ([`Filter::max_eval`], [`Filter::cut`]); repeated games and positions
//! are [`super::uniq`]'s.

use super::samples::Game;
use crate::format::csa::specials;
use crate::record::EndingKind;
use crate::Color;
use std::fmt;

/// Whose rating [`Filter::min_rating`] looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RatingOf {
    /// Both players' (the lower must reach it). dlshogi's `csa_to_hcpe`
    /// and `csa_to_hcpe3` (as read at commit 16b5a41) are looser: they
    /// leave a game out only when both players are under the bound.
    #[default]
    Both,
    /// The loser's, or both players' in a game without a winner.
    Loser,
}

/// The filters, all off by default.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Keep only games that ended in one of these ways (CSA's words in
    /// lower case, see [`result_name`]); `None` keeps every game.
    pub results: Option<Vec<String>>,
    /// Keep only games of at least this many moves.
    pub min_moves: Option<usize>,
    /// Keep only games whose players (see [`Filter::rating_of`]) are rated
    /// at least this.
    pub min_rating: Option<f64>,
    /// Whose rating counts.
    pub rating_of: RatingOf,
    /// Keep only games in which both black and white have an evaluation on
    /// at least one of their moves.
    pub require_eval: bool,
    /// Cut a game after the first move whose evaluation reaches this in
    /// absolute value (a mate score; dlshogi uses 100000).
    pub max_eval: Option<i32>,
    /// Whether [`Filter::max_eval`] spares a game won by entering king
    /// (`%KACHI`), whose engines see the win coming as a mate:
    /// `csa_to_hcpe3` spares it (kifconv does for hcpe3), `csa_to_hcpe`
    /// cuts it like any other (kifconv does for HCPE and PackedSfenValue).
    pub spare_entering_king: bool,
}

/// Why a game was left out: the first filter it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rejection {
    /// It did not end in one of [`Filter::results`].
    Result,
    /// It is shorter than [`Filter::min_moves`].
    Moves,
    /// A player's rating is under [`Filter::min_rating`].
    Rating,
    /// One side has no evaluation ([`Filter::require_eval`]).
    Eval,
    /// Its moves repeat a game kept before ([`super::uniq`]).
    Repeated,
}

impl Rejection {
    /// Every reason, in the order the filters are tried.
    pub const ALL: [Rejection; 5] = [
        Rejection::Result,
        Rejection::Moves,
        Rejection::Rating,
        Rejection::Eval,
        Rejection::Repeated,
    ];

    /// The option that made it, for the summary.
    pub fn option(self) -> &'static str {
        match self {
            Rejection::Result => "--results",
            Rejection::Moves => "--min-moves",
            Rejection::Rating => "--min-rating",
            Rejection::Eval => "--require-eval",
            Rejection::Repeated => "--uniq",
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.option())
    }
}

/// The name `--results` gives an ending: CSA's word for it in lower case
/// (`toryo`, `tsumi`, `kachi`, `sennichite`, `jishogi`, `max_moves`,
/// `time_up`, `illegal_move`, `chudan`, …; every foul is `illegal_move`),
/// `other` for an ending CSA has no word for, `none` for a record that does
/// not say how it ended.
pub fn result_name(ending: Option<EndingKind>) -> String {
    match ending {
        None => "none".to_string(),
        Some(kind) => specials::word(kind).unwrap_or("OTHER").to_ascii_lowercase(),
    }
}

/// Whether a `--results` list names `ending`: by its own name, or for a
/// game stopped at the move limit (floodgate's `'summary:max_moves`, see
/// [`super::floodgate::ending`]) also by `jishogi`, as cshogi reads such a
/// game as `%JISHOGI` and dlshogi's scripts keep it under that word.
pub fn results_name(results: &[String], ending: Option<EndingKind>) -> bool {
    let name = result_name(ending);
    results.contains(&name)
        || (ending == Some(EndingKind::MaxMoves) && results.iter().any(|r| r == "jishogi"))
}

/// Every name [`result_name`] gives, for `--help` and to check a
/// `--results` list.
pub fn result_names() -> Vec<String> {
    let mut names: Vec<String> = EndingKind::ALL
        .iter()
        .map(|&k| result_name(Some(k)))
        .chain([result_name(None)])
        .collect();
    names.sort();
    names.dedup();
    names
}

impl Filter {
    /// Whether every filter is off: every game passes whole.
    pub fn is_off(&self) -> bool {
        let Filter {
            results,
            min_moves,
            min_rating,
            rating_of: _,
            require_eval,
            max_eval,
            spare_entering_king: _,
        } = self;
        results.is_none()
            && min_moves.is_none()
            && min_rating.is_none()
            && !require_eval
            && max_eval.is_none()
    }

    /// Whether `game` passes the filters, or the first it fails.
    pub fn admit(&self, game: &Game) -> Result<(), Rejection> {
        if let Some(results) = &self.results {
            if !results_name(results, game.ending) {
                return Err(Rejection::Result);
            }
        }
        if self.min_moves.is_some_and(|min| game.samples.len() < min) {
            return Err(Rejection::Moves);
        }
        if let Some(min) = self.min_rating {
            let rated = |c: Color| game.ratings[c as usize] >= min;
            let pass = match (self.rating_of, game.winner) {
                (RatingOf::Loser, Some(winner)) => rated(!winner),
                _ => rated(Color::Black) && rated(Color::White),
            };
            if !pass {
                return Err(Rejection::Rating);
            }
        }
        if self.require_eval {
            let side_has_eval =
                |c: Color| game.samples.iter().any(|s| s.side == c && s.eval.is_some());
            if !side_has_eval(Color::Black) || !side_has_eval(Color::White) {
                return Err(Rejection::Eval);
            }
        }
        Ok(())
    }

    /// Cuts `game` after its first mate score, when [`Filter::max_eval`]
    /// asks; says how many samples it cut.
    pub fn cut(&self, game: &mut Game) -> usize {
        let Some(limit) = self.max_eval else { return 0 };
        if self.spare_entering_king && game.ending == Some(EndingKind::EnteringKing) {
            return 0;
        }
        let limit = limit.unsigned_abs();
        let mate = game
            .samples
            .iter()
            .position(|s| s.eval.is_some_and(|e| e.unsigned_abs() >= limit));
        let Some(at) = mate else { return 0 };
        let cut = game.samples.len() - (at + 1);
        game.samples.truncate(at + 1);
        game.missing = game.samples.iter().filter(|s| s.eval.is_none()).count();
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::training::csa_game as game;

    const RATED: &str = "V2\n'black_rate:alice+0123:3382.0\n'white_rate:bob+4567:3613\nPI\n+\n\
        +7776FU\n'** 30\n-3334FU\n'** -20\n+2726FU\n'** 100000\n-8384FU\n'** 99999\n%TORYO\n";

    #[test]
    fn ratings_are_read_from_the_comments() {
        let rated = game(RATED);
        assert_eq!(rated.ratings, [3382.0, 3613.0]);
        let unrated = game("PI\n+\n+7776FU\n%TORYO\n");
        assert_eq!(unrated.ratings, [0.0, 0.0]);
    }

    #[test]
    fn each_filter_names_itself() {
        let judge = |filter: Filter| {
            let mut game = game(RATED);
            filter.admit(&game)?;
            filter.cut(&mut game);
            Ok(game.samples.len())
        };
        assert_eq!(judge(Filter::default()), Ok(4));
        let results = |r: &[&str]| Some(r.iter().map(|s| s.to_string()).collect());
        assert_eq!(
            judge(Filter {
                results: results(&["toryo"]),
                ..Filter::default()
            }),
            Ok(4)
        );
        assert_eq!(
            judge(Filter {
                results: results(&["sennichite", "kachi"]),
                ..Filter::default()
            }),
            Err(Rejection::Result)
        );
        let moves = |min: usize| {
            judge(Filter {
                min_moves: Some(min),
                ..Filter::default()
            })
        };
        assert_eq!(moves(4), Ok(4));
        assert_eq!(moves(5), Err(Rejection::Moves));
        // Black (3382) lost to white (3613): under either rule black's
        // rating decides.
        let rated = |min: f64, of: RatingOf| {
            judge(Filter {
                min_rating: Some(min),
                rating_of: of,
                ..Filter::default()
            })
        };
        assert_eq!(rated(3300.0, RatingOf::Both), Ok(4));
        assert_eq!(rated(3500.0, RatingOf::Both), Err(Rejection::Rating));
        assert_eq!(rated(3500.0, RatingOf::Loser), Err(Rejection::Rating));
        assert_eq!(rated(3382.0, RatingOf::Loser), Ok(4));
        // Cut after the first |eval| ≥ 100000, that move kept.
        let cut_at = |max: i32| {
            judge(Filter {
                max_eval: Some(max),
                ..Filter::default()
            })
        };
        assert_eq!(cut_at(100000), Ok(3));
        assert_eq!(cut_at(99999), Ok(3));
        assert_eq!(
            judge(Filter {
                require_eval: true,
                ..Filter::default()
            }),
            Ok(4)
        );
    }

    #[test]
    fn the_loser_rule_looks_at_the_loser_only() {
        // White resigns: black (3382) won, white (3613) lost.
        let text = RATED.replace("%TORYO", "+6978KI\n%TORYO");
        let game = game(&text);
        let filter = Filter {
            min_rating: Some(3500.0),
            rating_of: RatingOf::Loser,
            ..Filter::default()
        };
        assert_eq!(filter.admit(&game), Ok(()));
        let both = Filter {
            rating_of: RatingOf::Both,
            ..filter
        };
        assert_eq!(both.admit(&game), Err(Rejection::Rating));
    }

    #[test]
    fn a_side_without_evaluations_fails_require_eval() {
        let game = game("PI\n+\n+7776FU\n'** 30\n-3334FU\n+2726FU\n'** 10\n%TORYO\n");
        let filter = Filter {
            require_eval: true,
            ..Filter::default()
        };
        assert_eq!(filter.admit(&game), Err(Rejection::Eval));
    }

    /// A game won by entering king is cut at its first mate score as any
    /// other (csa_to_hcpe), unless it is spared (csa_to_hcpe3).
    #[test]
    fn entering_king_games_are_cut_unless_spared() {
        let kachi = "PI\n+\n+7776FU\n'** 100000\n-3334FU\n+2726FU\n%KACHI\n";
        let mut cut = Filter {
            max_eval: Some(100000),
            ..Filter::default()
        };
        let mut game = game(kachi);
        assert_eq!(cut.cut(&mut game), 2);
        assert_eq!(game.samples.len(), 1);
        cut.spare_entering_king = true;
        let mut game = self::game(kachi);
        assert_eq!(cut.cut(&mut game), 0);
        assert_eq!(game.samples.len(), 3);
    }

    /// `jishogi` names floodgate's games stopped at the move limit too, as
    /// dlshogi's `%JISHOGI` does; `max_moves` names those alone.
    #[test]
    fn jishogi_names_the_move_limit_too() {
        let limit = game("PI\n+\n+7776FU\n-3334FU\n'summary:max_moves:a draw:b draw\n");
        assert_eq!(limit.ending, Some(EndingKind::MaxMoves));
        let only = |names: &[&str]| Filter {
            results: Some(names.iter().map(|n| n.to_string()).collect()),
            ..Filter::default()
        };
        assert_eq!(only(&["jishogi"]).admit(&limit), Ok(()));
        assert_eq!(only(&["max_moves"]).admit(&limit), Ok(()));
        assert_eq!(only(&["toryo"]).admit(&limit), Err(Rejection::Result));
        let jishogi = game("PI\n+\n+7776FU\n-3334FU\n%JISHOGI\n");
        assert_eq!(only(&["jishogi"]).admit(&jishogi), Ok(()));
        assert_eq!(only(&["max_moves"]).admit(&jishogi), Err(Rejection::Result));
    }

    #[test]
    fn result_names_are_csa_words() {
        let names = result_names();
        for name in [
            "toryo",
            "tsumi",
            "kachi",
            "sennichite",
            "jishogi",
            "max_moves",
            "none",
            "other",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        assert_eq!(result_name(Some(EndingKind::FoulWin)), "illegal_move");
    }
}
