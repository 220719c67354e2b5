//! The training samples of a record, as every training-data writer takes
//! them: the position before each mainline move, that move, and its
//! evaluation from the side to move, clamped to ±32767 (0 where the record
//! has none, and counted).

use super::eval;
use super::packed::{packable, Dialect, PackError, Packer};
use crate::record::{EndingKind, Record, RecordError};
use crate::{Color, Move, Position};
use std::fmt;

/// Why a game gives no training data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainingError {
    /// The record does not replay (see [`Record::check`]).
    Record(RecordError),
    /// A position of the mainline cannot be packed: which ply (0 for the
    /// start) and why.
    Pack {
        /// The position's ply: the moves played before it.
        ply: u32,
        /// Why it cannot be packed.
        error: PackError,
    },
    /// More moves than a format's count can hold (hcpe3 counts them in 16
    /// bits).
    TooLong {
        /// How many moves the game has.
        moves: usize,
    },
}

impl fmt::Display for TrainingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainingError::Record(e) => e.fmt(f),
            TrainingError::Pack { ply, error } => {
                write!(f, "the position after move {ply}: {error}")
            }
            TrainingError::TooLong { moves } => {
                write!(f, "{moves} moves are more than hcpe3 can count (65,535)")
            }
        }
    }
}

impl std::error::Error for TrainingError {}

/// One position to learn from. The position itself is not kept: it is
/// the game's start with the moves before it played, which
/// [`Game::replay`] gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// How many moves of the mainline come before the position (0 for the
    /// start).
    pub ply: u32,
    /// The move played from it.
    pub mv: Move,
    /// Who plays it.
    pub side: Color,
    /// The position's move number, as its SFEN says.
    pub move_number: u32,
    /// The evaluation from the side to move, clamped to ±32767; 0 when the
    /// record gives none.
    pub score: i16,
    /// The evaluation from the side to move as written (a mate score may
    /// be far beyond ±32767), when the record gives one.
    pub eval: Option<i32>,
}

/// A game as training data: its start, its samples, who won and how it
/// ended.
#[derive(Clone, Debug)]
pub struct Game {
    /// The start position.
    start: Position,
    /// Every mainline move, legal from the start on: the samples a filter
    /// dropped still lead to the ones after them.
    moves: Vec<Move>,
    /// One sample per mainline move, in order, less what a filter dropped.
    pub(crate) samples: Vec<Sample>,
    /// How many of them have no evaluation.
    pub missing: usize,
    /// Who won, if anyone.
    pub winner: Option<Color>,
    /// How the game ended, if the record says (see
    /// [`super::floodgate::ending`]).
    pub ending: Option<EndingKind>,
    /// The players' ratings, black's and white's (see
    /// [`super::floodgate::rating`]).
    pub ratings: [f64; 2],
    /// What was read leniently: a move with two evaluations (the first
    /// is used).
    pub warnings: Vec<String>,
}

impl Game {
    /// The training data of `record`'s mainline, each move checked as it
    /// is played.
    pub fn of(record: &Record) -> Result<Game, TrainingError> {
        Game::made(record, Moves::Checked)
    }

    /// [`Game::of`] for a record as a reader returned it, whose moves were
    /// checked as it was built: they are not played again here (as
    /// [`crate::write::write_read`] writes such a record). A record built
    /// or changed by hand must go through [`Game::of`]: a move against
    /// the rules here can make the replay panic.
    pub fn of_read(record: &Record) -> Result<Game, TrainingError> {
        Game::made(record, Moves::Trusted)
    }

