//! The checks behind kifconv's fuzz targets, shared by every target in
//! `fuzz_targets/`. Each function takes arbitrary bytes and panics only when
//! kifconv breaks one of its promises:
//!
//! - a reader answers any bytes with records or an error, never a panic;
//! - CP932 read from its bytes gives what the same text gives read as
//!   UTF-8 (decoded whole first), and UTF-8 read from its bytes what it
//!   gives read as text;
//! - every record a reader returns replays legally from its start;
//! - every error renders (`path:line:col: error: …` and a caret);
//! - every writer's text reads back as the same start and mainline;
//! - the move generator and the single-move legality check agree.

use kifconv::decode::{decode, Encoding, EncodingChoice, ExtensionHint};
use kifconv::read::{read_bytes, read_text, Format};
use kifconv::record::{NodeId, Record};
use kifconv::write::{write_files_read, Options, OutputEncoding};
use kifconv::{Color, Hand, KingRule, Move, Piece, PieceKind, Position, Setup, Square, Target};
use std::path::Path;

/// `e` without what rightly differs between a CP932 file and its text in
/// UTF-8:
/// - the hint a NUL error may give that the bytes look like UTF-16. The
///   hint reads the raw bytes, where a NUL falls, and that moves when a
///   character before it takes another number of bytes;
/// - the encoding a binary-data error says the characters were read as;
/// - the size in bytes a blank-input error gives (an ideographic space is
///   two bytes in CP932 and three in UTF-8).
fn without_encoding_words(e: &kifconv::Error) -> kifconv::Error {
    let mut e = e.clone();
    if e.kind == kifconv::ErrorKind::NotARecord {
        if let Some(at) = e.message.find("a NUL character") {
            e.message.truncate(at + "a NUL character".len());
        }
        e.message = e
            .message
            .replace("read as Shift_JIS (CP932),", "read as UTF-8,");
        if let Some(at) = e.message.find("nothing but white space") {
            e.message.truncate(at + "nothing but white space".len());
        }
    }
    e
}

/// A file name whose extension matches the format, so the decoder gets the
/// same encoding hint a real file would give it.
fn path_for(format: Option<Format>) -> &'static Path {
    Path::new(match format {
        Some(Format::Kif) => "fuzz.kif",
        Some(Format::Ki2) => "fuzz.ki2",
        Some(Format::Csa) => "fuzz.csa",
        Some(Format::Usi) => "fuzz.usi",
        Some(Format::Western) => "fuzz.psn",
        Some(Format::Jkf) => "fuzz.jkf",
        // Sniffed, or a format added later: no extension to go by.
        _ => "fuzz",
    })
}

/// Reads `bytes` as `format` (`None`: sniff the content), renders every
/// error, and checks that every record replays legally from its start and
/// that, in CP932, the text decoded whole reads the same as UTF-8.
pub fn read(bytes: &[u8], format: Option<Format>) -> Vec<Record> {
    let path = path_for(format);
    let read = read_bytes(bytes, path, format, Default::default());
    let decoded = decode(bytes, EncodingChoice::Auto, ExtensionHint::from_path(path));
    if decoded.encoding == Encoding::Utf8 {
        let utf8 = EncodingChoice::Forced(Encoding::Utf8);
        let again = read_bytes(bytes, path, format, utf8);
        assert_eq!(
            format!("{read:?}"),
            format!("{again:?}"),
            "UTF-8 read from its bytes and as text read otherwise"
        );
    }
    if decoded.encoding == Encoding::Cp932 && decoded.malformed.is_empty() {
        let utf8 = EncodingChoice::Forced(Encoding::Utf8);
        let again = read_bytes(decoded.text.as_bytes(), path, format, utf8);
        let unlabelled = |read: &kifconv::read::Read| {
            let mut records = read.records.clone();
            for record in &mut records {
                record.encoding = None;
            }
            (records, read.errors.clone())
        };
        match (&read, &again) {
            (Ok(a), Ok(b)) => assert!(
                unlabelled(a) == unlabelled(b),
                "CP932 and its text in UTF-8 read otherwise"
            ),
            (a, b) => assert_eq!(
                a.as_ref().err().map(without_encoding_words),
                b.as_ref().err().map(without_encoding_words),
                "CP932 fails where its text in UTF-8 reads, or they fail otherwise"
            ),
        }
    }
    match read {
        Ok(read) => {
            for error in &read.errors {
                let _ = error.render("fuzz");
            }
            for record in &read.records {
                check_replays(record);
            }
            read.records
        }
        Err(error) => {
            let _ = error.render("fuzz");
            Vec::new()
        }
    }
}

