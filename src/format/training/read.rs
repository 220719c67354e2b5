//! Training files read back as records, so that they can be inspected and
//! converted like any game: HCPE and PackedSfenValue give one record per
//! entry, hcpe3 one per game block.
//!
//! What each stored field becomes:
//!
//! * The packed position: the record's start ([`packed::unpack`]). HCPE
//!   and hcpe3 store no move number, so the start is move 1; a
//!   PackedSfenValue's `gamePly` is the start's move number.
//! * The move (HCPE's `bestMove16` and hcpe3's moves in Apery's move16, a
//!   PackedSfenValue's `move` in YaneuraOu's Move16): played from the
//!   start; a code that names no move there ([`move16::decode`]) or names an
//!   illegal one is an error.
//! * The evaluation (from the side to move, as stored): the comment
//!   `* <score>` on the move, black's view (the side to move's score,
//!   negated when white is to move) — the form CSA's `'**` lines are read
//!   into and [`super::eval`] reads, so writing the record back as HCPE or
//!   PackedSfenValue stores the same score. Every move gets one, 0 included.
//! * The result, as the ending after the last move: a winner (HCPE
//!   `gameResult` 1 or 2, hcpe3's winner bits, PackedSfenValue's
//!   `game_result` ±1 from the side to move) is an ending of kind
//!   [`EndingKind::Other`] with that winner and the text `Black won` or
//!   `White won`, unless a flag says more; no winner is a
//!   [`EndingKind::Draw`]. HCPE's byte is read as dlshogi's bit field (bits
//!   0–1 the winner, 4 repetition, 8 entering-king win, 16 max moves), which
//!   plain HCPE's 0, 1 and 2 are part of: with no winner, repetition is
//!   [`EndingKind::Repetition`] and max moves [`EndingKind::MaxMoves`]; an
//!   entering-king win by the player to move at the end is
//!   [`EndingKind::EnteringKing`], a repetition won by the player to move
//!   [`EndingKind::PerpetualCheck`]. The text names the winner and the
//!   flags (`White won, entering king`).
//! * hcpe3's opponent byte: the header `opponent` with its number, when it
//!   is not 0 (self-play).
//! * hcpe3's candidates (move and visit count): when they are anything but
//!   the played move alone, the move's comment `candidates 7g7f:120
//!   2g2f:30` (USI move, colon, visits, in stored order); no candidate at
//!   all (dlshogi's "do not train on this move") is `candidates: none`.
//! * The pad bytes are not read.
//!
//! Errors name the entry (or hcpe3 game, counted from 0) and the byte
//! offset in the file of the field at fault. A bad entry is an error in
//! its place and the entries after it still read; bytes after the last
//! whole entry (or a game block cut short) are a last error, after the
//! records of the whole entries before them.

use super::move16::{self, DecodeError, Layout};
use super::packed::{self, Dialect, Packer, UnpackError};
use super::{hcpe, psv};
use crate::position::IllegalMove;
use crate::record::{Ending, EndingKind, Header, NodeId, Record};
use crate::{Color, Move, Position};
use std::fmt;
use std::io::Read;

/// What a [`ReadError`] counts: entries of a fixed size, or hcpe3's game
/// blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// An HCPE or PackedSfenValue entry.
    Entry,
    /// An hcpe3 game block.
    Game,
}

/// A training file's fault, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Whether `index` counts entries or games.
    pub unit: Unit,
    /// Which entry or game, counted from 0.
    pub index: usize,
    /// The byte offset in the file of the field at fault.
    pub offset: usize,
    /// In an hcpe3 game, the move concerned (1 for the first).
    pub ply: Option<u32>,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

/// What is wrong with a training entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The packed position does not read.
    Position(UnpackError),
    /// A move code names no move in its position.
    Move {
        /// The code as stored.
        code: u16,
        /// Why it names none.
        error: DecodeError,
    },
    /// A move code names a move the rules forbid there.
    Illegal {
        /// The move named.
        mv: Move,
        /// Which rule it breaks.
        reason: IllegalMove,
    },
    /// A result byte holds a value the format does not define.
    Result(i16),
    /// The file could not be read on (the bytes before were): the
    /// system's reason.
    Io(String),
    /// The file ends inside an entry or a game block.
    Truncated {
        /// How many bytes are left from the entry's or game's start.
        left: usize,
        /// How many a whole entry or game needs (for a game, as far as its
        /// header and move counts tell).
        needed: usize,
    },
}