    fn made(record: &Record, moves: Moves) -> Result<Game, TrainingError> {
        let mut warnings = Vec::new();
        let (samples, missing, moves) = read(record, moves, Some(&mut warnings))?;
        // Moves keep both kings and every piece count: a start that packs
        // is a game whose every position packs.
        packable(&record.start).map_err(|error| TrainingError::Pack { ply: 0, error })?;
        Ok(Game {
            start: record.start.clone(),
            moves,
            samples,
            missing,
            winner: winner(record),
            ending: super::floodgate::ending(record),
            ratings: [Color::Black, Color::White].map(|c| super::floodgate::rating(record, c)),
            warnings,
        })
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The samples, in the order of the game, less what a filter dropped.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Calls `each` with every sample and the position before its move,
    /// in order, playing the game from its start once; stops at the first
    /// error `each` returns.
    pub fn replay<'g, E>(
        &'g self,
        mut each: impl FnMut(&'g Sample, &Position) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut pos = self.start.clone();
        let mut played = self.moves.iter();
        let mut at = 0;
        for sample in &self.samples {
            // Samples only leave in order; every ply is a move's.
            while at < sample.ply {
                let Some(&mv) = played.next() else { break };
                pos.play_unchecked(mv);
                at += 1;
            }
            each(sample, &pos)?;
        }
        Ok(())
    }
}

/// The samples of `record`'s mainline, and how many moves had no
/// evaluation.
pub fn samples(record: &Record) -> Result<(Vec<Sample>, usize), TrainingError> {
    read(record, Moves::Checked, None).map(|(samples, missing, _)| (samples, missing))
}

/// Appends one entry of `N` bytes per sample of `game` to `out`, each made
/// by `entry` from the sample and its position packed in `dialect`; a
/// position that cannot be packed is the error of its sample's ply, and
/// then nothing is appended.
pub(crate) fn each_entry<const N: usize>(
    game: &Game,
    dialect: Dialect,
    out: &mut Vec<u8>,
    entry: impl Fn(&Sample, [u8; 32]) -> [u8; N],
) -> Result<(), TrainingError> {
    let start = out.len();
    out.reserve(game.samples.len() * N);
    let written = push_entries(game, dialect, out, entry);
    if written.is_err() {
        out.truncate(start);
    }
    written
}

/// [`each_entry`]'s entries, appended until one fails. One packer plays
/// the game: the start is packed whole, each move is played on the
/// packer's own board (coding again only the files it changed), and a
/// position is packed only where a sample is.
#[inline(always)]
fn push_entries<const N: usize>(
    game: &Game,
    dialect: Dialect,
    out: &mut Vec<u8>,
    entry: impl Fn(&Sample, [u8; 32]) -> [u8; N],
) -> Result<(), TrainingError> {
    let error = |ply, error| TrainingError::Pack { ply, error };
    let (mut packer, packed) = Packer::starting(dialect, &game.start);
    let mut packed = packed.map_err(|e| error(0, e))?;
    let (mut moves, mut at, mut packed_at) = (game.moves.iter(), 0, 0);
    for sample in &game.samples {
        // Samples only leave in order; every ply is a move's.
        while at < sample.ply {
            let Some(&mv) = moves.next() else { break };
            packer.play(mv);
            at += 1;
        }
        if packed_at != at {
            packed = packer.packed().map_err(|e| error(sample.ply, e))?;
            packed_at = at;
        }
        out.extend_from_slice(&entry(sample, packed));
    }
    Ok(())
}

/// `N`-byte entries, one after another, as arrays.
pub(crate) fn entries_of<const N: usize>(bytes: &[u8]) -> Vec<[u8; N]> {
    bytes
        .chunks_exact(N)
        .map(|chunk| {
            let mut entry = [0; N];
            entry.copy_from_slice(chunk);
            entry
        })
        .collect()
}

/// The score a sample stores for an evaluation from the side to move:
/// clamped to ±32767, 0 when there is none.
pub fn clamped(eval: Option<i32>) -> i16 {
    eval.unwrap_or(0).clamp(-32767, 32767) as i16
}

/// Whether a replay checks each move before it plays it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moves {
    /// Each move is checked; an illegal one is an error.
    Checked,
    /// The moves were checked when the record was read.
    Trusted,
}

/// The samples, how many lack an evaluation, and the mainline's moves (see
/// [`each_sample`]).
fn read(
    record: &Record,
    moves: Moves,
    warnings: Option<&mut Vec<String>>,
) -> Result<(Vec<Sample>, usize, Vec<Move>), TrainingError> {
    // A record without variations knows its length without a walk.
    let length =
        (record.tree.line_nodes()).map_or_else(|| record.tree.mainline().count(), <[_]>::len);
    let mut out: Vec<Sample> = Vec::with_capacity(length);
    let mut played = Vec::with_capacity(out.capacity());
    let missing = each_sample(record, moves, warnings, |sample| {
        played.push(sample.mv);
        out.push(sample);
        Ok(())
    })?;
    Ok((out, missing, played))
}

/// Calls `each` with the sample of every mainline move of `record`, in
/// order, until it fails, and says how many had no evaluation; a move with
/// two evaluations is said in `warnings`, when given. With
/// [`Moves::Checked`], the moves are played from the start to check them.
#[inline(always)]
fn each_sample(
    record: &Record,
    moves: Moves,
    mut warnings: Option<&mut Vec<String>>,
    mut each: impl FnMut(Sample) -> Result<(), TrainingError>,
) -> Result<usize, TrainingError> {
    let illegal =
        |ply, mv, reason| TrainingError::Record(RecordError::IllegalMove { ply, mv, reason });
    let mut checked = (moves == Moves::Checked).then(|| record.start.clone());
    let start = &record.start;
    let (mut missing, mut ply) = (0, 0);
    for id in record.tree.mainline() {
        let node = record.tree.node(id);
        let Some(mv) = node.mv else {
            continue;
        };
        if let Some(pos) = &mut checked {
            pos.play(mv).map_err(|r| illegal(node.ply, mv, r))?;
        }
        // The comments are read once for the value and the warning.
        let (black, second) = eval::first_two(record, id);
        if let (Some(first), Some(second), Some(warnings)) = (black, second, &mut warnings) {
            warnings.push(format!(
                "move {}: two evaluations ({first} and {second}, black's view); the first is used",
                node.ply
            ));
        }
        let side = match ply % 2 {
            0 => start.side_to_move(),
            _ => !start.side_to_move(),
        };
        let score = black.map(|v| eval::of_mover(v, side));
        missing += usize::from(score.is_none());
        each(Sample {
            ply,
            mv,
            side,
            move_number: start.move_number() + ply,
            score: clamped(score),
            eval: score,
        })?;
        ply += 1;
    }
    Ok(missing)
}

