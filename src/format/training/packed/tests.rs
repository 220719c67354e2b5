//! The packer's and the reader's tests.

use super::*;

/// `row_of` and `GOLD_ROW` name the rows of the one table.
#[test]
fn rows_are_found_by_kind() {
    for (r, row) in ROWS.iter().enumerate() {
        assert_eq!(row_of(row.kind), Some(r));
        assert_eq!(row_of(row.kind.promote().unwrap_or(row.kind)), Some(r));
    }
    assert_eq!(ROWS[GOLD_ROW].kind, PieceKind::Gold);
    assert_eq!(row_of(PieceKind::King), None);
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The vectors of ../shared/training/FORMATS.md, checked there against
/// cshogi 1.1.0: the start, a two-piece handicap (bishop and rook in the
/// box) and a position with pieces in both hands.
#[test]
fn packs_the_reference_vectors() {
    let cases = [
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c",
            "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c",
        ),
        (
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "59a449210c9742fc1c9b42585e85f0288457213c9b42582e85f8382685303c5e",
            "59a451220cab44fc2ca744385e89f0488457223ca744385689f858468930bc7e",
        ),
        (
            "lnsgk4/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGK4 w GBRgbr 1",
            "59240a0185804240215008af42783685b05c0ae19814c2703ebffbfda7b4566b",
            "5924120189804440229008af44784e8970ac12611925c2701e9ffbfca6d4da5a",
        ),
    ];
    for (sfen, hcp, psfen) in cases {
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(hex(&pack(&pos, Dialect::Hcp).unwrap()), hcp, "{sfen}");
        assert_eq!(
            hex(&pack(&pos, Dialect::PackedSfen).unwrap()),
            psfen,
            "{sfen}"
        );
        for (text, dialect) in [(hcp, Dialect::Hcp), (psfen, Dialect::PackedSfen)] {
            assert_eq!(unpack(&bytes(text), dialect), Ok(pos.clone()), "{text}");
        }
    }
}