impl fmt::Display for ReadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadErrorKind::Position(e) => write!(f, "the packed position: {e}"),
            ReadErrorKind::Move { code, error } => write!(f, "move code {code:#06x}: {error}"),
            ReadErrorKind::Illegal { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
            ReadErrorKind::Result(value) => write!(f, "the result {value} means nothing"),
            ReadErrorKind::Io(e) => write!(f, "cannot read on: {e}"),
            ReadErrorKind::Truncated { left, needed } => write!(
                f,
                "the file ends {left} bytes in, {needed} bytes short of a whole one",
                needed = needed - left
            ),
        }
    }
}

impl ReadError {
    /// Whether the entry is well formed but names a move the rules forbid.
    pub fn is_illegal(&self) -> bool {
        matches!(self.kind, ReadErrorKind::Illegal { .. })
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.unit {
            Unit::Entry => "entry",
            Unit::Game => "game",
        };
        write!(f, "{unit} {}", self.index)?;
        if let Some(ply) = self.ply {
            write!(f, ", move {ply}")?;
        }
        write!(f, " (byte {}): {}", self.offset, self.kind)
    }
}

impl std::error::Error for ReadError {}

/// A fault at `offset` (from the start of the entry or game), before the
/// entry's place is known.
#[derive(Debug)]
pub(crate) struct Fault {
    offset: usize,
    ply: Option<u32>,
    kind: ReadErrorKind,
}

impl Fault {
    fn at(offset: usize, kind: ReadErrorKind) -> Fault {
        Fault {
            offset,
            ply: None,
            kind,
        }
    }

    /// What is wrong.
    pub(crate) fn kind(&self) -> &ReadErrorKind {
        &self.kind
    }

    pub(crate) fn place(self, unit: Unit, index: usize, start: usize) -> ReadError {
        ReadError {
            unit,
            index,
            offset: start + self.offset,
            ply: self.ply,
            kind: self.kind,
        }
    }
}

/// The records of an HCPE file (38 bytes an entry), one per entry, in
/// order; see the module documentation for what each field becomes.
pub fn hcpe(bytes: &[u8]) -> impl Iterator<Item = Result<Record, ReadError>> + '_ {
    Records::new(bytes, super::Data::Hcpe)
}

/// The records of a PackedSfenValue file (40 bytes an entry), one per
/// entry, in order; see the module documentation for what each field
/// becomes.
pub fn psv(bytes: &[u8]) -> impl Iterator<Item = Result<Record, ReadError>> + '_ {
    Records::new(bytes, super::Data::Psv)
}

/// The records of an hcpe3 file, one per game block, in order; see the
/// module documentation for what each field becomes. A game whose moves do
/// not decode is an error and the next game still reads; a block cut short
/// by the end of the file is the last error.
pub fn hcpe3(bytes: &[u8]) -> impl Iterator<Item = Result<Record, ReadError>> + '_ {
    Records::new(bytes, super::Data::Hcpe3)
}

/// One HCPE or PackedSfenValue entry's fields, each read by the rules of
/// the module documentation: what its record is made of, and what the
/// direct rewriting of entries ([`super::recode`]) writes from. The
/// position is read into the [`Sequel`] the entry is read with, where it
/// stays: the entry borrows it.
#[derive(Clone, Debug)]
pub(crate) struct Entry<'p> {
    /// The stored position, with the stored move number (PackedSfenValue)
    /// or move 1.
    pub position: &'p Position,
    /// The stored move, legal in the position.
    pub mv: Move,
    /// The stored evaluation, from the side to move.
    pub eval: i16,
    /// Who won, if anyone.
    pub winner: Option<Color>,
    /// dlshogi's flags beside the winner (HCPE; 0 in PackedSfenValue).
    pub flags: u8,
    /// The position packed in the dialect [`Entry::read_repacked`] was
    /// asked for, as [`packed::pack`] packs it; `None` from the other
    /// readers.
    pub repacked: Option<[u8; 32]>,
}

impl<'p> Entry<'p> {
    /// Whether one whole entry of `data` (HCPE: 38 bytes, PackedSfenValue:
    /// 40) reads, its move read in `layout`: the first fault found is the
    /// error, in the order the fields are read: HCPE's position, move,
    /// result; PackedSfenValue's position, result, move.
    pub(crate) fn check(entry: &[u8], data: super::Data, layout: Layout) -> Result<(), Fault> {
        Entry::read_repacked(entry, data, layout, None, &mut Sequel::default()).map(|_| ())
    }

    /// The move layout `data` stores its moves in: YaneuraOu's for
    /// PackedSfenValue, Apery's for HCPE.
    pub(crate) fn layout(data: super::Data) -> Layout {
        match data {
            super::Data::Psv => Layout::YaneuraOu,
            _ => Layout::Apery,
        }
    }