/// Every node's move is legal in the position its parent reached.
///
/// The start is a checked position already (records may hold a dead piece
/// or two pawns on a file in their diagram; the readers warn about those),
/// but every move after it must be legal.
pub fn check_replays(record: &Record) {
    let start = record.start.clone();
    let tree = &record.tree;
    // Positions by node, filled in node order (a parent is always added
    // before its children).
    let mut positions: Vec<Option<Position>> = vec![None; tree.len()];
    positions[0] = Some(start);
    let ids: Vec<NodeId> = std::iter::once(NodeId::ROOT).chain(tree.ids()).collect();
    for (index, &id) in ids.iter().enumerate() {
        let pos = positions[index].clone().expect("parent before child");
        for child in tree.children(id) {
            let mv = tree.node(child).mv.expect("a child has a move");
            if let Err(why) = pos.check_legal(mv) {
                panic!(
                    "a reader returned an illegal move {mv} ({why:?}) at {}",
                    pos.sfen()
                );
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let at = ids.binary_search(&child).expect("child is a node");
            positions[at] = Some(next);
        }
    }
}

/// The writers checked by the round-trip target.
#[derive(Clone, Copy, Debug)]
pub enum Writer {
    Usi,
    Kif,
    Ki2,
    Csa,
    Western,
}

pub const WRITERS: [Writer; 5] = [
    Writer::Usi,
    Writer::Kif,
    Writer::Ki2,
    Writer::Csa,
    Writer::Western,
];

/// A record as `writer` writes it to a file of its own, in UTF-8, and the
/// format to read it back as.
pub fn write(record: &Record, writer: Writer) -> (String, Format) {
    let (target, format) = match writer {
        Writer::Usi => (Target::Usi, Format::Usi),
        Writer::Kif => (Target::Kif, Format::Kif),
        Writer::Ki2 => (Target::Ki2, Format::Ki2),
        Writer::Csa => (Target::Csa, Format::Csa),
        Writer::Western => (Target::Western, Format::Western),
    };
    let mut options = Options::default();
    options.encoding = Some(OutputEncoding::Utf8);
    let files = write_files_read(std::slice::from_ref(record), target, &options)
        .unwrap_or_else(|e| panic!("{writer:?} cannot write a record a reader returned: {e}"));
    assert_eq!(files.len(), 1, "{writer:?}: one record, one file");
    let text = String::from_utf8(files.into_iter().next().unwrap()).expect("written as UTF-8");
    (text, format)
}

/// The reader the first byte of a round-trip input selects (`None`: sniff
/// the content).
pub fn format_for(selector: u8) -> Option<Format> {
    match selector % 7 {
        0 => Some(Format::Kif),
        1 => Some(Format::Ki2),
        2 => Some(Format::Csa),
        3 => Some(Format::Usi),
        4 => Some(Format::Western),
        5 => Some(Format::Jkf),
        _ => None,
    }
}

/// The start without its move number: only USI and SFEN keep that.
fn start_board(start: &Position) -> String {
    let sfen = start.sfen();
    sfen.rsplit_once(' ')
        .map(|(s, _)| s.to_string())
        .unwrap_or(sfen)
}

/// The first byte picks the reader (or sniffing); the rest is the input.
/// Every record read is written by every writer and must read back, as one
/// record with the same start and the same mainline moves.
pub fn round_trip(data: &[u8]) {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let format = format_for(selector);
    for record in read(bytes, format) {
        let moves: Vec<Move> = record.tree.mainline_moves().collect();
        let start = start_board(&record.start);
        for writer in WRITERS {
            let (text, back_format) = write(&record, writer);
            let back = match read_text(&text, back_format) {
                Ok(back) => back,
                Err(e) => panic!(
                    "{writer:?} output does not read back: {}\n--- written ---\n{text}",
                    e.render("written")
                ),
            };
            assert_eq!(
                back.len(),
                1,
                "{writer:?} output reads back as {} records\n--- written ---\n{text}",
                back.len()
            );
            let again: Vec<Move> = back[0].tree.mainline_moves().collect();
            assert!(
                again == moves,
                "{writer:?} output reads back with other mainline moves\nwrote {}\nread  {}\n--- written ---\n{text}",
                usi_moves(&moves),
                usi_moves(&again),
            );
            let again_start = start_board(&back[0].start);
            assert_eq!(
                again_start, start,
                "{writer:?} output reads back with another start\n--- written ---\n{text}"
            );
        }
    }
}

fn usi_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A byte reader that yields zeros once the input runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A piece from a number 1–28 (0 is an empty square).
fn piece(n: u8) -> Option<Piece> {
    let n = n % 29;
    if n == 0 {
        return None;
    }
    let color = if n <= 14 { Color::Black } else { Color::White };
    let kind = PieceKind::from_index(((n - 1) % 14) as usize)?;
    Some(Piece::new(color, kind))
}

fn square(b: u8) -> Square {
    Square::from_index((b % 81) as usize).expect("below 81")
}

/// A setup from bytes. The first byte chooses the side to move and the
/// board's layout: dense (81 bytes, one per square, each mod 29: 0 empty,
/// 1–14 Black's kinds, 15–28 White's) or sparse (a count, then that many
/// square/piece pairs on an empty board, which most inputs turn into a
/// position with few enough pieces to be valid). Then seven bytes per hand.
fn setup_from(bytes: &mut Bytes) -> Setup {
    let flags = bytes.next();
    let mut board = [None; 81];
    if flags & 2 != 0 {
        for cell in board.iter_mut() {
            *cell = piece(bytes.next());
        }
    } else {
        let count = bytes.next() % 41;
        for _ in 0..count {
            let sq = square(bytes.next());
            board[sq.index()] = piece(bytes.next());
        }
    }
    let mut hands = [Hand::EMPTY; 2];
    let limits = [19u8, 5, 5, 5, 5, 3, 3];
    for hand in hands.iter_mut() {
        for (kind, limit) in PieceKind::HAND.into_iter().zip(limits) {
            hand.set(kind, bytes.next() % limit);
        }
    }
    Setup {
        board,
        hands,
        side_to_move: if flags & 1 == 0 {
            Color::Black
        } else {
            Color::White
        },
        move_number: 1,
    }
}

/// A move from three bytes: a drop of any kind (hand kinds or not) or a
/// board move between any two squares, promoting or not.
fn move_from(bytes: &mut Bytes) -> Move {
    let flags = bytes.next();
    let (a, b) = (bytes.next(), bytes.next());
    if flags & 1 != 0 {
        Move::Drop {
            kind: PieceKind::from_index(((flags >> 1) % 14) as usize).expect("below 14"),
            to: square(a),
        }
    } else {
        Move::Normal {
            from: square(a),
            to: square(b),
            promote: flags & 2 != 0,
        }
    }
}

/// Every move a position could be asked about: board moves from each of
/// the side to move's pieces to every square, promoting or not, and drops
/// of every kind on every square.
fn every_candidate(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for from in pos.pieces_of(pos.side_to_move()) {
        for to in Square::all() {
            for promote in [false, true] {
                out.push(Move::Normal { from, to, promote });
            }
        }
    }
    for kind in PieceKind::ALL {
        for to in Square::all() {
            out.push(Move::Drop { kind, to });
        }
    }
    out
}

/// The move generator against the single-move check on an arbitrary
/// position built from the bytes.
pub fn movegen(data: &[u8]) {
    let mut bytes = Bytes(data);
    let setup = setup_from(&mut bytes);
    let Ok(pos) = Position::from_setup(setup, KingRule::MayBeMissing) else {
        return;
    };
    let legal = pos.legal_moves();
    let mut sorted = legal.clone();
    sorted.sort_by_key(|m| m.to_string());
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        legal.len(),
        "duplicate moves at {}",
        pos.sfen()
    );
    let us = pos.side_to_move();
    for &mv in &legal {
        if let Err(why) = pos.check_legal(mv) {
            panic!(
                "generated {mv} fails check_legal ({why:?}) at {}",
                pos.sfen()
            );
        }
        let mut next = pos.clone();
        next.play(mv).expect("a legal move plays");
        // Independently of the generator: the mover's king is not attacked.
        if let Some(king) = next.king(us) {
            assert!(
                next.attackers_to(king, !us, next.occupied()).is_empty(),
                "{mv} leaves the king in check at {}",
                pos.sfen()
            );
        }
        // What candidates() lists for this move's kind and square.
        let kind = match mv {
            Move::Normal { from, .. } => pos.piece_at(from).expect("a piece moves").kind,
            Move::Drop { kind, .. } => kind,
        };
        let candidates = pos.candidates(kind, mv.to());
        assert!(
            candidates.contains(&mv),
            "{mv} missing from candidates({kind:?}, {}) at {}",
            mv.to(),
            pos.sfen()
        );
    }
    // Every move is legal exactly when the generator lists it.
    let in_list = |mv: &Move| legal.contains(mv);
    for mv in every_candidate(&pos) {
        assert_eq!(
            pos.is_legal(mv),
            in_list(&mv),
            "is_legal({mv}) disagrees with legal_moves() at {}",
            pos.sfen()
        );
    }
    // And the moves the bytes name (these include squares outside the
    // side's own pieces, which every_candidate skips).
    while !bytes.is_empty() {
        let mv = move_from(&mut bytes);
        assert_eq!(
            pos.is_legal(mv),
            in_list(&mv),
            "is_legal({mv}) disagrees with legal_moves() at {}",
            pos.sfen()
        );
    }
    // Candidates hold only legal moves.
    for kind in PieceKind::ALL {
        for to in Square::all() {
            for mv in pos.candidates(kind, to).iter() {
                assert!(
                    in_list(mv),
                    "candidates({kind:?}, {to}) lists {mv}, not legal at {}",
                    pos.sfen()
                );
            }
        }
    }
    assert_eq!(pos.has_legal_move(), !legal.is_empty(), "at {}", pos.sfen());
    assert_eq!(
        pos.is_checkmate(),
        pos.is_check() && legal.is_empty(),
        "at {}",
        pos.sfen()
    );
    // The flipped position has the flipped moves.
    let flipped = pos.flip();
    let mut ours: Vec<String> = legal.iter().map(|m| m.flip().to_string()).collect();
    let mut theirs: Vec<String> = flipped.legal_moves().iter().map(Move::to_string).collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "flip changes the moves at {}", pos.sfen());
    assert!(flipped.flip() == pos, "flip twice at {}", pos.sfen());
}