fn bytes(hex: &str) -> [u8; 32] {
    let mut out = [0; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

/// Reading needs each section's codes to be a prefix code: on the
/// board the pieces' prefixes and the empty square's `0`, after it the
/// hand prefixes and the box codes together. No code is a prefix of
/// another, and none is longer than the reader looks.
#[test]
fn each_section_is_a_prefix_code() {
    for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
        let d = column(dialect);
        let empty = Numeric { value: 0, len: 1 };
        let board: Vec<Numeric> = NUMERIC[BOARD][d].iter().copied().chain([empty]).collect();
        let rest: Vec<Numeric> = NUMERIC[HAND][d]
            .iter()
            .chain(&NUMERIC[BOX][d])
            .copied()
            .collect();
        for codes in [board, rest] {
            for (i, a) in codes.iter().enumerate() {
                assert!(a.len >= 1 && a.len <= LONGEST);
                for (j, b) in codes.iter().enumerate() {
                    let prefix = a.len <= b.len && b.value >> (b.len - a.len) == a.value;
                    assert!(i == j || !prefix, "{dialect:?}: {a:?} begins {b:?}");
                }
            }
        }
    }
}

/// Writes bits into 32 bytes for the error cases: the frame's first
/// fields, then codes given as text.
fn frame(kings: [usize; 2], codes: &[&str]) -> [u8; 32] {
    let (mut words, mut unused) = ([0; 4], [0; 4]);
    let mut bits = Bits::<false>::new(&mut words, &mut unused);
    let mut put = |value: usize, len: u32| {
        let e = Emit {
            bits: value as u64,
            len,
        };
        bits.put(e, e);
    };
    put(0, 1);
    put(kings[0], 7);
    put(kings[1], 7);
    for code in codes {
        for b in code.bytes() {
            put(usize::from(b == b'1'), 1);
        }
    }
    bits.finish();
    to_bytes(words)
}

#[test]
fn bytes_that_are_no_position_are_errors() {
    let empty_board = "0".repeat(79);
    let cases: Vec<([u8; 32], UnpackError)> = vec![
        (
            frame([81, 4], &[]),
            UnpackError::KingSquare {
                color: Color::Black,
                index: 81,
            },
        ),
        (
            frame([76, 127], &[]),
            UnpackError::KingSquare {
                color: Color::White,
                index: 127,
            },
        ),
        (
            frame([40, 40], &[]),
            UnpackError::KingsOnOneSquare(Square::from_index(40).unwrap()),
        ),
        // 19 black pawns (HCP `10`, colour 0, unpromoted 0).
        (
            frame([0, 80], &["1000"; 19]),
            UnpackError::TooMany(PieceKind::Pawn),
        ),
        // After an empty board, `011…` begins no hand or box code.
        (
            frame([0, 80], &[&empty_board, "0110000"]),
            UnpackError::NoCode { bit: 94 },
        ),
    ];
    for (bytes, error) in cases {
        assert_eq!(unpack(&bytes, Dialect::Hcp), Err(error));
    }
    // Every piece but one pawn in the box fills bit 253; the three bits
    // left begin a longer code.
    let mut codes = vec![empty_board.as_str()];
    codes.extend(["010"; 17]);
    codes.extend(
        ["10010", "11010", "10110", "10111"]
            .iter()
            .flat_map(|c| [*c; 4]),
    );
    codes.extend(["1111000", "1111000", "1111010", "1111010", "111"]);
    let bytes = frame([0, 80], &codes);
    assert_eq!(
        unpack(&bytes, Dialect::Hcp),
        Err(UnpackError::PastEnd { bit: 253 })
    );
    assert_eq!(
        UnpackError::PastEnd { bit: 253 }.to_string(),
        "the code starting at bit 253 runs past the 256 bits of a packed position"
    );
}

/// A board that runs past bit 256: every piece of a set (HCP, black,
/// unpromoted) fills it to bit 215, empty squares follow, and the last
/// squares hold one pawn too many. Cut short in its code, the pawn is
/// `PastEnd` at its first bit; cut short after its code, it counts first.
#[test]
fn a_board_past_the_end_is_an_error() {
    let mut codes = vec!["1000"; 18];
    for (code, n) in [("110000", 4), ("111000", 4), ("110100", 4)] {
        codes.extend([code; 4].iter().take(n));
    }
    codes.extend(["111100"; 4]);
    codes.extend(["11111000"; 2]);
    codes.extend(["11111100"; 2]);
    let board = |empties: usize| {
        let mut all = codes.clone();
        all.extend(vec!["0"; empties]);
        all.push("10");
        frame([0, 80], &all)
    };
    assert_eq!(
        unpack(&board(40), Dialect::Hcp),
        Err(UnpackError::PastEnd { bit: 255 })
    );
    assert_eq!(
        unpack(&board(39), Dialect::Hcp),
        Err(UnpackError::TooMany(PieceKind::Pawn))
    );
}

/// Two black pawns on one file pack (a lenient record may hold them)
/// but do not unpack: the rules refuse them.
#[test]
fn a_position_the_rules_refuse_is_an_error() {
    let setup = crate::Setup::from_sfen("4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1").unwrap();
    let (pos, problems) = Position::from_setup_lenient(setup).unwrap();
    assert_eq!(problems.len(), 1);
    for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
        let packed = pack(&pos, dialect).unwrap();
        let error = unpack(&packed, dialect).unwrap_err();
        assert_eq!(
            error,
            UnpackError::Rules(SetupError::DoublePawn {
                color: Color::Black,
                file: 5
            })
        );
        assert_eq!(
            error.to_string(),
            "the position breaks a rule: Black has two unpromoted pawns on file 5 (nifu)"
        );
    }
}

#[test]
fn a_position_without_both_kings_is_an_error() {
    for (sfen, missing) in [
        ("9/9/9/9/9/9/9/9/4K4 b - 1", Color::White),
        ("4k4/9/9/9/9/9/9/9/9 w - 1", Color::Black),
    ] {
        let setup = crate::Setup::from_sfen(sfen).unwrap();
        let (pos, _) = Position::from_setup_lenient(setup).unwrap();
        for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
            assert_eq!(pack(&pos, dialect), Err(PackError::MissingKing(missing)));
        }
    }
    let two = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
    assert!(pack(&two, Dialect::Hcp).is_ok());
}