    /// The fields of one whole entry of `data`, read as [`Entry::check`]
    /// says, that also packs the position in `repack`'s dialect, if any,
    /// while reading it ([`Entry::repacked`]): what an entry rewritten as
    /// training data stores. The position is read into `sequel`, which
    /// holds what the entry before left (see [`Sequel`]).
    #[inline(always)]
    pub(crate) fn read_repacked(
        entry: &[u8],
        data: super::Data,
        layout: Layout,
        repack: Option<Dialect>,
        sequel: &'p mut Sequel,
    ) -> Result<Entry<'p>, Fault> {
        let guess = sequel.step();
        let Sequel {
            position,
            pending,
            packer,
            packed,
        } = sequel;
        let read = Entry::read_after(entry, data, layout, repack, guess, position, packer, packed);
        *pending = read.as_ref().ok().map(|e| e.mv);
        read
    }

    /// [`Entry::read_repacked`] into `position`, which holds the position
    /// the entry before led to as `guess` says; `packed` is set when the
    /// guess held (see [`Sequel`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn read_after(
        entry: &[u8],
        data: super::Data,
        layout: Layout,
        repack: Option<Dialect>,
        guess: Guess,
        position: &'p mut Position,
        packer: &mut Option<Packer>,
        packed: &mut bool,
    ) -> Result<Entry<'p>, Fault> {
        let code = u16::from_le_bytes([entry[34], entry[35]]);
        let eval = i16::from_le_bytes([entry[32], entry[33]]);
        let mv = |pos: &Position, layout| {
            legal_move(pos, code, layout).map_err(|kind| Fault::at(34, kind))
        };
        // The position, read as `guess` says, in `dialect`, with `ply`.
        let mut read = |dialect, ply, position: &mut Position| {
            self::position(entry, dialect, ply, repack, guess, position, packer, packed)
        };
        if data == super::Data::Psv {
            let ply = u16::from_le_bytes([entry[36], entry[37]]);
            let repacked = read(Dialect::PackedSfen, Some(u32::from(ply)), position)?;
            let winner = match entry[38] as i8 {
                0 => None,
                1 => Some(position.side_to_move()),
                -1 => Some(!position.side_to_move()),
                other => return Err(Fault::at(38, ReadErrorKind::Result(i16::from(other)))),
            };
            let mv = mv(position, layout)?;
            return Ok(Entry {
                position,
                mv,
                eval,
                winner,
                flags: 0,
                repacked,
            });
        }
        let repacked = read(Dialect::Hcp, None, position)?;
        let mv = mv(position, layout)?;
        let (winner, flags) = result_bits(entry[36])
            .ok_or_else(|| Fault::at(36, ReadErrorKind::Result(i16::from(entry[36]))))?;
        Ok(Entry {
            position,
            mv,
            eval,
            winner,
            flags,
            repacked,
        })
    }

    /// Who is to move after the entry's move: the player an ending is
    /// told for.
    pub(crate) fn to_move_at_end(&self) -> Color {
        !self.position.side_to_move()
    }

    /// The kind of ending the result stands for.
    pub(crate) fn ending_kind(&self) -> EndingKind {
        ending_kind(self.winner, self.flags, self.to_move_at_end())
    }

    /// The entry's record: its start, its move with the evaluation as its
    /// comment, and the result as the ending after it.
    fn record(self) -> Record {
        let mut record = start_record(self.position);
        let mover = self.position.side_to_move();
        let node = record.tree.push(NodeId::ROOT, self.mv);
        let node = record.tree.node_mut(node);
        node.notes_mut()
            .comments
            .push(eval_comment(self.eval, mover));
        node.set_ending(ending(self.winner, self.flags, !mover));
        record
    }
}

/// The record of one block of `data`: an HCPE or PackedSfenValue entry,
/// or an hcpe3 game.
pub(crate) fn record(block: &[u8], data: super::Data) -> Result<Record, Fault> {
    match data {
        super::Data::Hcpe3 => game_record(block),
        _ => {
            let layout = Entry::layout(data);
            Entry::read_repacked(block, data, layout, None, &mut Sequel::default())
                .map(Entry::record)
        }
    }
}

/// How many bytes a [`Records`] asks its reader for at a time.
const CHUNK: usize = 64 * 1024;

/// The records of a training file read from any [`Read`] a chunk at a
/// time: each entry (or hcpe3 game block) is made a record when it is
/// whole in the buffer and the bytes before it are dropped, so memory
/// holds a chunk and the largest block, whatever the file's size. The
/// records and errors are those of the whole file read at once.
pub struct Records<R> {
    reader: R,
    data: super::Data,
    /// Bytes read and not yet taken: `buffer[taken..]`.
    buffer: Vec<u8>,
    taken: usize,
    /// The file offset of `buffer[taken]`.
    offset: usize,
    /// The next entry's or game's index.
    index: usize,
    /// The reader has no more bytes.
    eof: bool,
    /// The reader failed after giving the bytes the last fill needed.
    failed: Option<std::io::Error>,
    /// A last error was given, or the file ended.
    done: bool,
}

