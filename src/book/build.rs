//! Counting records into a book: every mainline position in the chosen
//! plies and the move played from it (by the chosen side), with its
//! evaluation from the mover's view where the record gives one. With flip
//! folding, a white-to-move position and its move are rotated 180° first,
//! so that the book holds black-to-move positions only and a position
//! shares its entry with its mirror (YaneuraOu's FlippedBook looks them up
//! that way).

use super::{key, Book, BookMove, Entry};
use crate::record::{Record, RecordError};
use crate::training::eval;
use crate::Color;
use std::collections::HashMap;

/// Whose moves go into the book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// Both players'.
    #[default]
    Both,
    /// Black's (先手) only.
    Black,
    /// White's (後手) only.
    White,
}

/// What goes into the book.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Store black-to-move positions only, rotating the others.
    pub flip_fold: bool,
    /// The positions from this ply on (the SFEN move number: 1 is a game's
    /// first position).
    pub min_ply: u32,
    /// The positions up to this ply.
    pub max_ply: Option<u32>,
    /// Whose moves.
    pub side: Side,
}

/// A move's tally while counting.
#[derive(Default)]
struct Tally {
    count: u64,
    evals: i64,
    with_eval: u64,
}

/// Records counted so far.
#[derive(Default)]
pub struct Builder {
    options: Options,
    positions: HashMap<String, (u32, HashMap<String, Tally>)>,
}

impl Builder {
    /// An empty book to count into.
    pub fn new(options: Options) -> Builder {
        Builder {
            options,
            positions: HashMap::new(),
        }
    }

    /// Counts `record`'s mainline; a record whose moves do not replay is
    /// an error and counts nothing.
    pub fn add(&mut self, record: &Record) -> Result<(), RecordError> {
        let positions = record.positions()?;
        let o = &self.options;
        for (id, pos) in record.tree.mainline().zip(positions) {
            let Some(mv) = record.tree.node(id).mv else {
                continue;
            };
            let ply = pos.move_number();
            if ply < o.min_ply || o.max_ply.is_some_and(|max| ply > max) {
                continue;
            }
            let mover = pos.side_to_move();
            let wanted = match o.side {
                Side::Both => true,
                Side::Black => mover == Color::Black,
                Side::White => mover == Color::White,
            };
            if !wanted {
                continue;
            }
            let value = eval::mover_view(record, id, mover);
            let (pos, mv) = if o.flip_fold && mover == Color::White {
                (pos.flip(), mv.flip())
            } else {
                (pos, mv)
            };
            let (seen_ply, moves) = self
                .positions
                .entry(key(&pos))
                .or_insert_with(|| (ply, HashMap::new()));
            *seen_ply = (*seen_ply).min(ply);
            let tally = moves.entry(mv.to_string()).or_default();
            tally.count += 1;
            if let Some(v) = value {
                tally.evals += i64::from(v);
                tally.with_eval += 1;
            }
        }
        Ok(())
    }

    /// The book: moves played at least `min_count` times (positions left
    /// with none are dropped); a move's value is the mean of its
    /// evaluations (rounded toward zero), 0 without any; depth 0; no
    /// ponder.
    pub fn finish(self, min_count: u64) -> Book {
        let mut book = Book::default();
        for (key, (ply, moves)) in self.positions {
            let mut entry = Entry {
                ply,
                moves: moves
                    .into_iter()
                    .filter(|(_, t)| t.count >= min_count)
                    .map(|(mv, t)| BookMove {
                        mv,
                        ponder: None,
                        value: if t.with_eval == 0 {
                            0
                        } else {
                            (t.evals / t.with_eval as i64) as i32
                        },
                        depth: 0,
                        count: t.count,
                    })
                    .collect(),
            };
            if entry.moves.is_empty() {
                continue;
            }
            entry.sort();
            book.entries.insert(key, entry);
        }
        book
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_text, Format};

    fn records(usi: &str) -> Vec<Record> {
        read_text(usi, Format::Usi).unwrap()
    }

    #[test]
    fn counts_and_flip_folds() {
        let games = records(
            "position startpos moves 7g7f 3c3d 2g2f\nposition startpos moves 7g7f 8c8d\nposition startpos moves 2g2f\n",
        );
        let mut plain = Builder::new(Options::default());
        let mut folded = Builder::new(Options {
            flip_fold: true,
            ..Options::default()
        });
        for g in &games {
            plain.add(g).unwrap();
            folded.add(g).unwrap();
        }
        let plain = plain.finish(1);
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        let moves: Vec<(&str, u64)> = plain.entries[start]
            .moves
            .iter()
            .map(|m| (m.mv.as_str(), m.count))
            .collect();
        assert_eq!(moves, [("7g7f", 2), ("2g2f", 1)]);
        // After 7g7f, white to move: folded, it is stored rotated (a white
        // pawn on 3d, black to move), its replies 3c3d and 8c8d as 7g7f and
        // 2g2f.
        let folded = folded.finish(1);
        assert!(folded.entries.keys().all(|k| k.contains(" b ")));
        let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
        assert!(plain.entries.contains_key(after));
        assert!(!folded.entries.contains_key(after));
        let rotated = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        let moves: Vec<(&str, u64)> = folded.entries[rotated]
            .moves
            .iter()
            .map(|m| (m.mv.as_str(), m.count))
            .collect();
        assert_eq!(moves, [("2g2f", 1), ("7g7f", 1)]);
        assert_eq!(folded.entries[rotated].ply, 2);
    }
}
