//! The tests of the `.ybb` reader, writer and search.

use super::super::build::{Builder, Options};
use super::super::query;
use super::*;
use crate::test_util::files::fixture_records;
use crate::test_util::rng::Rng;
use std::io::Cursor;

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";

fn bytes_of(book: &Book) -> (Vec<u8>, Written) {
    let mut out = Vec::new();
    let written = write(book, &mut out).unwrap();
    (out, written)
}

fn mv(usi: &str, value: i32, depth: u32) -> BookMove {
    BookMove {
        mv: usi.to_string(),
        ponder: None,
        value,
        depth,
        count: 0,
    }
}

fn small_book() -> Book {
    let mut book = Book::default();
    book.entries.insert(
        START.to_string(),
        Entry {
            ply: 1,
            moves: vec![mv("7g7f", 10, 3), mv("2g2f", -5, 0)],
        },
    );
    book.entries.insert(
        AFTER_7G7F.to_string(),
        Entry {
            ply: 2,
            moves: vec![mv("3c3d", 20, 1)],
        },
    );
    book
}

fn lookup_in(bytes: &[u8], pos: &Position) -> std::io::Result<Option<Answer>> {
    lookup(Cursor::new(bytes), bytes.len() as u64, pos)
}

/// The layout, byte by byte, for two positions: the header with the
/// depth flag, the index in packed order with offsets from the start of
/// the moves area, and each move's Move16, value and depth.
#[test]
fn the_bytes_are_laid_out_as_the_engine_reads_them() {
    let book = small_book();
    let (bytes, written) = bytes_of(&book);
    assert_eq!(bytes.len(), 32 + 2 * 44 + 3 * 6);
    assert_eq!(&bytes[..16], b"YANE-BINBOOK-V1\0");
    assert_eq!(bytes[16..24], 2u64.to_le_bytes());
    assert_eq!(bytes[24..32], 1u64.to_le_bytes());
    let start = packed::pack(&Position::startpos(), Dialect::PackedSfen).unwrap();
    let mut after = Position::startpos();
    after.play_usi_line("7g7f").unwrap();
    let after = packed::pack(&after, Dialect::PackedSfen).unwrap();
    // The start position (black to move: bit 0 clear) packs first.
    assert!(start < after);
    assert_eq!(bytes[32..64], start);
    assert_eq!(bytes[64..72], 0u64.to_le_bytes());
    assert_eq!(bytes[72..76], [1, 0, 2, 0]);
    assert_eq!(bytes[76..108], after);
    assert_eq!(bytes[108..116], 12u64.to_le_bytes());
    assert_eq!(bytes[116..120], [2, 0, 1, 0]);
    // 7g7f: to 7f (index 59 = 0x3b), from 7g (60): 0x1e3b; 10; 3.
    assert_eq!(bytes[120..126], [0x3b, 0x1e, 10, 0, 3, 0]);
    // 2g2f (from 15 to 14 = 0x078e); -5.
    assert_eq!(bytes[126..132], [0x8e, 0x07, 0xfb, 0xff, 0, 0]);
    assert_eq!(
        written,
        Written {
            positions: 2,
            moves: 3,
            ..Written::default()
        }
    );
    assert_eq!(read(&bytes).unwrap(), book);
}

/// A book built from every fixture game is read back with the same
/// positions, plies, moves (in the same order), values and depths; the
/// counts (not stored) read as 0. Written again, it is the same bytes,
/// and a search of the file finds what a search of the book finds.
#[test]
fn a_book_of_the_fixture_games_round_trips() {
    let mut builder = Builder::new(Options::default());
    for (_, record) in fixture_records() {
        let _ = builder.add(&record);
    }
    let mut book = builder.finish(1).unwrap();
    // Positions without two kings have no packed form.
    let unpackable: Vec<String> = book
        .entries
        .keys()
        .filter(|k| {
            Position::from_sfen(&format!("{k} 1"))
                .map_or(true, |pos| packed::pack(&pos, Dialect::PackedSfen).is_err())
        })
        .cloned()
        .collect();
    if let Some(k) = unpackable.first() {
        let e = write(&book, &mut Vec::new()).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains(k.as_str()), "{e}");
    }
    for k in &unpackable {
        book.entries.remove(k);
    }
    // Values and depths of every size the format holds.
    let mut rng = Rng::new(38);
    for entry in book.entries.values_mut() {
        for m in &mut entry.moves {
            m.value = rng.below(65536) as i32 - 32768;
            m.depth = rng.below(65536) as u32;
        }
    }
    assert!(book.entries.len() > 500, "{}", book.entries.len());
    // Streamed from the text, in memory and in runs on disk: the same
    // bytes, and no file left behind. (A text book holds values up to
    // the mate value: beyond it, reading the text mends them.)
    let mut within = book.clone();
    for entry in within.entries.values_mut() {
        for m in &mut entry.moves {
            m.value = m.value.clamp(-32000, 32000);
        }
    }
    let (within_bytes, within_written) = bytes_of(&within);
    let text = super::super::db2016::write(&within);
    let dir = crate::test_util::scratch::scratch("ybb-runs");
    for memory in [usize::MAX, 4_000] {
        let mut streamed = Vec::new();
        let again = write_streamed(&mut text.as_bytes(), &mut streamed, memory, &dir).unwrap();
        assert!(
            streamed == within_bytes,
            "{memory}: the streamed bytes differ"
        );
        assert_eq!(again, within_written, "{memory}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "{memory}");
    }
    let _ = std::fs::remove_dir(&dir);
    let (bytes, written) = bytes_of(&book);
    let moves: usize = book.entries.values().map(|e| e.moves.len()).sum();
    assert_eq!(written.positions, book.entries.len() as u64);
    assert_eq!(written.moves, moves as u64);
    assert_eq!(written.counts_dropped, moves as u64);
    assert_eq!(written.values_clamped, 0);
    let again = read(&bytes).unwrap();
    let mut expected = book.clone();
    for m in expected.entries.values_mut().flat_map(|e| &mut e.moves) {
        m.count = 0;
        m.ponder = None;
    }
    assert_eq!(again, expected);
    assert_eq!(bytes_of(&again).0, bytes);
    for k in book.entries.keys().take(300) {
        let pos = Position::from_sfen(&format!("{k} 1")).unwrap();
        for pos in [pos.clone(), pos.flip()] {
            assert_eq!(
                lookup_in(&bytes, &pos).unwrap(),
                query::lookup(&again, &pos),
                "{k}"
            );
        }
    }
}