impl<R: Read> Records<R> {
    /// Reads `data` from `reader`.
    pub fn new(reader: R, data: super::Data) -> Records<R> {
        Records {
            reader,
            data,
            buffer: Vec::new(),
            taken: 0,
            offset: 0,
            index: 0,
            eof: false,
            failed: None,
            done: false,
        }
    }

    /// The bytes not yet taken.
    fn available(&self) -> &[u8] {
        &self.buffer[self.taken..]
    }

    /// Reads until `want` bytes are available or the reader ends.
    fn fill(&mut self, want: usize) -> std::io::Result<()> {
        if self.available().len() >= want || self.eof {
            return Ok(());
        }
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.buffer.drain(..self.taken);
        self.taken = 0;
        while self.buffer.len() < want && !self.eof {
            let have = self.buffer.len();
            let room = (want - have).max(CHUNK);
            // Read into the buffer's spare room as it is, not zeroed first: a
            // small file costs what it holds, not a chunk.
            let n = match self
                .reader
                .by_ref()
                .take(room as u64)
                .read_to_end(&mut self.buffer)
            {
                Ok(n) => n,
                // What was read before the failure is kept. When it is
                // enough, the failure waits for the next fill that needs more.
                Err(e) if self.buffer.len() >= want => {
                    self.failed = Some(e);
                    break;
                }
                Err(e) => return Err(e),
            };
            // Fewer bytes than asked for: the reader has ended.
            self.eof = n < room;
        }
        Ok(())
    }

    /// Takes `len` available bytes.
    fn take(&mut self, len: usize) {
        self.taken += len;
        self.offset += len;
        self.index += 1;
    }

    /// The unit this reader counts.
    fn unit(&self) -> Unit {
        if self.data == super::Data::Hcpe3 {
            Unit::Game
        } else {
            Unit::Entry
        }
    }

    /// The length of the next entry or game, once it is whole in the
    /// buffer; `Err` with the bytes needed when the file ends first.
    fn next_len(&mut self) -> std::io::Result<Result<usize, usize>> {
        let size = match entry_size(self.data) {
            Some(size) => size,
            None => loop {
                // A block's counts tell its length as far as they are
                // read: ask for that much until it is whole or the file
                // ends.
                match block_len(self.available()) {
                    Ok(len) => return Ok(Ok(len)),
                    Err(needed) if self.eof => return Ok(Err(needed)),
                    Err(needed) => self.fill(needed)?,
                }
            },
        };
        self.fill(size)?;
        Ok(if self.available().len() >= size {
            Ok(size)
        } else {
            Err(size)
        })
    }
}

/// The size of every entry of `data`; `None` for hcpe3, whose game blocks
/// tell their own length.
fn entry_size(data: super::Data) -> Option<usize> {
    match data {
        super::Data::Hcpe => Some(hcpe::SIZE),
        super::Data::Psv => Some(psv::SIZE),
        super::Data::Hcpe3 => None,
    }
}

impl<R: Read> Records<R> {
    /// The next entry or game block made into a `T` by `make` (given the
    /// whole block), or the error at its place; `None` when the file has
    /// ended or a last error was given. The one framing of every reader
    /// of training files.
    pub(crate) fn next_with<T>(
        &mut self,
        make: impl FnOnce(&[u8]) -> Result<T, Fault>,
    ) -> Option<Result<T, ReadError>> {
        if self.done {
            return None;
        }
        let (unit, index, start) = (self.unit(), self.index, self.offset);
        // An entry of a fixed size already whole in the buffer: nothing to
        // fill.
        if let Some(len) = entry_size(self.data).filter(|&n| self.available().len() >= n) {
            let result = make(&self.buffer[self.taken..self.taken + len]);
            self.take(len);
            return Some(result.map_err(|f| f.place(unit, index, start)));
        }
        let fault = match self.fill(1).and_then(|()| self.next_len()) {
            Err(e) => Fault::at(self.available().len(), ReadErrorKind::Io(e.to_string())),
            Ok(_) if self.available().is_empty() => {
                self.done = true;
                return None;
            }
            Ok(Ok(len)) => {
                let result = make(&self.buffer[self.taken..self.taken + len]);
                self.take(len);
                return Some(result.map_err(|f| f.place(unit, index, start)));
            }
            Ok(Err(needed)) => Fault::at(
                0,
                ReadErrorKind::Truncated {
                    left: self.available().len(),
                    needed,
                },
            ),
        };
        self.done = true;
        Some(Err(fault.place(unit, index, start)))
    }
}

