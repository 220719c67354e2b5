//! The engine's `info` lines as typed values: what a search reports as it
//! goes (depth, score, nodes, the principal variation, …).

use std::fmt;

/// One `info` line, parsed. Every field is optional: an engine sends
/// what it has. The PV's moves are text here; the driver checks them on
/// its board and keeps the legal ones in [`super::Pv`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Nominal depth, in plies.
    pub depth: Option<u32>,
    /// Selective depth, in plies.
    pub seldepth: Option<u32>,
    /// Time searched so far, in milliseconds.
    pub time_ms: Option<u64>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// How full the hash table is, in permille.
    pub hashfull: Option<u32>,
    /// Which line of a MultiPV search this is (1 is the best).
    pub multipv: Option<u32>,
    /// The value of the position for the side to move.
    pub score: Option<Score>,
    /// The move being searched now.
    pub currmove: Option<String>,
    /// The best line found, as the engine wrote its moves.
    pub pv: Vec<String>,
    /// Free text (`info string …`): the rest of the line.
    pub string: Option<String>,
}

/// A search's value of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Centipawns or a mate.
    pub value: Value,
    /// Whether the value is exact or a bound.
    pub bound: Bound,
}

/// A score's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Centipawns: positive is good for the side to move.
    Cp(i32),
    /// A mate in this many plies: positive when the side to move mates,
    /// negative when it is mated. USI lets an engine leave the count out
    /// (`mate +`, `mate -`): then `plies` is `None` and `mating` says who.
    Mate {
        /// Plies to the mate, when the engine said.
        plies: Option<i32>,
        /// Whether the side to move is the one mating.
        mating: bool,
    },
}

/// Whether a score is exact or a bound of the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The true value is at least this (`lowerbound`).
    Lower,
    /// The true value is at most this (`upperbound`).
    Upper,
}

/// Why an `info` line could not be read: a keyword whose value is missing
/// or not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoError {
    /// The keyword.
    pub keyword: String,
    /// What followed it (empty at the end of the line).
    pub found: String,
}

impl fmt::Display for InfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.found.as_str() {
            "" => write!(
                f,
                "`{}` has no value (expected a number after it)",
                self.keyword
            ),
            found => write!(
                f,
                "`{} {found}`: expected a number after `{}`",
                self.keyword, self.keyword
            ),
        }
    }
}

impl std::error::Error for InfoError {}

impl Score {
    /// The score as centipawns, a mate counted as `mate_cp` less the plies
    /// to it (its sign the mating side's), as training data stores values.
    pub fn to_cp(self, mate_cp: i32) -> i32 {
        match self.value {
            Value::Cp(cp) => cp,
            Value::Mate { plies, mating } => {
                let value = mate_cp - plies.map_or(0, i32::abs);
                if mating {
                    value
                } else {
                    -value
                }
            }
        }
    }
}

impl fmt::Display for Score {
    /// The score as USI writes it after `score`: `cp 35`, `mate 5`,
    /// `mate -4`, `mate +`, with ` lowerbound` or ` upperbound` after a
    /// bound.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Value::Cp(cp) => write!(f, "cp {cp}")?,
            Value::Mate {
                plies: Some(n),
                mating,
            } => match (n, mating) {
                (0, false) => write!(f, "mate -0")?,
                _ => write!(f, "mate {n}")?,
            },
            Value::Mate {
                plies: None,
                mating,
            } => write!(f, "mate {}", if mating { '+' } else { '-' })?,
        }
        match self.bound {
            Bound::Exact => Ok(()),
            Bound::Lower => write!(f, " lowerbound"),
            Bound::Upper => write!(f, " upperbound"),
        }
    }
}

impl Info {
    /// Reads the words after `info`. Keywords USI does not name (and
    /// engines' own, such as `tbhits`) are skipped with the numbers after
    /// them; a named keyword without its number is an error.
    pub fn parse(words: &str) -> Result<Info, InfoError> {
        let mut info = Info::default();
        let mut rest = words.trim_start();
        while let Some((word, after)) = next_word(rest) {
            rest = after;
            if word == "string" {
                info.string = Some(rest.trim().to_string());
                break;
            }
            if word == "pv" {
                info.pv = rest.split_ascii_whitespace().map(str::to_string).collect();
                break;
            }
            if word == "score" {
                let (score, after) = score(rest)?;
                info.score = Some(score);
                rest = after;
                continue;
            }
            if word == "currmove" {
                let (mv, after) = next_word(rest).unwrap_or(("", ""));
                info.currmove = (!mv.is_empty()).then(|| mv.to_string());
                rest = after;
                continue;
            }
            let (value, after) = next_word(rest).unwrap_or(("", ""));
            let number = |value: &str| {
                value.parse::<u64>().map_err(|_| InfoError {
                    keyword: word.to_string(),
                    found: value.to_string(),
                })
            };
            let small = |value: &str| number(value).map(|n| u32::try_from(n).unwrap_or(u32::MAX));
            match word {
                "depth" => info.depth = Some(small(value)?),
                "seldepth" => info.seldepth = Some(small(value)?),
                "time" => info.time_ms = Some(number(value)?),
                "nodes" => info.nodes = Some(number(value)?),
                "nps" => info.nps = Some(number(value)?),
                "hashfull" => info.hashfull = Some(small(value)?),
                "multipv" => info.multipv = Some(small(value)?),
                _ => {
                    // An unknown keyword: skip the number after it too.
                    if value.parse::<i64>().is_err() {
                        continue;
                    }
                }
            }
            rest = after;
        }
        Ok(info)
    }
}