/// The reader before the table: bits read one at a time until they spell
/// one of `sections`' codes (or, with `empty`, the empty square's `0`).
/// Kept as the definition the table's reading must agree with.
fn code_bit_by_bit(
    bits: &mut Reader,
    d: usize,
    sections: &[usize],
    empty: bool,
) -> Result<Option<(usize, usize)>, UnpackError> {
    let start = bits.at;
    let mut read = Numeric { value: 0, len: 0 };
    while read.len < LONGEST {
        read.value = read.value << 1 | u8::from(bits.bit(start)?);
        read.len += 1;
        if empty && read == (Numeric { value: 0, len: 1 }) {
            return Ok(None);
        }
        for &section in sections {
            if let Some(r) = NUMERIC[section][d].iter().position(|&c| c == read) {
                return Ok(Some((section, r)));
            }
        }
    }
    Err(UnpackError::NoCode { bit: start })
}

/// At every bit of random bytes, near the end included, in both dialects
/// and both places, the table reads the code (and moves on by its length)
/// or fails with the error the bit-by-bit reading gives.
#[test]
fn the_table_reads_as_bit_by_bit() {
    let mut rng = crate::test_util::rng::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut next = || rng.next();
    let mut outcomes = std::collections::HashSet::new();
    for round in 0..400 {
        let mut bytes = [0u8; 32];
        for b in bytes.iter_mut() {
            // Every other round, runs of ones: long codes and no code.
            *b = next() as u8 | if round % 2 == 1 { 0xee } else { 0 };
        }
        for d in 0..2 {
            for at in 0..=256 {
                for (place, sections, empty) in [
                    (ON_BOARD, &[BOARD][..], true),
                    (OFF_BOARD, &[HAND, BOX][..], false),
                ] {
                    let mut old = Reader::new(&bytes);
                    let mut new = Reader::new(&bytes);
                    (old.at, new.at) = (at, at);
                    let want = code_bit_by_bit(&mut old, d, sections, empty);
                    let got = new.code(d, place);
                    assert_eq!(got, want, "dialect {d}, bit {at}, {}", hex(&bytes));
                    if want.is_ok() {
                        assert_eq!(new.at, old.at, "dialect {d}, bit {at}");
                    }
                    outcomes.insert(match want {
                        Ok(None) => 0,
                        Ok(Some(_)) => 1,
                        Err(UnpackError::NoCode { .. }) => 2,
                        Err(_) => 3,
                    });
                }
            }
        }
    }
    assert_eq!(outcomes.len(), 4, "every outcome was met");
}

/// The positions of random games (drops, promotions, full hands) pack
/// and unpack to themselves in both dialects.
#[test]
fn random_positions_pack_and_unpack() {
    let mut rng = crate::test_util::rng::Rng::new(39);
    let mut n = 0;
    for _ in 0..300 {
        let mut pos = Position::startpos();
        for mv in crate::test_util::games::random_line(150, &mut rng) {
            pos.play(mv).unwrap();
            for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
                let packed = pack(&pos, dialect).unwrap();
                let back = unpack(&packed, dialect).unwrap();
                assert_eq!(back.sfen_key(), pos.sfen_key());
            }
            n += 1;
        }
    }
    assert!(n > 10_000, "{n} positions");
}

/// Positions of every kind a packer meets: a handicap (pieces in the
/// box), every piece in one hand, an empty board but the kings, and the
/// positions of 60 random games (drops, promotions, full hands).
fn varied_positions(rng: &mut crate::test_util::rng::Rng) -> Vec<Position> {
    let mut positions = vec![];
    for sfen in [
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgk4/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGK4 w GBRgbr 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
        "4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b - 1",
    ] {
        positions.push(Position::from_sfen(sfen).unwrap());
    }
    for _ in 0..60 {
        let mut pos = Position::startpos();
        for mv in crate::test_util::games::random_line(150, rng) {
            pos.play(mv).unwrap();
            positions.push(pos.clone());
        }
    }
    positions
}