impl<R: Read> Iterator for Records<R> {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        let data = self.data;
        self.next_with(|block| record(block, data))
    }
}

/// Where entries' positions are read, one after another: after an entry,
/// the position its move leads to. Training data written from games holds
/// one entry per move, in order, so an entry most often holds just that
/// position, and it is already in place.
pub(crate) struct Sequel {
    /// The last entry's position (storage only when there is none).
    position: Position,
    /// The last entry's move, if it was read: played before the next
    /// entry is read.
    pending: Option<Move>,
    /// What checks the guesses, made at the first: it keeps the last
    /// position's board codes.
    packer: Option<Packer>,
    /// Whether the packer's last position is `position` (the last guess
    /// held): the next guess is then told the move between them.
    packed: bool,
}

impl Default for Sequel {
    fn default() -> Sequel {
        Sequel {
            position: Position::blank(),
            pending: None,
            packer: None,
            packed: false,
        }
    }
}

/// What the position a [`Sequel`] holds is for the next entry.
#[derive(Clone, Copy)]
enum Guess {
    /// Nothing: the entry is read from its bytes.
    None,
    /// Where the last entry's move led: checked against the entry's bytes.
    Led,
    /// The same, and the packer's last position is the one the move left
    /// (the packer is told the move).
    LedFromPacked(Move),
}

impl Sequel {
    /// Plays the last entry's move, if it was read: what the position now
    /// is.
    fn step(&mut self) -> Guess {
        let packed = std::mem::take(&mut self.packed);
        match self.pending.take() {
            Some(mv) => {
                self.position.play_unchecked(mv);
                if packed {
                    Guess::LedFromPacked(mv)
                } else {
                    Guess::Led
                }
            }
            None => Guess::None,
        }
    }
}

/// Reads the position packed in the first 32 bytes of `entry` into `out`,
/// with `ply` as its move number when the format stores one; when
/// `repack` names a dialect, gives that position packed in it
/// ([`packed::pack`]'s bytes, written while reading).
///
/// When `guess` says so, `out` holds a guess: the previous entry's sequel
/// ([`Sequel`]). If it packs to the same bytes, it is the position they
/// hold (packing reads back as itself), so it is kept, the bytes go
/// unread, and `packed` is set: the packer's last position is `out`.
#[allow(clippy::too_many_arguments)]
fn position(
    entry: &[u8],
    dialect: Dialect,
    ply: Option<u32>,
    repack: Option<Dialect>,
    guess: Guess,
    out: &mut Position,
    packer: &mut Option<Packer>,
    packed: &mut bool,
) -> Result<Option<[u8; 32]>, Fault> {
    let fault = |e| Fault::at(0, ReadErrorKind::Position(e));
    let bytes: &[u8; 32] = entry[..32]
        .try_into()
        .expect("an entry is 32 bytes and more");
    let move_number = ply.unwrap_or(1);
    let after = match guess {
        Guess::None => None,
        Guess::Led => Some(None),
        Guess::LedFromPacked(mv) => Some(Some(mv)),
    };
    if let Some(after) = after {
        // Checked, and packed in the other dialect when asked, in one walk.
        let (packer, after) = match packer {
            Some(p) if p.dialect() == dialect => (p, after),
            _ => (packer.insert(Packer::new(dialect)), None),
        };
        let repacked = match repack {
            Some(to) if to != dialect => packer.packs_to_then_other(out, bytes, after).map(Some),
            _ => packer
                .packs_to(out, bytes, after)
                .then_some(repack.map(|_| *bytes)),
        };
        if let Some(repacked) = repacked {
            out.set_move_number(move_number);
            *packed = true;
            return Ok(repacked);
        }
    }
    match repack {
        Some(to) => packed::repack(bytes, dialect, to, move_number, out).map(Some),
        None => packed::unpack_into(bytes, dialect, move_number, out).map(|()| None),
    }
    .map_err(fault)
}

/// A record starting at `pos`: the one place a training reader makes one,
/// with the named start it is.
fn start_record(pos: &Position) -> Record {
    let mut record = Record::new(pos.clone());
    record.handicap = pos.handicap();
    record
}

/// The move `code` names in `pos`, if legal there.
fn legal_move(pos: &Position, code: u16, layout: Layout) -> Result<Move, ReadErrorKind> {
    let mv =
        move16::decode(pos, code, layout).map_err(|error| ReadErrorKind::Move { code, error })?;
    pos.check_legal(mv)
        .map_err(|reason| ReadErrorKind::Illegal { mv, reason })?;
    Ok(mv)
}

