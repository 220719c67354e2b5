//! Training files read back: packed positions and 16-bit moves decode to
//! what cshogi encoded (fixtures/training/vectors.tsv) and to what kifconv
//! packed (random games); HCPE and PackedSfenValue entries made by cshogi
//! (fixtures/training/*-corpus.tsv) read into records that the writers
//! turn into the same bytes; hcpe3 games read into their moves, scores and
//! results; no bytes make the readers panic, and bad ones give errors that
//! say where.

use crate::util::games::random_line;
use crate::util::rng::Rng;
use kifconv::record::{EndingKind, Record};
use kifconv::training::move16::{self, decode, Layout};
use kifconv::training::packed::{pack, unpack, Dialect};
use kifconv::training::read::{self, ReadError};
use kifconv::training::samples::Game;
use kifconv::training::{hcpe, hcpe3, psv};
use kifconv::{Color, Move, Position};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn fixture(name: &str) -> String {
    let path = format!("{}/fixtures/training/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// `pos` with move number 1, as a packed position gives it back.
fn at_move_one(pos: &Position) -> Position {
    let mut setup = pos.to_setup();
    setup.move_number = 1;
    Position::from_setup(setup, Default::default()).unwrap()
}

/// Every line of vectors.tsv: cshogi's HCP and PackedSfen unpack to the
/// line's position, and its move16 and Move16 decode to the line's move.
#[test]
fn cshogi_vectors_decode_to_their_positions_and_moves() {
    let text = fixture("vectors.tsv");
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let [sfen, hcp, psfen, usi, apery, yaneuraou] = line.split('\t').collect::<Vec<_>>()[..]
        else {
            panic!("not six fields: {line}");
        };
        let pos = at_move_one(&Position::from_sfen(sfen).unwrap());
        for (bytes, dialect) in [(hcp, Dialect::Hcp), (psfen, Dialect::PackedSfen)] {
            let packed: [u8; 32] = unhex(bytes).try_into().unwrap();
            assert_eq!(unpack(&packed, dialect).as_ref(), Ok(&pos), "{line}");
        }
        let mv = Move::from_usi(usi).unwrap();
        for (code, layout) in [(apery, Layout::Apery), (yaneuraou, Layout::YaneuraOu)] {
            let code = u16::from_str_radix(code, 16).unwrap();
            assert_eq!(decode(&pos, code, layout), Ok(mv), "{line}");
        }
        lines += 1;
    }
    assert!(lines > 2000, "{lines} vectors");
}

/// Positions of random games: unpack(pack(p)) is p in both dialects, and
/// every legal move decodes from its code in both layouts.
#[test]
fn random_game_positions_and_moves_round_trip() {
    let mut rng = Rng::new(0x7ac4_3e0d);
    let (mut positions, mut moves, mut with_hands) = (0, 0, 0);
    for _ in 0..12 {
        let line = random_line(160, &mut rng);
        let mut pos = Position::startpos();
        for (ply, &mv) in line.iter().enumerate() {
            if ply % 4 == 0 {
                for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
                    let packed = pack(&pos, dialect).unwrap();
                    assert_eq!(
                        unpack(&packed, dialect),
                        Ok(at_move_one(&pos)),
                        "{}",
                        pos.sfen()
                    );
                }
                for legal in pos.legal_moves() {
                    for layout in [Layout::Apery, Layout::YaneuraOu] {
                        let code = move16::encode(legal, layout);
                        assert_eq!(decode(&pos, code, layout), Ok(legal), "{}", pos.sfen());
                    }
                    moves += 1;
                }
                positions += 1;
                with_hands += usize::from(pos.sfen().split(' ').nth(2) != Some("-"));
            }
            pos.play_unchecked(mv);
        }
    }
    assert!(
        positions >= 400 && moves > 20_000,
        "{positions} positions, {moves} moves"
    );
    assert!(
        with_hands > 100,
        "{with_hands} positions with pieces in hand"
    );
}