/// The first word of `text` and what follows it.
fn next_word(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    if text.is_empty() {
        return None;
    }
    let end = text.find([' ', '\t']).unwrap_or(text.len());
    Some((&text[..end], &text[end..]))
}

/// `cp N` or `mate N` (N may be `+` or `-` alone), then an optional bound.
fn score(text: &str) -> Result<(Score, &str), InfoError> {
    let error = |keyword: &str, found: &str| InfoError {
        keyword: format!("score {keyword}"),
        found: found.to_string(),
    };
    let (kind, rest) = next_word(text).ok_or_else(|| error("", ""))?;
    let (number, mut rest) = next_word(rest).unwrap_or(("", ""));
    let value = match kind {
        "cp" => Value::Cp(number.parse().map_err(|_| error(kind, number))?),
        "mate" => match number {
            "+" => Value::Mate {
                plies: None,
                mating: true,
            },
            "-" => Value::Mate {
                plies: None,
                mating: false,
            },
            _ => {
                let n: i32 = number.parse().map_err(|_| error(kind, number))?;
                Value::Mate {
                    plies: Some(n),
                    mating: n > 0 || (n == 0 && !number.starts_with('-')),
                }
            }
        },
        _ => return Err(error("", kind)),
    };
    let mut bound = Bound::Exact;
    if let Some((word, after)) = next_word(rest) {
        bound = match word {
            "lowerbound" => Bound::Lower,
            "upperbound" => Bound::Upper,
            _ => Bound::Exact,
        };
        if bound != Bound::Exact {
            rest = after;
        }
    }
    Ok((Score { value, bound }, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_lines_real_engines_print() {
        // YaneuraOu's and Fairy-Stockfish's lines, as they print them.
        let info = Info::parse(
            "depth 9 seldepth 10 multipv 1 score cp 0 nodes 3792 nps 948000 hashfull 0 time 4 pv 1a1b 2g2f 3c3d 8h2b+",
        )
        .unwrap();
        assert_eq!(info.depth, Some(9));
        assert_eq!(info.seldepth, Some(10));
        assert_eq!(info.multipv, Some(1));
        assert_eq!(info.score.unwrap().to_string(), "cp 0");
        assert_eq!(
            (info.nodes, info.nps, info.hashfull, info.time_ms),
            (Some(3792), Some(948_000), Some(0), Some(4))
        );
        assert_eq!(info.pv, ["1a1b", "2g2f", "3c3d", "8h2b+"]);
        let info = Info::parse("depth 5 seldepth 5 multipv 1 score cp -227 nodes 1588 nps 176444 tbhits 0 time 9 pv 5a4b 4g4f").unwrap();
        assert_eq!(info.nodes, Some(1588));
        assert_eq!(info.time_ms, Some(9));
        assert_eq!(info.score.unwrap().value, Value::Cp(-227));
        let info = Info::parse("string USI_Hash : Finish clearing.").unwrap();
        assert_eq!(info.string.as_deref(), Some("USI_Hash : Finish clearing."));
        assert_eq!(info.depth, None);
    }

    #[test]
    fn reads_every_form_of_score() {
        for (text, value, bound) in [
            ("cp 35", Value::Cp(35), Bound::Exact),
            ("cp -12 upperbound", Value::Cp(-12), Bound::Upper),
            ("cp 7 lowerbound", Value::Cp(7), Bound::Lower),
            (
                "mate 5",
                Value::Mate {
                    plies: Some(5),
                    mating: true,
                },
                Bound::Exact,
            ),
            (
                "mate -4",
                Value::Mate {
                    plies: Some(-4),
                    mating: false,
                },
                Bound::Exact,
            ),
            (
                "mate -0",
                Value::Mate {
                    plies: Some(0),
                    mating: false,
                },
                Bound::Exact,
            ),
            (
                "mate +",
                Value::Mate {
                    plies: None,
                    mating: true,
                },
                Bound::Exact,
            ),
            (
                "mate - lowerbound",
                Value::Mate {
                    plies: None,
                    mating: false,
                },
                Bound::Lower,
            ),
        ] {
            let info = Info::parse(&format!("depth 3 score {text} nodes 10")).unwrap();
            let score = info.score.unwrap();
            assert_eq!((score.value, score.bound), (value, bound), "{text}");
            assert_eq!(score.to_string(), text);
            assert_eq!(
                info.nodes,
                Some(10),
                "{text}: the words after the score are read"
            );
        }
        let mate = |n| Score {
            value: Value::Mate {
                plies: Some(n),
                mating: n > 0,
            },
            bound: Bound::Exact,
        };
        assert_eq!(mate(3).to_cp(32_000), 31_997);
        assert_eq!(mate(-2).to_cp(32_000), -31_998);
    }

    #[test]
    fn a_keyword_without_its_number_is_an_error() {
        let error = Info::parse("depth x nodes 3").unwrap_err();
        assert_eq!(
            error.to_string(),
            "`depth x`: expected a number after `depth`"
        );
        let error = Info::parse("nodes").unwrap_err();
        assert_eq!(
            error.to_string(),
            "`nodes` has no value (expected a number after it)"
        );
        assert!(Info::parse("score cp").is_err());
        assert!(Info::parse("score mate x").is_err());
        assert!(Info::parse("score win").is_err());
        // Unknown words are skipped with their numbers.
        let info =
            Info::parse("cpuload 500 sbhits 3 currmovenumber 2 currmove 7g7f depth 4").unwrap();
        assert_eq!(
            (info.depth, info.currmove.as_deref()),
            (Some(4), Some("7g7f"))
        );
    }
}