/// [`Packer::pack_both`] gives what [`pack`] gives in each dialect, and
/// [`Packer::packs_to_then_other`] the other dialect's bytes exactly when the
/// position packs to the bytes it is given: on [`varied_positions`], from
/// both dialects, and on the same bytes with a bit flipped.
#[test]
fn packing_both_dialects_at_once_gives_each() {
    let mut rng = crate::test_util::rng::Rng::new(3940);
    for pos in &varied_positions(&mut rng) {
        for (dialect, other) in [
            (Dialect::Hcp, Dialect::PackedSfen),
            (Dialect::PackedSfen, Dialect::Hcp),
        ] {
            let (ours, theirs) = Packer::new(dialect).pack_both(pos, None).unwrap();
            assert_eq!(
                hex(&ours),
                hex(&pack(pos, dialect).unwrap()),
                "{}",
                pos.sfen()
            );
            assert_eq!(
                hex(&theirs),
                hex(&pack(pos, other).unwrap()),
                "{}",
                pos.sfen()
            );
            assert_eq!(
                Packer::new(dialect).packs_to_then_other(pos, &ours, None),
                Some(theirs)
            );
            let bit = rng.next() as usize % 256;
            let mut spoiled = ours;
            spoiled[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                Packer::new(dialect).packs_to_then_other(pos, &spoiled, None),
                None
            );
        }
    }
}

/// One [`Packer`] over many positions gives what [`pack`] gives for each
/// alone, in both dialects and, with [`Packer::pack_both`], both at once:
/// over [`varied_positions`] in the order their games were played (a
/// file or two changed a move), backwards (a move taken back), and in a
/// random order (any change), each time with a packer used since the
/// start.
#[test]
fn a_packer_over_many_positions_packs_each_as_alone() {
    let mut rng = crate::test_util::rng::Rng::new(3941);
    let played = varied_positions(&mut rng);
    let backwards: Vec<&Position> = played.iter().rev().collect();
    let mut shuffled: Vec<&Position> = played.iter().collect();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.below(i + 1));
    }
    let orders = [played.iter().collect(), backwards, shuffled];
    for (dialect, other) in [
        (Dialect::Hcp, Dialect::PackedSfen),
        (Dialect::PackedSfen, Dialect::Hcp),
    ] {
        for order in &orders {
            let (mut one, mut both) = (Packer::new(dialect), Packer::new(dialect));
            for pos in order {
                let alone = pack(pos, dialect).unwrap();
                assert_eq!(hex(&one.pack(pos).unwrap()), hex(&alone), "{}", pos.sfen());
                let (ours, theirs) = both.pack_both(pos, None).unwrap();
                assert_eq!(hex(&ours), hex(&alone), "{}", pos.sfen());
                assert_eq!(
                    hex(&theirs),
                    hex(&pack(pos, other).unwrap()),
                    "{}",
                    pos.sfen()
                );
            }
        }
    }
}

/// What follows the board is copied from the last position only when it
/// is the same: positions with the same hands and as many pieces on the
/// board can still differ in the box, and then it is written again.
#[test]
fn a_packer_writes_the_box_again_when_only_the_box_changed() {
    let boxed = [
        "4k4/9/9/9/9/9/9/P8/4K4 b - 1",
        "4k4/9/9/9/9/9/9/L8/4K4 b - 1",
        "4k4/9/9/9/9/9/9/L8/4K4 b - 1",
        "4k4/9/9/9/9/9/9/1L7/4K4 b P 1",
        "4k4/9/9/9/9/9/9/1P7/4K4 b L 1",
        "4k4/9/9/9/9/9/9/1+P7/4K4 b L 1",
    ];
    for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
        let (mut one, mut both) = (Packer::new(dialect), Packer::new(dialect));
        for sfen in boxed {
            let pos = Position::from_sfen(sfen).unwrap();
            let alone = pack(&pos, dialect).unwrap();
            assert_eq!(hex(&one.pack(&pos).unwrap()), hex(&alone), "{sfen}");
            let (ours, _) = both.pack_both(&pos, None).unwrap();
            assert_eq!(hex(&ours), hex(&alone), "{sfen}");
        }
    }
}

