use super::*;
use crate::book::{check, Book, Entry};
use crate::test_util::files::fixtures;
use crate::test_util::games::random_line;
use crate::test_util::rng::Rng;
use crate::training::move16::{encode, Layout};
use crate::Move;
use std::io::Cursor;

/// Every position of the vectors cshogi wrote
/// (scripts/book-apery-vectors.py keys) has cshogi's key.
#[test]
fn keys_are_cshogis() {
    let text = std::fs::read_to_string(fixtures().join("book/apery-keys.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (sfen, expected) = line.split_once('\t').unwrap();
        let pos = Position::from_sfen(sfen).unwrap();
        let expected = u64::from_str_radix(expected, 16).unwrap();
        assert_eq!(key(&pos), expected, "{sfen}");
        n += 1;
    }
    assert!(n > 5000, "{n} vectors");
}

/// The book cshogi's conventions wrote (scripts/book-apery-vectors.py
/// bin) and the moves it meant: `sfen`, move, count, score per line, in
/// the file's order.
fn cshogi_book() -> (Vec<u8>, Book) {
    let bytes = std::fs::read(fixtures().join("book/cshogi.bin")).unwrap();
    let text = std::fs::read_to_string(fixtures().join("book/cshogi-bin.tsv")).unwrap();
    let mut book = Book::default();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let pos = Position::from_sfen(cols[0]).unwrap();
        let entry = book.entries.entry(pos.sfen_key()).or_default();
        entry.ply = pos.move_number();
        entry.moves.push(BookMove {
            mv: cols[1].to_string(),
            ponder: None,
            value: cols[3].parse().unwrap(),
            depth: 0,
            count: cols[2].parse().unwrap(),
        });
    }
    (bytes, book)
}

/// The moves of each entry, without the ply (a walk may reach a
/// position sooner than the games did).
fn moves_of(book: &Book) -> Vec<(&String, &Vec<BookMove>)> {
    book.entries.iter().map(|(k, e)| (k, &e.moves)).collect()
}

/// Reading cshogi's book from the start gives every move it meant, with
/// its count and score, and nothing else; writing what it meant gives
/// cshogi's bytes.
#[test]
fn cshogis_book_read_and_written() {
    let (bytes, book) = cshogi_book();
    let read = read(&bytes, &[Position::startpos()]).unwrap();
    assert_eq!(read.walked.unreached, 0);
    assert_eq!(read.walked.bad_moves, 0);
    assert_eq!(read.walked.duplicates, 0);
    assert_eq!(moves_of(&read.book), moves_of(&book));
    let mut out = Vec::new();
    let written = write(&book, &mut out).unwrap();
    assert_eq!(written.entries, bytes.len() / ENTRY_SIZE);
    assert_eq!((written.saturated, written.shared_keys), (0, 0));
    assert!(out == bytes, "kifconv's bytes differ from cshogi's");
    // Every position by binary search, and one not in the book.
    for (sfen, entry) in &book.entries {
        let pos = Position::from_sfen(&format!("{sfen} 1")).unwrap();
        let found = lookup(Cursor::new(&bytes), bytes.len() as u64, &pos).unwrap();
        assert_eq!(&found, &entry.moves, "{sfen}");
    }
    let mut absent = Position::startpos();
    absent.play_usi_line("1g1f 1c1d 1f1e").unwrap();
    let found = lookup(Cursor::new(&bytes), bytes.len() as u64, &absent).unwrap();
    assert!(found.is_empty());
}