/// No 32 bytes make unpack panic, nor any code decode; no bytes make a
/// reader panic. Random arrays, and packed positions with a few bits
/// flipped (which get further before they fail).
#[test]
fn no_bytes_make_the_readers_panic() {
    let mut rng = Rng::new(0x5eed_b175);
    let start = Position::startpos();
    let packed = [
        pack(&start, Dialect::Hcp).unwrap(),
        pack(&start, Dialect::PackedSfen).unwrap(),
    ];
    let mut unpacked = 0;
    for case in 0..20_000 {
        let mut bytes = [0u8; 32];
        if case % 2 == 0 {
            bytes.iter_mut().for_each(|b| *b = rng.next() as u8);
        } else {
            bytes = packed[rng.below(2)];
            for _ in 0..1 + rng.below(3) {
                let bit = rng.below(256);
                bytes[bit / 8] ^= 1 << (bit % 8);
            }
        }
        for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
            if let Ok(pos) = unpack(&bytes, dialect) {
                unpacked += 1;
                let code = rng.next() as u16;
                for layout in [Layout::Apery, Layout::YaneuraOu] {
                    let _ = decode(&pos, code, layout);
                }
            }
        }
    }
    // Some flips still spell a position (a piece's colour, say).
    assert!(unpacked > 100, "{unpacked} unpacked");
    for _ in 0..3_000 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let _ = read::hcpe(&bytes).count();
        let _ = read::psv(&bytes).count();
        let _ = read::hcpe3(&bytes).count();
    }
}

/// The records of every game of a corpus table: (file, game, entries).
fn corpus_entries(table: &str, size: usize) -> Vec<(String, Vec<u8>)> {
    let text = fixture(table);
    let games: Vec<(String, Vec<u8>)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let [file, game, entries] = line.split('\t').collect::<Vec<_>>()[..] else {
                panic!("not three fields: {line}");
            };
            (format!("{file} game {game}"), unhex(entries))
        })
        .collect();
    assert!(games.len() >= 10, "{} games", games.len());
    assert!(games.iter().all(|(_, e)| e.len() % size == 0));
    games
}