/// A packer told each position's move ([`Packer::pack_after`]: the move
/// played on its own board) gives what [`pack`] gives for the position
/// alone, in both dialects, over random games from the start (from a
/// start with full hands, where drops abound, and from one with a piece in
/// the box). Every fifth move is played without packing what it leads
/// to, so the next position packed is two moves on. Every seventh
/// position is packed from the position, after which the packer has no
/// sets to compare with: it must code every file again. A second packer
/// is told the same moves and packs both dialects at once
/// ([`Packer::pack_both`]), the other dialect's bits kept through the
/// moves played on its board.
#[test]
fn a_packer_told_each_move_packs_each_as_alone() {
    let mut rng = crate::test_util::rng::Rng::new(7717);
    let starts = [
        Position::startpos(),
        Position::from_sfen("lnsgk4/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGK4 b GBRgbr 1").unwrap(),
        // White gave a bishop: one in the box from the start.
        Position::from_sfen("lnsgkgsnl/7r1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
            .unwrap(),
    ];
    let mut told = 0;
    for (dialect, other) in [
        (Dialect::Hcp, Dialect::PackedSfen),
        (Dialect::PackedSfen, Dialect::Hcp),
    ] {
        for _ in 0..40 {
            let (mut packer, mut both) = (Packer::new(dialect), Packer::new(dialect));
            for start in &starts {
                let mut pos = start.clone();
                assert_eq!(packer.pack(&pos), pack(&pos, dialect));
                assert!(both.pack_both(&pos, None).is_ok());
                for ply in 1..150 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = legal[rng.below(legal.len())];
                    pos.play(mv).unwrap();
                    let (packed, paired) = if ply % 7 == 0 {
                        (packer.pack(&pos), both.pack_both(&pos, None))
                    } else if ply % 5 == 0 {
                        // Played and not packed: the next position packed
                        // is two moves on.
                        packer.play(mv);
                        both.play(mv);
                        continue;
                    } else {
                        told += 1;
                        (packer.pack_after(&pos, mv), both.pack_both(&pos, Some(mv)))
                    };
                    let alone = pack(&pos, dialect);
                    assert_eq!(packed, alone, "{} after {mv}", pos.sfen());
                    assert_eq!(
                        paired,
                        Ok((alone.unwrap(), pack(&pos, other).unwrap())),
                        "{} after {mv}",
                        pos.sfen()
                    );
                }
            }
        }
    }
    assert!(told > 10_000, "{told}");
}

/// [`repack`] gives what the general path gives: the position and error of
/// [`unpack`], and [`pack`]'s bytes for the position it reads. Checked on
/// [`varied_positions`] and on the same bytes with a bit flipped (other
/// hands, hands out of order, and every kind of fault),
/// from and to both dialects. Returns which of read, refused by the rules
/// and unreadable the bytes are.
#[test]
fn repacking_gives_the_general_paths_answers() {
    let same = |bytes: &[u8; 32], from: Dialect, to: Dialect| {
        let mut read = Position::blank();
        let got = repack(bytes, from, to, 1, &mut read);
        let unpacked = unpack(bytes, from);
        assert_eq!(got.is_ok(), unpacked.is_ok(), "{}", hex(bytes));
        if let Err(e) = &got {
            assert_eq!(Err(e), unpacked.as_ref(), "{}", hex(bytes));
        }
        if let (Ok(got), Ok(pos)) = (&got, &unpacked) {
            assert_eq!(&read, pos, "{}", hex(bytes));
            let want = pack(pos, to).unwrap();
            assert_eq!(hex(got), hex(&want), "{} {from:?} → {to:?}", hex(bytes));
        }
        match unpacked {
            Ok(_) => "read",
            Err(UnpackError::Rules(_)) => "refused by the rules",
            Err(_) => "unreadable",
        }
    };
    let mut rng = crate::test_util::rng::Rng::new(3939);
    let positions = varied_positions(&mut rng);
    let mut seen = std::collections::HashSet::new();
    for pos in &positions {
        for from in [Dialect::Hcp, Dialect::PackedSfen] {
            let bytes = pack(pos, from).unwrap();
            for to in [Dialect::Hcp, Dialect::PackedSfen] {
                assert_eq!(same(&bytes, from, to), "read");
                let bit = rng.next() as usize % 256;
                let mut spoiled = bytes;
                spoiled[bit / 8] ^= 1 << (bit % 8);
                seen.insert(same(&spoiled, from, to));
            }
        }
    }
    // Flipped bits gave positions the rules take and refuse, and errors.
    assert_eq!(seen.len(), 3, "{seen:?}");
}