/// A book of random games (drops and promotions in them), values from
/// one end of i32 to the other, written and read back from the start:
/// the same moves, counts and values for every position.
#[test]
fn write_then_read_gives_the_book() {
    let mut rng = Rng::new(38);
    let mut book = Book::default();
    for _ in 0..12 {
        let mut pos = Position::startpos();
        for mv in random_line(60, &mut rng) {
            let value = match rng.below(8) {
                0 => i32::MIN,
                1 => i32::MAX,
                _ => rng.next() as i32,
            };
            let entry = book.entries.entry(pos.sfen_key()).or_default();
            entry.ply = pos.move_number();
            check::add_move(
                entry,
                BookMove {
                    mv: mv.to_string(),
                    ponder: None,
                    value,
                    depth: 0,
                    // Small enough that a move's sum stays below 65536.
                    count: 1 + rng.below(3_000) as u64,
                },
            );
            pos.play(mv).unwrap();
        }
    }
    for entry in book.entries.values_mut() {
        entry.sort();
    }
    let mut bytes = Vec::new();
    let written = write(&book, &mut bytes).unwrap();
    let moves: usize = book.entries.values().map(|e| e.moves.len()).sum();
    assert_eq!(written.entries, moves);
    assert_eq!(bytes.len(), moves * ENTRY_SIZE);
    assert_eq!(written.saturated, 0);
    let back = read(&bytes, &[Position::startpos()]).unwrap();
    assert_eq!((back.walked.unreached, back.walked.bad_moves), (0, 0));
    assert_eq!(back.book.entries.len(), book.entries.len());
    for ((key, moves), (key_back, moves_back)) in
        moves_of(&book).into_iter().zip(moves_of(&back.book))
    {
        assert_eq!((key, moves), (key_back, moves_back));
    }
    // The walk reaches each position no later than the games did.
    for (sfen, entry) in &back.book.entries {
        assert!(entry.ply <= book.entries[sfen].ply, "{sfen}");
    }
    // From no root, nothing is reached.
    let none = read(&bytes, &[]).unwrap();
    assert_eq!(none.walked.unreached, moves);
    assert!(none.book.entries.is_empty());
}

/// Counts above u16 are written as 65535 and counted; a move repeated
/// under a key is added up when read and counted.
#[test]
fn saturated_counts_and_repeated_moves_are_counted() {
    let start = Position::startpos();
    let mut book = Book::default();
    let mv = |usi: &str, count| BookMove {
        mv: usi.to_string(),
        ponder: None,
        value: 7,
        depth: 3,
        count,
    };
    book.entries.insert(
        start.sfen_key(),
        Entry {
            ply: 1,
            moves: vec![mv("7g7f", 70_000), mv("2g2f", 65_535)],
        },
    );
    let mut bytes = Vec::new();
    let written = write(&book, &mut bytes).unwrap();
    assert_eq!((written.entries, written.saturated), (2, 1));
    let back = read(&bytes, std::slice::from_ref(&start)).unwrap();
    let counts: Vec<(&str, u64)> = back.book.entries[&start.sfen_key()]
        .moves
        .iter()
        .map(|m| (m.mv.as_str(), m.count))
        .collect();
    assert_eq!(counts, [("2g2f", 65_535), ("7g7f", 65_535)]);
    // The same entry twice: one move, counts added.
    let twice = [&bytes[..ENTRY_SIZE], &bytes[..ENTRY_SIZE]].concat();
    let back = read(&twice, std::slice::from_ref(&start)).unwrap();
    assert_eq!(back.walked.duplicates, 1);
    assert_eq!(back.book.entries[&start.sfen_key()].moves[0].count, 131_070);
}

/// A white-to-move position absent from a book of its rotation is found
/// through the rotation, with the moves rotated back.
#[test]
fn flipped_lookup() {
    let mut after = Position::startpos();
    after.play_usi_line("7g7f").unwrap();
    let mut book = Book::default();
    let flipped = after.flip();
    book.entries.insert(
        flipped.sfen_key(),
        Entry {
            ply: 2,
            moves: vec![BookMove {
                mv: "7g7f".to_string(),
                ponder: None,
                value: -12,
                depth: 0,
                count: 4,
            }],
        },
    );
    let mut bytes = Vec::new();
    write(&book, &mut bytes).unwrap();
    let len = bytes.len() as u64;
    let answer = lookup_flipped(Cursor::new(&bytes), len, &after)
        .unwrap()
        .unwrap();
    assert!(answer.flipped);
    assert_eq!(answer.moves[0].mv, "3c3d");
    assert_eq!((answer.moves[0].count, answer.moves[0].value), (4, -12));
    let start = Position::startpos();
    assert_eq!(
        lookup_flipped(Cursor::new(&bytes), len, &start).unwrap(),
        None
    );
}