/// What the format cannot hold is held at its ends and counted; the
/// ponder and count are counted as left out.
#[test]
fn what_does_not_fit_is_held_and_counted() {
    let mut book = Book::default();
    book.entries.insert(
        START.to_string(),
        Entry {
            ply: 70_000,
            moves: vec![
                BookMove {
                    ponder: Some("3c3d".to_string()),
                    count: 7,
                    ..mv("7g7f", 40_000, 70_000)
                },
                mv("2g2f", -40_000, 0),
                mv("5g5f", 32_767, 65_535),
            ],
        },
    );
    let (bytes, written) = bytes_of(&book);
    assert_eq!(
        written,
        Written {
            positions: 1,
            moves: 3,
            values_clamped: 2,
            depths_clamped: 1,
            plies_clamped: 1,
            ponders_dropped: 1,
            counts_dropped: 1,
        }
    );
    let entry = &read(&bytes).unwrap().entries[START];
    assert_eq!(entry.ply, 65_535);
    let got: Vec<(&str, i32, u32)> = entry
        .moves
        .iter()
        .map(|m| (m.mv.as_str(), m.value, m.depth))
        .collect();
    assert_eq!(
        got,
        [
            ("7g7f", 32_767, 65_535),
            ("2g2f", -32_768, 0),
            ("5g5f", 32_767, 65_535)
        ]
    );
}

/// A book the format cannot hold is refused whole.
#[test]
fn an_illegal_move_or_a_bad_key_is_not_written() {
    let mut book = small_book();
    book.entries
        .get_mut(START)
        .unwrap()
        .moves
        .push(mv("7g7e", 0, 0));
    let mut out = Vec::new();
    let e = write(&book, &mut out).unwrap_err();
    assert!(e.to_string().contains("`7g7e` is not legal"), "{e}");
    assert!(out.is_empty());
    let mut book = Book::default();
    book.entries
        .insert("4k4/9/9/9/9/9/9/9/9 b -".to_string(), Entry::default());
    let e = write(&book, &mut Vec::new()).unwrap_err();
    assert!(e.to_string().contains("no king"), "{e}");
}

/// The fault `bytes` has, by [`read`], and the same by [`lookup`] of
/// the start position when `searched`.
fn fault(bytes: &[u8], searched: bool) -> YbbError {
    let e = read(bytes).unwrap_err();
    if searched {
        let s = lookup_in(bytes, &Position::startpos()).unwrap_err();
        assert_eq!(s.kind(), std::io::ErrorKind::InvalidData);
        let s = s.into_inner().unwrap().downcast::<YbbError>().unwrap();
        assert_eq!(*s, e);
    }
    e
}

