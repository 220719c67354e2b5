//! `train check`: every record of a training file decoded, as reading it
//! would: the packed position legal (both kings, piece counts, no pawn
//! on a last rank, …), the move named in it legal there, the result code
//! one the format defines, and the file made of whole records. Each fault
//! is named by the record's index and the byte offset of the field at
//! fault ([`crate::training::read::ReadError`]).
//!
//! A PackedSfenValue file's moves are read both ways they are found
//! written ([`crate::training::move16`]): YaneuraOu's Move16, the
//! format's own, and cshogi's move16 (Apery's layout), which scripts that
//! write PackedSfenValue with cshogi's move numbers leave. Most moves read
//! the same both ways (no promotion, no drop); a promotion or a drop
//! tells them apart, being legal one way only. The file's convention is
//! the one its moves are legal in ([`Convention`]); a file with moves of
//! both is mixed, a fault of the file. A move legal neither way is a
//! fault, said as the convention the file seemed to use so far reads it.

use super::{Fault, Faults};
use crate::training::move16::Layout;
use crate::training::read::{Entry, ReadErrorKind, Records};
use crate::training::Data;
use std::path::Path;

/// Which 16-bit move layout a PackedSfenValue file's moves are legal in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// YaneuraOu's Move16 (the format's own): some moves legal only so,
    /// none only as cshogi's.
    YaneuraOu,
    /// cshogi's move16 (Apery's layout): some moves legal only so, none
    /// only as YaneuraOu's.
    Cshogi,
    /// Moves of both.
    Mixed,
    /// Every move legal reads the same both ways (or there is none).
    Unknown,
}

/// How a PackedSfenValue file's moves read in each layout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layouts {
    /// Moves legal as YaneuraOu's Move16 and not as cshogi's.
    pub yaneuraou_only: u64,
    /// Moves legal as cshogi's move16 and not as YaneuraOu's.
    pub cshogi_only: u64,
    /// Moves legal both ways (the same move, or two legal ones).
    pub both: u64,
    /// The first entry legal as YaneuraOu's only.
    pub first_yaneuraou: Option<usize>,
    /// The first entry legal as cshogi's only.
    pub first_cshogi: Option<usize>,
}

impl Layouts {
    /// The file's convention.
    pub fn convention(&self) -> Convention {
        match (self.yaneuraou_only > 0, self.cshogi_only > 0) {
            (true, false) => Convention::YaneuraOu,
            (false, true) => Convention::Cshogi,
            (true, true) => Convention::Mixed,
            (false, false) => Convention::Unknown,
        }
    }

    /// The layout the moves seen so far are mostly legal in.
    fn leaning(&self) -> Layout {
        if self.cshogi_only > self.yaneuraou_only {
            Layout::Apery
        } else {
            Layout::YaneuraOu
        }
    }

    /// The convention said in words, with its counts.
    pub fn describe(&self) -> String {
        let name = match self.convention() {
            Convention::YaneuraOu => "YaneuraOu's",
            Convention::Cshogi => "cshogi's (Apery's layout)",
            Convention::Mixed => "mixed",
            Convention::Unknown => "cannot tell",
        };
        let mut text = format!(
            "Move16 {name}: {} moves legal only as YaneuraOu's, {} only as cshogi's, {} either way",
            self.yaneuraou_only, self.cshogi_only, self.both
        );
        if self.convention() == Convention::Mixed {
            text.push_str(&format!(
                " (first YaneuraOu's: entry {}, first cshogi's: entry {})",
                self.first_yaneuraou.unwrap_or(0),
                self.first_cshogi.unwrap_or(0)
            ));
        }
        text
    }
}

/// What `check` found in a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Records read (whole ones, good or not).
    pub records: u64,
    /// Faults found (each also given to the caller).
    pub faults: u64,
    /// For a PackedSfenValue file, how its moves read in each layout.
    pub layouts: Option<Layouts>,
}

impl Checked {
    /// The line the command ends a file's report with: its records and
    /// faults, and for PackedSfenValue its Move16 convention.
    pub fn summary(&self, path: &Path) -> String {
        let mut text = format!(
            "{}: {} records, {} faults",
            path.display(),
            self.records,
            self.faults
        );
        if let Some(layouts) = &self.layouts {
            text.push_str(&format!("; {}", layouts.describe()));
        }
        text
    }

    /// Whether the file is sound: no fault, and not of mixed moves.
    pub fn sound(&self) -> bool {
        self.faults == 0
            && self
                .layouts
                .as_ref()
                .is_none_or(|l| l.convention() != Convention::Mixed)
    }
}

/// How one PackedSfenValue entry's move reads.
enum Reading {
    YaneuraOu,
    Cshogi,
    Both,
}

/// Whether a fault is the move's (the fields before it read).
fn is_move_fault(kind: &ReadErrorKind) -> bool {
    matches!(
        kind,
        ReadErrorKind::Move { .. } | ReadErrorKind::Illegal { .. }
    )
}

/// Checks `path` as `data`; each fault goes to `faults` as it is found.
/// The error is a file that cannot be opened.
pub fn check(path: &Path, data: Data, faults: Faults<'_>) -> Result<Checked, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(check_reader(file, path, data, faults))
}

/// [`check`] of the bytes `reader` gives, named `path` in faults.
pub fn check_reader(
    reader: impl std::io::Read,
    path: &Path,
    data: Data,
    faults: Faults<'_>,
) -> Checked {
    let mut checked = Checked::default();
    let mut layouts = Layouts::default();
    let mut records = Records::new(reader, data);
    let mut index = 0usize;
    loop {
        let next = match data {
            Data::Hcpe => records.next_with(|b| Entry::check(b, data, Entry::layout(data))),
            Data::Hcpe3 => records.next().map(|r| r.map(|_| ())),
            Data::Psv => records
                .next_with(|b| {
                    let yaneuraou = Entry::check(b, data, Layout::YaneuraOu);
                    let cshogi = || Entry::check(b, data, Layout::Apery);
                    match yaneuraou {
                        Ok(_) if cshogi().is_ok() => Ok(Reading::Both),
                        Ok(_) => Ok(Reading::YaneuraOu),
                        Err(f) if is_move_fault(f.kind()) => match cshogi() {
                            Ok(_) => Ok(Reading::Cshogi),
                            Err(g) if layouts.leaning() == Layout::Apery => Err(g),
                            Err(_) => Err(f),
                        },
                        Err(f) => Err(f),
                    }
                })
                .map(|r| {
                    r.map(|reading| match reading {
                        Reading::Both => layouts.both += 1,
                        Reading::YaneuraOu => {
                            layouts.yaneuraou_only += 1;
                            layouts.first_yaneuraou.get_or_insert(index);
                        }
                        Reading::Cshogi => {
                            layouts.cshogi_only += 1;
                            layouts.first_cshogi.get_or_insert(index);
                        }
                    })
                }),
        };
        let Some(result) = next else { break };
        index += 1;
        if let Err(error) = result {
            // A file cut short is a fault, not a record.
            if !matches!(
                error.kind,
                ReadErrorKind::Truncated { .. } | ReadErrorKind::Io(_)
            ) {
                checked.records += 1;
            }
            checked.faults += 1;
            faults(Fault {
                path: path.to_path_buf(),
                error,
            });
        } else {
            checked.records += 1;
        }
    }
    if data == Data::Psv {
        checked.layouts = Some(layouts);
    }
    checked
}