/// Plays the move `code` names in `pos` and adds it to the record after
/// `at`; gives its node.
fn play(
    record: &mut Record,
    at: NodeId,
    pos: &mut Position,
    code: u16,
    layout: Layout,
) -> Result<NodeId, ReadErrorKind> {
    let mv = legal_move(pos, code, layout)?;
    pos.play_unchecked(mv);
    Ok(record.tree.push(at, mv))
}

/// The comment an evaluation from the mover's side becomes: `* <score>`,
/// black's view.
fn eval_comment(eval: i16, mover: Color) -> String {
    let black = match mover {
        Color::Black => i32::from(eval),
        Color::White => -i32::from(eval),
    };
    format!("* {black}")
}

/// dlshogi's result flags beside the winner bits.
const REPETITION: u8 = 4;
const ENTERING_KING: u8 = 8;
const MAX_MOVES: u8 = 16;

/// The winner and flags a result byte in dlshogi's bit field stands for;
/// `None` for winner bits 3 or a bit the field does not define.
fn result_bits(byte: u8) -> Option<(Option<Color>, u8)> {
    let winner = match byte & 3 {
        0 => None,
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => return None,
    };
    let flags = byte & !3;
    (flags & !(REPETITION | ENTERING_KING | MAX_MOVES) == 0).then_some((winner, flags))
}

/// The kind of ending for a winner and dlshogi's flags, with `to_move` the
/// player to move at the end (see the module documentation).
fn ending_kind(winner: Option<Color>, flags: u8, to_move: Color) -> EndingKind {
    match winner {
        None if flags & REPETITION != 0 => EndingKind::Repetition,
        None if flags & MAX_MOVES != 0 => EndingKind::MaxMoves,
        None => EndingKind::Draw,
        Some(w) if w == to_move && flags & ENTERING_KING != 0 => EndingKind::EnteringKing,
        Some(w) if w == to_move && flags & REPETITION != 0 => EndingKind::PerpetualCheck,
        Some(_) => EndingKind::Other,
    }
}

/// The ending for a winner and dlshogi's flags, with `to_move` the player to
/// move at the end: its kind ([`ending_kind`]) and a text naming the winner
/// and the flags.
fn ending(winner: Option<Color>, flags: u8, to_move: Color) -> Ending {
    let kind = ending_kind(winner, flags, to_move);
    let mut text = match winner {
        None => "draw".to_string(),
        Some(w) => format!("{w} won"),
    };
    for (flag, word) in [
        (REPETITION, "repetition"),
        (ENTERING_KING, "entering king"),
        (MAX_MOVES, "max moves"),
    ] {
        if flags & flag != 0 {
            text.push_str(", ");
            text.push_str(word);
        }
    }
    Ending {
        kind,
        winner,
        text,
        time: None,
        comments: Vec::new(),
        foul: None,
    }
}

/// The size of an hcpe3 game header: the start's HCP, u16 move count, u8
/// result, u8 opponent.
const HEADER: usize = 36;
/// The fixed part of an hcpe3 move: u16 move, i16 eval, u16 candidate
/// count.
const MOVE: usize = 6;
/// An hcpe3 candidate: u16 move, u16 visits.
const CANDIDATE: usize = 4;

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// The length of the hcpe3 game block `bytes` begins with, from its move
/// and candidate counts; `Err` with the bytes needed as far as they tell
/// when the block runs past the end.
pub(crate) fn block_len(bytes: &[u8]) -> Result<usize, usize> {
    let mut len = HEADER;
    if bytes.len() < len {
        return Err(len);
    }
    for _ in 0..u16_at(bytes, 32) {
        if bytes.len() < len + MOVE {
            return Err(len + MOVE);
        }
        len += MOVE + CANDIDATE * usize::from(u16_at(bytes, len + 4));
        if bytes.len() < len {
            return Err(len);
        }
    }
    Ok(len)
}