/// The fault of a search for the start position.
fn lookup_fault(bytes: &[u8]) -> AperyError {
    let e = lookup(
        Cursor::new(bytes),
        bytes.len() as u64,
        &Position::startpos(),
    )
    .unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    *e.into_inner().unwrap().downcast::<AperyError>().unwrap()
}

/// A file cut short or out of order is an error naming the entry, in a
/// read and in a search; a move not legal in the position searched is
/// one too.
#[test]
fn faults_name_the_entry() {
    let start = Position::startpos();
    let entry = |k: u64, code: u16| {
        Record {
            key: k,
            code,
            count: 1,
            score: 0,
        }
        .to_bytes()
    };
    let k = key(&start);
    let f = encode(Move::from_usi("7g7f").unwrap(), Layout::Apery);
    let mut cut = [entry(k - 1, f), entry(k, f)].concat();
    cut.truncate(20);
    let e = read(&cut, std::slice::from_ref(&start)).unwrap_err();
    assert_eq!((e.index, e.offset()), (1, 16));
    assert!(e.message.starts_with("only 4 of its 16 bytes"), "{e}");
    assert_eq!(lookup_fault(&cut), e);
    let unsorted = [entry(k, f), entry(k + 1, f), entry(k - 1, f)].concat();
    let e = read(&unsorted, std::slice::from_ref(&start)).unwrap_err();
    assert_eq!(e.index, 2);
    assert!(e.message.contains("sorted by key"), "{e}");
    // The search probes entry 1, then entry 0, whose key is above it.
    let e = lookup_fault(&[entry(k + 5, f), entry(k, f), entry(k - 5, f)].concat());
    assert_eq!(e.index, 1);
    assert!(e.message.contains("sorted by key"), "{e}");
    // 7g7e: a pawn moving two squares.
    let bad = encode(Move::from_usi("7g7e").unwrap(), Layout::Apery);
    let with_bad = [entry(k, f), entry(k, bad)].concat();
    let e = lookup_fault(&with_bad);
    assert_eq!(e.index, 1);
    assert!(e.message.contains("not legal"), "{e}");
    let back = read(&with_bad, &[start]).unwrap();
    assert_eq!((back.walked.bad_moves, back.walked.unreached), (1, 0));
}

/// Random bytes, and sorted files of random moves under the keys of
/// positions near the start, never make a read or a search panic.
#[test]
fn random_files_never_panic() {
    let mut rng = Rng::new(0xb00c);
    let mut near = vec![Position::startpos()];
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
        let mut next = near.last().unwrap().clone();
        next.play_usi_line(usi).unwrap();
        near.push(next);
    }
    let keys: Vec<u64> = near.iter().map(key).collect();
    for round in 0..3000 {
        let len = rng.below(20) * ENTRY_SIZE + usize::from(rng.one_in(4)) * rng.below(16);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if round % 2 == 0 {
            for chunk in bytes.chunks_exact_mut(ENTRY_SIZE) {
                let k = keys[rng.below(keys.len())];
                chunk[..8].copy_from_slice(&k.to_le_bytes());
                if rng.one_in(2) {
                    chunk[9] &= 0x7f;
                }
            }
            let whole = bytes.len() / ENTRY_SIZE * ENTRY_SIZE;
            let mut records: Vec<[u8; ENTRY_SIZE]> = bytes[..whole]
                .chunks_exact(ENTRY_SIZE)
                .map(|c| c.try_into().unwrap())
                .collect();
            if rng.one_in(4) {
                records.sort_by_key(|r| Record::from_bytes(r).key);
            }
            let tail = bytes[whole..].to_vec();
            bytes = records.concat();
            bytes.extend(tail);
        }
        let _ = read(&bytes, &near);
        for pos in &near {
            let _ = lookup_flipped(Cursor::new(&bytes), bytes.len() as u64, pos);
        }
    }
}