/// Each fault is located (byte offset and index entry) and says what
/// was expected.
#[test]
fn faults_are_located() {
    let (good, _) = bytes_of(&small_book());
    let set = |at: usize, new: &[u8]| {
        let mut b = good.clone();
        b[at..at + new.len()].copy_from_slice(new);
        b
    };
    let e = fault(&set(0, b"YANE-BINBOOK-V2"), true);
    assert_eq!((e.offset, e.entry), (0, None));
    assert!(e.message.starts_with("not a YaneuraOu binary book"), "{e}");
    let e = fault(&good[..20], true);
    assert_eq!((e.offset, e.entry), (20, None));
    assert!(e.message.contains("ends inside the header"), "{e}");
    let e = fault(b"", true);
    assert_eq!(e.offset, 0);
    let e = fault(&set(24, &[3]), true);
    assert_eq!(e.offset, 24);
    assert!(e.message.starts_with("unknown flags 0x3"), "{e}");
    let e = fault(&set(16, &[3]), true);
    assert_eq!(e.offset, 16);
    assert!(e.message.contains("counts 3 positions"), "{e}");
    let e = fault(&set(16, &[0xff; 8]), true);
    assert!(e.message.contains("does not fit"), "{e}");
    // The two entries swapped: not sorted (the search, which probes
    // entry 1 then entry 0, sees it too).
    let mut swapped = good.clone();
    swapped[32..76].copy_from_slice(&good[76..120]);
    swapped[76..120].copy_from_slice(&good[32..76]);
    let e = fault(&swapped, false);
    assert_eq!((e.offset, e.entry), (76, Some(1)));
    assert!(e.message.starts_with("not sorted"), "{e}");
    let twice = set(76, &good[32..76]);
    let e = fault(&twice, false);
    assert_eq!(e.entry, Some(1));
    assert_eq!(e.message, "the position of index entry 0 again");
    // Entry 1's moves past the end.
    let e = fault(&set(108, &[13]), false);
    assert_eq!((e.offset, e.entry), (108, Some(1)));
    assert!(e.message.contains("run past the end"), "{e}");
    let e = fault(&set(64, &[0xff; 8]), true);
    assert_eq!((e.offset, e.entry), (64, Some(0)));
    // 7g7f made 7g7e (to 58): illegal.
    let e = fault(&set(120, &[0x3a]), true);
    assert_eq!((e.offset, e.entry), (120, Some(0)));
    assert!(
        e.message.starts_with("move 0: the move 7g7e is illegal"),
        "{e}"
    );
    // From 5e (40), where no piece stands.
    let e = fault(&set(126, &[0x0e, 0x14]), true);
    assert_eq!((e.offset, e.entry), (126, Some(0)));
    assert!(
        e.message.starts_with("move 1: the move 0x140e is no move"),
        "{e}"
    );
    let e = fault(&set(126, &[0x3b, 0x1e]), true);
    assert_eq!(e.message, "move 1: the move 7g7f again");
    let e = fault(&set(32, &[0xff; 32]), true);
    assert_eq!((e.offset, e.entry), (32, Some(0)));
    assert!(
        e.message.starts_with("an impossible packed position"),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("byte 32: index entry 0: an impossible"),
        "{e}"
    );
}

/// A search sees an unsorted index where its probes meet it: three
/// entries reversed, searched for the smallest, probe entry 1 and then
/// entry 0, which is greater.
#[test]
fn a_search_sees_an_unsorted_index() {
    let mut book = small_book();
    let after_2g2f = "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w -";
    book.entries.insert(
        after_2g2f.to_string(),
        Entry {
            ply: 2,
            moves: vec![],
        },
    );
    let (good, _) = bytes_of(&book);
    assert!(lookup_in(&good, &Position::startpos()).unwrap().is_some());
    let mut reversed = good.clone();
    for n in 0..3 {
        let (to, from) = (32 + 44 * n, 32 + 44 * (2 - n));
        reversed[to..to + 44].copy_from_slice(&good[from..from + 44]);
    }
    let e = lookup_in(&reversed, &Position::startpos()).unwrap_err();
    let e = e.into_inner().unwrap().downcast::<YbbError>().unwrap();
    assert_eq!(e.entry, Some(1));
    assert!(e.message.starts_with("not sorted"), "{e}");
}

/// Random and damaged files never make the reader or the search panic.
#[test]
fn no_bytes_make_it_panic() {
    let mut builder = Builder::new(Options::default());
    for line in [
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e",
        "2g2f 8c8d 7g7f 3c3d 8h2b+ 3a2b B*4e",
    ] {
        let games = crate::read::read_text(
            &format!("position startpos moves {line}\n"),
            crate::read::Format::Usi,
        )
        .unwrap();
        builder.add(&games[0]).unwrap();
    }
    let (good, _) = bytes_of(&builder.finish(1).unwrap());
    let mut rng = Rng::new(3838);
    let probes = [Position::startpos(), Position::startpos().flip()];
    for round in 0..3000 {
        let mut b = if round % 10 == 0 {
            (0..rng.below(200)).map(|_| rng.next() as u8).collect()
        } else {
            good.clone()
        };
        for _ in 0..1 + rng.below(4) {
            if b.is_empty() {
                break;
            }
            let at = rng.below(b.len());
            b[at] = rng.next() as u8;
        }
        if rng.one_in(5) {
            b.truncate(rng.below(b.len() + 1));
        }
        let _ = read(&b);
        for pos in &probes {
            let _ = lookup_in(&b, pos);
            // A length that says more than the reader holds.
            let _ = lookup(Cursor::new(&b), b.len() as u64 + 100, pos);
        }
    }
}