/// Who won `record`'s game, if anyone.
fn winner(record: &Record) -> Option<Color> {
    record.ending().and_then(|e| e.winner)
}

/// What [`read_entries`] wrote for a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The positions written: one per mainline move.
    pub positions: usize,
    /// How many of them have no evaluation.
    pub missing: usize,
    /// The first position's move number; the others' follow it.
    pub first_move_number: u32,
}

/// Appends one entry of `N` bytes per mainline move of `record` (a record
/// as a reader returned it, see [`Game::of_read`]) to `out`, each made by
/// `entry` from the sample, its position packed in `dialect` and the
/// game's winner: the entries [`Game::of_read`] then [`each_entry`] give,
/// without the game. A move with two evaluations is said in `warnings`,
/// when given. Nothing is appended when it fails.
pub(crate) fn read_entries<const N: usize>(
    record: &Record,
    dialect: Dialect,
    out: &mut Vec<u8>,
    warnings: Option<&mut Vec<String>>,
    entry: impl Fn(&Sample, [u8; 32], Option<Color>) -> [u8; N],
) -> Result<Written, TrainingError> {
    let error = |ply, error| TrainingError::Pack { ply, error };
    // The start is packed again by the first `packed`, from the words it
    // left: one source of bytes keeps the loop simple.
    let (mut packer, first) = Packer::starting(dialect, &record.start);
    first.map_err(|e| error(0, e))?;
    let (at, winner) = (out.len(), winner(record));
    if let Some(line) = record.tree.line_nodes() {
        out.reserve(line.len() * N);
    }
    let mut positions = 0;
    let missing = each_sample(record, Moves::Trusted, warnings, |sample| {
        let packed = packer.packed().map_err(|e| error(sample.ply, e))?;
        out.extend_from_slice(&entry(&sample, packed, winner));
        packer.play(sample.mv);
        positions += 1;
        Ok(())
    })
    .inspect_err(|_| out.truncate(at))?;
    Ok(Written {
        positions,
        missing,
        first_move_number: record.start.move_number(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::NodeId;

    /// A record of the even start with `moves` pushed as they are, legal
    /// or not.
    fn record(moves: &[&str]) -> Record {
        let mut record = crate::read::read_text("V2.2\nPI\n+\n", crate::read::Format::Csa)
            .unwrap()
            .remove(0);
        let mut at = NodeId::ROOT;
        for usi in moves {
            at = record.tree.push(at, Move::from_usi(usi).unwrap());
        }
        record
    }

    /// The position before each sample's move, as [`Game::replay`] gives
    /// it, with the sample's move.
    fn replayed(game: &Game) -> Vec<(String, Move)> {
        let mut out = Vec::new();
        let Ok(()) = game.replay(|s, pos| {
            out.push((pos.sfen(), s.mv));
            Ok::<(), std::convert::Infallible>(())
        });
        out
    }

    /// The replay gives the position before each sample's move, whose side
    /// and move number the sample holds; an illegal move is refused with
    /// its ply, in the middle of the game and as its last.
    #[test]
    fn samples_replay_to_each_position_and_refuse_an_illegal_move() {
        let game = Game::of(&record(&["7g7f", "3c3d", "8h2b+"])).unwrap();
        let sfens: Vec<String> = replayed(&game).into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            sfens,
            [
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
                "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            ]
        );
        let held: Vec<(u32, Color, u32)> = game
            .samples()
            .iter()
            .map(|s| (s.ply, s.side, s.move_number))
            .collect();
        assert_eq!(
            held,
            [
                (0, Color::Black, 1),
                (1, Color::White, 2),
                (2, Color::Black, 3)
            ]
        );
        assert_eq!(game.missing, 3);
        // A record as read gives the same without checking again.
        let read = crate::read::read_text(
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
            crate::read::Format::Usi,
        )
        .unwrap()
        .remove(0);
        let (checked, mut trusted) = (Game::of(&read).unwrap(), Game::of_read(&read).unwrap());
        assert_eq!(trusted.samples.len(), 5);
        assert_eq!(trusted.samples, checked.samples);
        assert_eq!(replayed(&trusted), replayed(&checked));
        // Samples dropped from the middle still lead to the ones after.
        let all = replayed(&trusted);
        trusted.samples.retain(|s| s.ply % 2 == 0);
        let kept: Vec<(String, Move)> = all.into_iter().step_by(2).collect();
        assert_eq!(replayed(&trusted), kept);
        for (moves, ply) in [
            (&["7g7f", "5a5c", "2g2f"][..], 2),
            (&["7g7f", "3c3d", "7f7e", "5a5c"][..], 4),
        ] {
            match samples(&record(moves)) {
                Err(TrainingError::Record(RecordError::IllegalMove { ply: at, mv, .. })) => {
                    assert_eq!(
                        (at, mv.to_string()),
                        (ply, moves[ply as usize - 1].to_string())
                    );
                }
                other => panic!("{moves:?}: {other:?}"),
            }
        }
    }
}