/// The record of one whole hcpe3 game block.
fn game_record(block: &[u8]) -> Result<Record, Fault> {
    let mut pos = Position::blank();
    position(
        block,
        Dialect::Hcp,
        None,
        None,
        Guess::None,
        &mut pos,
        &mut None,
        &mut false,
    )?;
    let mut record = start_record(&pos);
    if block[35] != 0 {
        record.headers.push(Header {
            key: "opponent".to_string(),
            value: block[35].to_string(),
        });
    }
    let mut at = HEADER;
    let mut node = NodeId::ROOT;
    for ply in 1..=u32::from(u16_at(block, 32)) {
        let fault = |offset, kind| Fault {
            offset,
            ply: Some(ply),
            kind,
        };
        let code = u16_at(block, at);
        let eval = u16_at(block, at + 2) as i16;
        let count = usize::from(u16_at(block, at + 4));
        let mover = pos.side_to_move();
        let mut candidates = Vec::with_capacity(count);
        for i in 0..count {
            let c = at + MOVE + CANDIDATE * i;
            let mv = legal_move(&pos, u16_at(block, c), Layout::Apery).map_err(|k| fault(c, k))?;
            candidates.push((mv, u16_at(block, c + 2)));
        }
        node = play(&mut record, node, &mut pos, code, Layout::Apery).map_err(|k| fault(at, k))?;
        let comments = &mut record.tree.node_mut(node).notes_mut().comments;
        comments.push(eval_comment(eval, mover));
        let played = record.tree.node(node).mv;
        if let Some(text) = candidates_comment(&candidates, played) {
            record.tree.node_mut(node).notes_mut().comments.push(text);
        }
        at += MOVE + CANDIDATE * count;
    }
    let (winner, flags) = result_bits(block[34])
        .ok_or_else(|| Fault::at(34, ReadErrorKind::Result(i16::from(block[34]))))?;
    let ending = ending(winner, flags, pos.side_to_move());
    record.tree.node_mut(node).set_ending(ending);
    Ok(record)
}