fn records(read: impl Iterator<Item = Result<Record, ReadError>>) -> Vec<Record> {
    read.map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// cshogi's HCPE of the corpus games read into records, one per entry,
/// that HCPE's writer turns back into the same 38 bytes; the same records
/// as PackedSfenValue are cshogi's PackedSfenValue of the same games but
/// for the ply, which HCPE does not store (the start is move 1).
#[test]
fn hcpe_entries_read_back_to_the_same_bytes_and_convert_to_psv() {
    let hcpes = corpus_entries("hcpe-corpus.tsv", hcpe::SIZE);
    let psvs = corpus_entries("psv-corpus.tsv", psv::SIZE);
    assert_eq!(hcpes.len(), psvs.len());
    let mut entries = 0;
    for ((name, hcpe_bytes), (_, psv_bytes)) in hcpes.iter().zip(&psvs) {
        let records = records(read::hcpe(hcpe_bytes));
        assert_eq!(records.len(), hcpe_bytes.len() / hcpe::SIZE, "{name}");
        for (i, record) in records.iter().enumerate() {
            let (back, missing) = hcpe::entries(record).unwrap();
            assert_eq!(missing, 0);
            let entry = &hcpe_bytes[i * hcpe::SIZE..][..hcpe::SIZE];
            assert_eq!(hex(&back.concat()), hex(entry), "{name} entry {i}");
            let (as_psv, _) = psv::entries(record).unwrap();
            let mut expected = psv_bytes[i * psv::SIZE..][..psv::SIZE].to_vec();
            expected[36..38].copy_from_slice(&1u16.to_le_bytes());
            assert_eq!(hex(&as_psv.concat()), hex(&expected), "{name} entry {i}");
            entries += 1;
        }
    }
    assert!(entries > 500, "{entries} entries");
}

/// cshogi's PackedSfenValue of the corpus games read back into records
/// that the writer turns into the same 40 bytes (ply included), and that
/// HCPE's writer turns into cshogi's HCPE of the same positions.
#[test]
fn psv_entries_read_back_to_the_same_bytes_and_convert_to_hcpe() {
    let psvs = corpus_entries("psv-corpus.tsv", psv::SIZE);
    let hcpes = corpus_entries("hcpe-corpus.tsv", hcpe::SIZE);
    for ((name, psv_bytes), (_, hcpe_bytes)) in psvs.iter().zip(&hcpes) {
        let records = records(read::psv(psv_bytes));
        let back: Vec<u8> = records
            .iter()
            .flat_map(|r| psv::entries(r).unwrap().0.concat())
            .collect();
        assert_eq!(hex(&back), hex(psv_bytes), "{name}");
        let as_hcpe: Vec<u8> = records
            .iter()
            .flat_map(|r| hcpe::entries(r).unwrap().0.concat())
            .collect();
        assert_eq!(hex(&as_hcpe), hex(hcpe_bytes), "{name}");
    }
}

/// FORMATS.md's entries: what each field becomes in the record.
#[test]
fn the_reference_entries_become_these_records() {
    let hcpe_entry =
        unhex("58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c85ff3b1e0100");
    let psv_entry =
        unhex("58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c32003b1e01000100");
    let hcpe_record = records(read::hcpe(&hcpe_entry)).remove(0);
    let psv_record = records(read::psv(&psv_entry)).remove(0);
    for (record, comment) in [(&hcpe_record, "* -123"), (&psv_record, "* 50")] {
        assert_eq!(record.start, Position::startpos().to_setup());
        let moves: Vec<String> = record
            .tree
            .mainline_moves()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(moves, ["7g7f"]);
        let last = record.tree.mainline_end();
        assert_eq!(record.tree.node(last).comments(), [comment]);
        let ending = record.ending().unwrap();
        assert_eq!(
            (ending.kind, ending.winner, ending.text.as_str()),
            (EndingKind::Other, Some(Color::Black), "Black won")
        );
    }

    // White to move (a two-piece handicap), eval 200 for white, white won
    // at move 7: black's view is −200; the ply is the start's move number.
    let pos =
        Position::from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 7").unwrap();
    let mut entry = pack(&pos, Dialect::PackedSfen).unwrap().to_vec();
    entry.extend(200i16.to_le_bytes());
    let mv = Move::from_usi("5a4b").unwrap();
    entry.extend(move16::encode(mv, Layout::YaneuraOu).to_le_bytes());
    entry.extend(7u16.to_le_bytes());
    entry.extend([1, 0]);
    let record = records(read::psv(&entry)).remove(0);
    assert_eq!(record.start, pos.to_setup());
    assert_eq!(record.handicap, Some(kifconv::Handicap::TwoPieces));
    let last = record.tree.mainline_end();
    assert_eq!(record.tree.node(last).comments(), ["* -200"]);
    assert_eq!(record.ending().unwrap().winner, Some(Color::White));
    assert_eq!(hex(&psv::entries(&record).unwrap().0.concat()), hex(&entry));
}

/// An hcpe3 move: the move, its eval from the side to move, and its
/// candidates with their visits.
type Hcpe3Move = (Move, i16, Vec<(Move, u16)>);

/// hcpe3 blocks for a game, written here from the format's description:
/// the start's HCP, the move count, the result, the opponent, then each
/// move's code, eval and candidates.
fn hcpe3_block(start: &Position, moves: &[Hcpe3Move], result: u8, opponent: u8) -> Vec<u8> {
    let mut out = pack(start, Dialect::Hcp).unwrap().to_vec();
    out.extend((moves.len() as u16).to_le_bytes());
    out.extend([result, opponent]);
    for (mv, eval, candidates) in moves {
        out.extend(move16::encode(*mv, Layout::Apery).to_le_bytes());
        out.extend(eval.to_le_bytes());
        out.extend((candidates.len() as u16).to_le_bytes());
        for (c, visits) in candidates {
            out.extend(move16::encode(*c, Layout::Apery).to_le_bytes());
            out.extend(visits.to_le_bytes());
        }
    }
    out
}

#[test]
fn hcpe3_games_read_into_their_moves_scores_and_results() {
    let m = |usi| Move::from_usi(usi).unwrap();
    let start = Position::startpos();
    let game = [
        (m("7g7f"), 30, vec![(m("7g7f"), 1)]),
        (m("3c3d"), -40, vec![(m("3c3d"), 90), (m("8c8d"), 10)]),
        (m("2g2f"), 55, vec![]),
    ];
    let mut bytes = hcpe3_block(&start, &game, 1 | 8, 2);
    // A second game with no move, a repetition draw; a third whose second
    // move is illegal; a fourth, fine, after it.
    bytes.extend(hcpe3_block(&start, &[], 4, 0));
    let bad_at = bytes.len();
    bytes.extend(hcpe3_block(
        &start,
        &[(m("7g7f"), 0, vec![]), (m("8c8e"), 0, vec![])],
        0,
        0,
    ));
    bytes.extend(hcpe3_block(&start, &game[..1], 2, 0));
    let results: Vec<Result<Record, ReadError>> = read::hcpe3(&bytes).collect();
    assert_eq!(results.len(), 4);

    let record = results[0].as_ref().unwrap();
    let moves: Vec<String> = record
        .tree
        .mainline_moves()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(moves, ["7g7f", "3c3d", "2g2f"]);
    let comments: Vec<Vec<String>> = record
        .tree
        .mainline()
        .map(|id| record.tree.node(id).comments().to_vec())
        .collect();
    assert_eq!(
        comments,
        [
            vec!["* 30".to_string()],
            vec!["* 40".to_string(), "candidates 3c3d:90 8c8d:10".to_string()],
            vec!["* 55".to_string(), "candidates: none".to_string()],
        ]
    );
    assert_eq!(record.header("opponent"), Some("2"));
    // Black won with white to move at the end: the flag cannot make it
    // white's declaration, so the text keeps it.
    let ending = record.ending().unwrap();
    assert_eq!(
        (ending.kind, ending.winner, ending.text.as_str()),
        (
            EndingKind::Other,
            Some(Color::Black),
            "Black won, entering king"
        )
    );
    // The writers read the same scores from the comments.
    let (entries, missing) = hcpe::entries(record).unwrap();
    assert_eq!(missing, 0);
    let evals: Vec<i16> = entries
        .iter()
        .map(|e| i16::from_le_bytes([e[32], e[33]]))
        .collect();
    assert_eq!(evals, [30, -40, 55]);

    let draw = results[1].as_ref().unwrap();
    assert!(draw.tree.is_empty());
    assert_eq!(draw.ending().unwrap().kind, EndingKind::Repetition);
    assert_eq!(draw.header("opponent"), None);

    let error = results[2].as_ref().unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "game 2, move 2 (byte {}): illegal move 8c8e: the piece cannot reach that square",
            bad_at + 36 + 6
        )
    );
    let fourth = results[3].as_ref().unwrap();
    assert_eq!(fourth.ending().unwrap().winner, Some(Color::White));
}

