//! Opening books in YaneuraOu's text format ("DB2016"): positions, each
//! with the moves played from it, counted.
//!
//! * [`db2016`] reads and writes the text;
//! * [`check`] holds the rules a book read must keep, and reads a whole
//!   book mending what it can, saying what it did;
//! * [`build`] counts the mainline positions and moves of records into a
//!   book, optionally flip-folded (black-to-move positions only: a
//!   white-to-move position and its move are rotated 180° first);
//! * [`runs`] sorts more than memory holds, in runs on disk;
//! * [`sort`] writes a sorted, merged, canonical copy of a book, in
//!   bounded memory;
//! * [`query`] finds a position's moves, looking up its rotation when the
//!   position itself is absent and rotating the moves back, as YaneuraOu's
//!   FlippedBook does — in a book in memory, or by binary search in a
//!   sorted book file without reading it whole;
//! * [`apery`] reads and writes Apery's binary books (`.bin`), keyed by
//!   Apery's position hash;
//! * [`ybb`] reads, writes and searches YaneuraOu's binary book (`.ybb`);
//! * [`file`] reads, writes and searches a book in any of these formats;
//! * [`peta_shock`] backs the values of a book's leaves up to its root by
//!   min-max over the book's graph, as YaneuraOu's `makebook peta_shock`,
//!   and writes the result as the engine writes it;
//! * [`gnu_sort`] is the engine's sort, so that equal moves come out in
//!   its order;
//! * [`mine`] digs a book with USI engines: a breadth-first walk from start
//!   lines, each new position searched and its candidates stored.

pub mod apery;
pub mod build;
pub mod check;
pub mod convert;
pub mod db2016;
pub mod file;
pub mod gnu_sort;
mod merge;
pub mod mine;
pub mod peta_shock;
pub mod query;
pub mod runs;
pub mod sort;
pub mod ybb;

use std::collections::BTreeMap;

/// A move of a book position: the move, the expected reply (`None`:
/// `none`), its value from the mover's view, the search depth and how many
/// times it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in USI.
    pub mv: String,
    /// The expected reply, in USI.
    pub ponder: Option<String>,
    /// The value, from the view of the player making the move.
    pub value: i32,
    /// The depth of the search that gave the value (0 for counted games).
    pub depth: u32,
    /// How many times it was played.
    pub count: u64,
}

/// A position's entry: the smallest ply it was seen at, and its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The ply (SFEN move number) written with the position.
    pub ply: u32,
    /// The moves, most played first (then by value).
    pub moves: Vec<BookMove>,
}

/// A book: entries by their position's SFEN without its move number
/// (board, side to move, hands), in byte order, as the file is sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// The entries.
    pub entries: BTreeMap<String, Entry>,
}

impl BookMove {
    /// The move and its ponder rotated 180°, for the rotated position.
    pub fn rotated(self) -> BookMove {
        let flip = |usi: &str| {
            crate::Move::from_usi(usi).map_or(usi.to_string(), |m| m.flip().to_string())
        };
        BookMove {
            mv: flip(&self.mv),
            ponder: self.ponder.as_deref().map(flip),
            ..self
        }
    }
}

/// Lines saying how many of each thing there were, for the counts that are
/// not 0: `3 counts left out`.
pub fn counted<N: std::fmt::Display + PartialEq + Default>(said: &[(N, &str)]) -> Vec<String> {
    said.iter()
        .filter(|(n, _)| *n != N::default())
        .map(|(n, what)| format!("{n} {what}"))
        .collect()
}

/// A position's key in a book: its SFEN without the move number.
pub fn key(pos: &crate::Position) -> String {
    pos.sfen_key()
}

impl Entry {
    /// Puts the moves in the file's order: count descending, then value
    /// descending (then the move's text, so that the order is total).
    pub fn sort(&mut self) {
        self.moves.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(b.value.cmp(&a.value))
                .then(a.mv.cmp(&b.mv))
        });
    }
}

impl Book {
    /// Folds every white-to-move position into its rotation (180°,
    /// colours swapped), its moves rotated and merged as [`Book::merge`]
    /// merges them, so that the book holds black-to-move positions only,
    /// as YaneuraOu's FlippedBook reads them. Says how many positions were
    /// rotated, and how many counts were held at the largest count.
    pub fn fold_flips(&mut self) -> (usize, usize) {
        let white: Vec<String> = self
            .entries
            .keys()
            .filter(|k| k.contains(" w "))
            .cloned()
            .collect();
        let mut rotated = Book::default();
        for k in &white {
            let entry = self.entries.remove(k).expect("a key just listed");
            let Ok(pos) = crate::Position::from_sfen(&format!("{k} 1")) else {
                self.entries.insert(k.clone(), entry);
                continue;
            };
            let moves = entry.moves.into_iter().map(BookMove::rotated).collect();
            rotated.entries.insert(
                key(&pos.flip()),
                Entry {
                    ply: entry.ply,
                    moves,
                },
            );
        }
        let folded = rotated.entries.len();
        (folded, self.merge(rotated))
    }

    /// Gives ply 1 to every position that has none (ply 0 is never
    /// written); says how many there were.
    pub fn give_plies(&mut self) -> usize {
        self.entries
            .values_mut()
            .filter(|e| e.ply == 0)
            .fold(0, |n, e| {
                e.ply = 1;
                n + 1
            })
    }

    /// Adds `other`'s entries: counts of the same move added (held at the
    /// largest count rather than wrapped), the smaller ply kept (a ply of 0,
    /// none written, gives way to the other's), the value of the move
    /// played more often kept (the first book's on a tie). Says how many
    /// counts were held.
    pub fn merge(&mut self, other: Book) -> usize {
        let mut held = 0;
        for (key, entry) in other.entries {
            let mine = self.entries.entry(key).or_insert_with(|| Entry {
                ply: entry.ply,
                moves: Vec::new(),
            });
            mine.ply = check::min_ply(mine.ply, entry.ply);
            for mv in entry.moves {
                held += usize::from(check::add_move(mine, mv));
            }
            mine.sort();
        }
        held
    }
}