/// The comment for a move's candidates, unless they are the played move
/// alone.
fn candidates_comment(candidates: &[(Move, u16)], played: Option<Move>) -> Option<String> {
    match candidates {
        [] => Some("candidates: none".to_string()),
        [(mv, _)] if Some(*mv) == played => None,
        _ => {
            let mut text = "candidates".to_string();
            for (mv, visits) in candidates {
                text.push_str(&format!(" {mv}:{visits}"));
            }
            Some(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::{Data, Game};

    /// Reading entries one after another, each following the last
    /// ([`Sequel`]), gives what reading each alone gives: the entries of
    /// random games in order (most taken from the position the move
    /// before led to), the same entries out of order, one entry twice
    /// with another move number, and entries with a bit flipped (other
    /// positions, and errors), as HCPE and PackedSfenValue, repacked to
    /// both dialects and not at all.
    #[test]
    fn entries_read_after_their_sequel_read_as_alone() {
        let mut rng = crate::test_util::rng::Rng::new(0x5e9);
        let mut games = vec![];
        for _ in 0..12 {
            let mut pos = Position::startpos();
            let mut game = vec![];
            for mv in crate::test_util::games::random_line(120, &mut rng) {
                game.push((pos.clone(), mv));
                pos.play(mv).unwrap();
            }
            games.push(game);
        }
        let mut taken = 0;
        for data in [Data::Hcpe, Data::Psv] {
            let mut entries: Vec<Vec<u8>> = vec![];
            for (pos, mv) in games.iter().flatten() {
                entries.push(match data {
                    Data::Hcpe => {
                        let packed = packed::pack(pos, Dialect::Hcp).unwrap();
                        hcpe::fill(packed, *mv, 12, 1).to_vec()
                    }
                    _ => {
                        let packed = packed::pack(pos, Dialect::PackedSfen).unwrap();
                        let (side, number) = (pos.side_to_move(), pos.move_number());
                        psv::fill(packed, side, number, *mv, -7, Some(Color::White)).to_vec()
                    }
                });
            }
            let mut stream = entries.clone();
            let mut shuffled = entries.clone();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, rng.next() as usize % (i + 1));
            }
            stream.extend(shuffled);
            for entry in &entries[..200] {
                let mut again = entry.clone();
                if data == Data::Psv {
                    again[36] ^= 3;
                }
                stream.push(entry.clone());
                stream.push(again);
                let mut spoiled = entry.clone();
                let bit = rng.next() as usize % (8 * spoiled.len());
                spoiled[bit / 8] ^= 1 << (bit % 8);
                stream.push(spoiled);
            }
            let layout = Entry::layout(data);
            for repack in [None, Some(Dialect::Hcp), Some(Dialect::PackedSfen)] {
                let mut sequel = Sequel::default();
                for entry in &stream {
                    let mut guess = sequel.pending.map(|mv| {
                        let mut next = sequel.position.clone();
                        next.play_unchecked(mv);
                        next
                    });
                    let got = Entry::read_repacked(entry, data, layout, repack, &mut sequel);
                    let mut fresh = Sequel::default();
                    let alone = Entry::read_repacked(entry, data, layout, repack, &mut fresh);
                    match (&got, &alone) {
                        (Ok(a), Ok(b)) => {
                            assert_eq!(a.position, b.position);
                            assert_eq!(a.position.move_number(), b.position.move_number());
                            assert_eq!(
                                (a.mv, a.eval, a.winner, a.flags, a.repacked),
                                (b.mv, b.eval, b.winner, b.flags, b.repacked)
                            );
                            if let Some(guess) = &mut guess {
                                guess.set_move_number(a.position.move_number());
                                taken += usize::from(guess == a.position);
                            }
                        }
                        (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
                        _ => panic!("{got:?} against {alone:?}"),
                    }
                }
            }
        }
        // Most entries in game order were the position guessed.
        assert!(taken > 2 * 3 * 12 * 100, "{taken}");
    }

    /// The framing the reader had before it read from a `Read`: the whole
    /// file in memory, cut into entries or game blocks. Kept here as the
    /// reference the chunked reader must agree with.
    fn whole_buffer(bytes: &[u8], data: Data) -> Vec<Result<Record, ReadError>> {
        let size = match data {
            Data::Hcpe => hcpe::SIZE,
            Data::Psv => psv::SIZE,
            Data::Hcpe3 => {
                let (mut at, mut index, mut out) = (0, 0, Vec::new());
                while at < bytes.len() {
                    let block = &bytes[at..];
                    let result = match block_len(block) {
                        Ok(len) => game_record(&block[..len]),
                        Err(needed) => Err(Fault::at(
                            0,
                            ReadErrorKind::Truncated {
                                left: block.len(),
                                needed,
                            },
                        )),
                    };
                    out.push(result.map_err(|f| f.place(Unit::Game, index, at)));
                    at += block_len(block).unwrap_or(block.len());
                    index += 1;
                }
                return out;
            }
        };
        bytes
            .chunks(size)
            .enumerate()
            .map(|(index, entry)| {
                let result = if entry.len() < size {
                    Err(Fault::at(
                        0,
                        ReadErrorKind::Truncated {
                            left: entry.len(),
                            needed: size,
                        },
                    ))
                } else {
                    record(entry, data)
                };
                result.map_err(|f| f.place(Unit::Entry, index, index * size))
            })
            .collect()
    }

    /// A reader that gives at most `step` bytes a call, so that entries
    /// and blocks straddle the reads.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn games() -> Vec<Game> {
        let csa = [
            "+7776FU\n'** 30\n-3334FU\n'** -20\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n",
            "+2726FU\n-8384FU\n+2625FU\n-8485FU\n%SENNICHITE\n",
        ];
        csa.iter()
            .map(|text| {
                Game::of(&crate::read::read_text(text, crate::Format::Csa).unwrap()[0]).unwrap()
            })
            .collect()
    }

    /// Good files, files cut at every length, and files with bytes
    /// spoiled here and there read into the same records and errors
    /// (entry, byte offset, kind) through the chunked reader, whatever
    /// the size of its reads, as through the whole-buffer framing.
    #[test]
    fn chunked_reading_gives_the_whole_buffer_answers() {
        for data in [Data::Hcpe, Data::Psv, Data::Hcpe3] {
            let mut file = Vec::new();
            for game in games() {
                file.extend(data.encode(&game).unwrap());
            }
            let mut cases = Vec::new();
            for cut in 0..=file.len() {
                cases.push(file[..cut].to_vec());
            }
            for at in (0..file.len()).step_by(7) {
                let mut spoiled = file.clone();
                spoiled[at] ^= 0xa5;
                cases.push(spoiled);
            }
            let mut errors = 0;
            for bytes in &cases {
                let want = whole_buffer(bytes, data);
                errors += want.iter().filter(|r| r.is_err()).count();
                assert_eq!(data.read(bytes), want, "{data:?} {}", bytes.len());
                for step in [1, 5, 38, 1000] {
                    let got: Vec<_> = data.records(Trickle { bytes, step }).collect();
                    assert_eq!(got, want, "{data:?} {} step {step}", bytes.len());
                }
            }
            assert!(errors > cases.len() / 2, "{data:?}: {errors} errors");
        }
    }

    /// A reader that fails is an error at the byte where it failed, after
    /// the records of the entries before it, and the last.
    #[test]
    fn a_failed_read_is_the_last_error() {
        struct Failing<'a>(&'a [u8]);
        impl std::io::Read for Failing<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0.is_empty() {
                    return Err(std::io::Error::other("disk on fire"));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let file = Data::Hcpe.encode(&games()[0]).unwrap();
        let cut = &file[..hcpe::SIZE * 2 + 5];
        let got: Vec<_> = Data::Hcpe.records(Failing(cut)).collect();
        assert_eq!(got.len(), 3);
        assert!(got[0].is_ok() && got[1].is_ok());
        let error = got[2].as_ref().unwrap_err();
        assert_eq!((error.index, error.offset), (2, hcpe::SIZE * 2 + 5));
        assert_eq!(error.kind, ReadErrorKind::Io("disk on fire".into()));
    }
}