#[test]
fn bad_entries_are_errors_that_say_where() {
    let start = unhex("58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c");
    let hcpe_entry = |code: u16, result: u8| {
        let mut e = start.clone();
        e.extend([0, 0]);
        e.extend(code.to_le_bytes());
        e.extend([result, 0]);
        e
    };
    let good = hcpe_entry(0x1e3b, 1);
    let mut file = [
        good.clone(),
        hcpe_entry(0x0000, 0),
        hcpe_entry(0x1e3a, 0),
        hcpe_entry(0x1e3b, 3),
        vec![0xff; 38],
        good.clone(),
    ]
    .concat();
    file.extend(&good[..5]);
    let messages: Vec<String> = read::hcpe(&file)
        .map(|r| match r {
            Ok(record) => format!("ok {}", record.tree.len() - 1),
            Err(e) => e.to_string(),
        })
        .collect();
    assert_eq!(
        messages,
        [
            "ok 1",
            "entry 1 (byte 72): move code 0x0000: a move from 1a to 1a (the code of no move)",
            "entry 2 (byte 110): illegal move 7g7e: the piece cannot reach that square",
            "entry 3 (byte 150): the result 3 means nothing",
            "entry 4 (byte 152): the packed position: Black's king is on square number 127; squares are numbered 0 to 80",
            "ok 1",
            "entry 6 (byte 228): the file ends 5 bytes in, 33 bytes short of a whole one",
        ]
    );

    let mut psv_entry =
        unhex("58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c32003b1e01000500");
    let error = read::psv(&psv_entry).next().unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "entry 0 (byte 38): the result 5 means nothing"
    );
    psv_entry[34..36].copy_from_slice(&0x4084u16.to_le_bytes());
    psv_entry[38] = 0;
    let error = read::psv(&psv_entry).next().unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "entry 0 (byte 34): move code 0x4084: a drop of FU (P), which Black does not hold"
    );

    // An hcpe3 block whose moves run past the end.
    let m = Move::from_usi("7g7f").unwrap();
    let block = hcpe3_block(&Position::startpos(), &[(m, 0, vec![(m, 1)])], 1, 0);
    let cut = &block[..block.len() - 2];
    let errors: Vec<String> = read::hcpe3(cut)
        .map(|r| r.map(|_| ()).unwrap_err().to_string())
        .collect();
    assert_eq!(
        errors,
        ["game 0 (byte 0): the file ends 44 bytes in, 2 bytes short of a whole one"]
    );
}

/// dlshogi's hcpe3 blocks of the corpus games (fixtures/training/
/// hcpe3-corpus.tsv) read into one record a game, which the hcpe3 writer
/// turns back into the same bytes: start, moves, evaluations and result
/// bits.
#[test]
fn hcpe3_games_read_back_to_the_same_bytes() {
    let text = fixture("hcpe3-corpus.tsv");
    let mut games = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let [file, game, block] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("not three fields: {line}");
        };
        let bytes = unhex(block);
        let records = records(read::hcpe3(&bytes));
        assert_eq!(records.len(), 1, "{file} game {game}");
        let back = hcpe3::encode(&Game::of(&records[0]).unwrap()).unwrap();
        assert_eq!(hex(&back), block, "{file} game {game}");
        games += 1;
    }
    assert!(games >= 10, "{games} games");
}