/// The reading [`unpack`] speeds up, one code at a time with
/// [`Reader::code`] and [`Reader::bit`]: each square's code, then its
/// colour and promotion bits (a gold has only the colour), into a
/// [`crate::Setup`] the rules check at the end. Kept as the definition the
/// board loop's windows and runs must agree with, errors and their order
/// included.
fn unpack_by_codes(bytes: &[u8; 32], dialect: Dialect) -> Result<Position, UnpackError> {
    let d = column(dialect);
    let mut bits = Reader::new(bytes);
    let color = |white: bool| if white { Color::White } else { Color::Black };
    let mut setup = crate::Setup::empty();
    setup.side_to_move = color(bits.bit(0)?);
    let mut kings = [0; 2];
    for (king, c) in kings.iter_mut().zip([Color::Black, Color::White]) {
        let index = bits.field(7)?;
        let sq = Square::from_index(index).ok_or(UnpackError::KingSquare { color: c, index })?;
        if setup.piece_at(sq).is_some() {
            return Err(UnpackError::KingsOnOneSquare(sq));
        }
        let kind = PieceKind::King;
        setup.set_piece(sq, Some(Piece { color: c, kind }));
        *king = index;
    }
    let mut count = [0u8; 7];
    let mut counted = |r: usize| {
        count[r] += 1;
        if count[r] > SET[r] {
            return Err(UnpackError::TooMany(ROWS[r].kind));
        }
        Ok(())
    };
    for i in (0..81).filter(|i| !kings.contains(i)) {
        let Some((_, r)) = bits.code(d, ON_BOARD)? else {
            continue;
        };
        counted(r)?;
        // Bits cut short after the code are past the end of all 256.
        let (white, promoted) = if r == GOLD_ROW {
            (bits.bit(256)?, false)
        } else if d == 0 {
            (bits.bit(256)?, bits.bit(256)?)
        } else {
            let promoted = bits.bit(256)?;
            (bits.bit(256)?, promoted)
        };
        let kind = match ROWS[r].kind.promote() {
            Some(up) if promoted => up,
            _ => ROWS[r].kind,
        };
        let sq = Square::from_index(i).unwrap();
        setup.set_piece(
            sq,
            Some(Piece {
                color: color(white),
                kind,
            }),
        );
    }
    while bits.at < 256 {
        let Some((section, r)) = bits.code(d, OFF_BOARD)? else {
            continue;
        };
        counted(r)?;
        if section == HAND {
            let c = color(bits.bit(bits.at)?);
            setup.hands[c.index()].add(ROWS[r].kind);
        }
    }
    Position::from_setup(setup, KingRule::BothRequired).map_err(UnpackError::Rules)
}

/// [`unpack`] reads what [`unpack_by_codes`] reads, and fails as it
/// fails, on the positions of random games packed, then with bits
/// flipped, with their last bits set (codes cut short on the board and
/// off it), and on random bytes, in both dialects.
#[test]
fn unpacking_reads_as_code_by_code() {
    let mut rng = crate::test_util::rng::Rng::new(0x39b);
    let mut outcomes = std::collections::HashSet::new();
    let mut check = |bytes: &[u8; 32], dialect: Dialect| {
        let want = unpack_by_codes(bytes, dialect);
        assert_eq!(unpack(bytes, dialect), want, "{dialect:?} {}", hex(bytes));
        outcomes.insert(match want {
            Ok(_) => "read",
            Err(UnpackError::PastEnd { .. }) => "past the end",
            Err(UnpackError::TooMany(_)) => "too many",
            Err(UnpackError::NoCode { .. }) => "no code",
            Err(UnpackError::Rules(_)) => "rules",
            Err(_) => "kings",
        });
    };
    let mut positions = vec![];
    for _ in 0..40 {
        let mut pos = Position::startpos();
        for mv in crate::test_util::games::random_line(150, &mut rng) {
            pos.play(mv).unwrap();
            positions.push(pos.clone());
        }
    }
    for pos in &positions {
        for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
            let bytes = pack(pos, dialect).unwrap();
            check(&bytes, dialect);
            let mut spoiled = bytes;
            let bit = rng.next() as usize % 256;
            spoiled[bit / 8] ^= 1 << (bit % 8);
            check(&spoiled, dialect);
            // The last 1 to 64 bits set: long codes where the hands and
            // the end of the board were.
            let ones = 1 + rng.next() as usize % 64;
            let mut tail = bytes;
            for bit in 256 - ones..256 {
                tail[bit / 8] |= 1 << (bit % 8);
            }
            check(&tail, dialect);
            let mut random = [0u8; 32];
            for b in random.iter_mut() {
                *b = rng.next() as u8;
            }
            check(&random, dialect);
        }
    }
    // Full boards: every piece of a set in random order among the 41
    // empty squares, one of which then holds a piece too. The board runs
    // past bit 256: cut short in a code, or a kind counted one too many
    // first (as it is when only its colour and promotion bits are cut).
    for round in 0..4000 {
        let dialect = [Dialect::Hcp, Dialect::PackedSfen][round % 2];
        let d = column(dialect);
        let code = |r: usize, rng: &mut crate::test_util::rng::Rng| {
            let c = NUMERIC[BOARD][d][r];
            let flags = if r == GOLD_ROW { 1 } else { 2 };
            let mut text: String = (0..c.len)
                .rev()
                .map(|i| if c.value >> i & 1 == 1 { '1' } else { '0' })
                .collect();
            text.extend((0..flags).map(|_| if rng.next() & 1 == 1 { '1' } else { '0' }));
            text
        };
        let mut squares = vec!["0".to_string(); 41];
        for (r, &n) in SET.iter().enumerate() {
            for _ in 0..n {
                squares.push(code(r, &mut rng));
            }
        }
        for i in (1..squares.len()).rev() {
            squares.swap(i, rng.next() as usize % (i + 1));
        }
        let empties: Vec<usize> = (0..79).filter(|&i| squares[i] == "0").collect();
        let extra = empties[rng.next() as usize % empties.len()];
        let r = rng.next() as usize % 7;
        squares[extra] = code(r, &mut rng);
        let black = rng.next() as usize % 81;
        let white = (black + 1 + rng.next() as usize % 80) % 81;
        let texts: Vec<&str> = squares.iter().map(String::as_str).collect();
        check(&frame([black, white], &texts), dialect);
    }
    assert_eq!(outcomes.len(), 6, "{outcomes:?}");
}

/// A packer started on a position ([`Packer::starting`]) gives what
/// [`pack`] gives for it and for the positions moves lead to, whether the
/// start is the even one (packed once and copied) or another.
#[test]
fn a_started_packer_packs_its_start_and_what_follows() {
    for dialect in [Dialect::Hcp, Dialect::PackedSfen] {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 9",
            "lnsgkgsnl/7r1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ] {
            let mut pos = Position::from_sfen(sfen).unwrap();
            let (mut packer, packed) = Packer::starting(dialect, &pos);
            assert_eq!(packed, pack(&pos, dialect), "{sfen}");
            for ply in 0..40 {
                let legal = pos.legal_moves();
                let Some(&mv) = legal.get(ply * 7 % legal.len().max(1)) else {
                    break;
                };
                pos.play(mv).unwrap();
                packer.play(mv);
                assert_eq!(packer.packed(), pack(&pos, dialect), "{sfen} {mv}");
            }
        }
    }
}
