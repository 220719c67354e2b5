//! The rules core through its public API: validation, flipping, USI moves,
//! and a handful of positions whose legal moves are known exactly.

use kifconv::position::{SetupError, UsiMoveErrorKind};
use kifconv::{
    Color, Handicap, IllegalMove, KingRule, Move, PieceKind, Position, PositionError, Setup, Square,
};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn setup_error(sfen: &str) -> SetupError {
    match Position::from_sfen(sfen) {
        Err(PositionError::Setup(e)) => e,
        other => panic!("{sfen}: expected a setup error, got {other:?}"),
    }
}

fn sq(text: &str) -> Square {
    Square::from_usi(text).unwrap()
}

#[test]
fn the_593_position() {
    let p = pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    assert_eq!(p.legal_moves().len(), 593);
    assert_eq!(p.perft(1), 593);
}

#[test]
fn startpos_perft_to_depth_4() {
    let start = Position::startpos();
    let counts: Vec<u64> = (1..=4).map(|d| start.perft(d)).collect();
    assert_eq!(counts, [30, 900, 25470, 719731]);
}

#[test]
#[ignore = "deep: run with --ignored (about a second in release)"]
fn startpos_perft_depth_5() {
    assert_eq!(Position::startpos().perft(5), 19861490);
}

#[test]
fn validation_names_what_is_wrong() {
    assert_eq!(
        setup_error("4k4/9/9/9/9/9/9/9/9 b - 1"),
        SetupError::MissingKing {
            color: Color::Black
        }
    );
    assert!(matches!(
        setup_error("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
        SetupError::ExtraKing { color: Color::Black, ref squares } if squares.len() == 2
    ));
    assert_eq!(
        setup_error("4k4/ppppppppp/9/9/9/9/PPPPPPPPP/9/4K4 b P 1"),
        SetupError::TooManyPieces {
            kind: PieceKind::Pawn,
            count: 19,
            max: 18
        }
    );
    assert_eq!(
        setup_error("4k4/9/9/9/9/9/9/9/4K4 b 3B 1"),
        SetupError::TooManyPieces {
            kind: PieceKind::Bishop,
            count: 3,
            max: 2
        }
    );
    // A horse counts as a bishop.
    assert_eq!(
        setup_error("4k4/9/9/9/4+B4/9/9/9/4K4 b Bb 1"),
        SetupError::TooManyPieces {
            kind: PieceKind::Bishop,
            count: 3,
            max: 2
        }
    );
    assert_eq!(
        setup_error("P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        SetupError::DeadPiece {
            color: Color::Black,
            kind: PieceKind::Pawn,
            square: sq("9a")
        }
    );
    assert_eq!(
        setup_error("4k4/N8/9/9/9/9/9/9/4K4 b - 1"),
        SetupError::DeadPiece {
            color: Color::Black,
            kind: PieceKind::Knight,
            square: sq("9b")
        }
    );
    assert_eq!(
        setup_error("4k4/9/9/9/9/9/9/9/4K3l b - 1"),
        SetupError::DeadPiece {
            color: Color::White,
            kind: PieceKind::Lance,
            square: sq("1i")
        }
    );
    assert_eq!(
        setup_error("4k4/9/9/9/9/9/P8/P8/4K4 b - 1"),
        SetupError::DoublePawn {
            color: Color::Black,
            file: 9
        }
    );
    // A promoted pawn does not count for nifu.
    pos("4k4/9/9/9/9/9/+P8/P8/4K4 b - 1");
    assert_eq!(
        setup_error("4k4/9/9/9/9/9/9/9/K3R4 b - 1"),
        SetupError::OpponentInCheck {
            color: Color::White,
            king: sq("5a")
        }
    );
    // The side to move may be in check.
    assert!(pos("4k4/9/9/9/9/9/9/9/K3r4 b - 1").is_check());
}

#[test]
fn validation_messages_quote_the_offence() {
    let message = |sfen: &str| Position::from_sfen(sfen).unwrap_err().to_string();
    assert_eq!(message("4k4/9/9/9/9/9/9/9/9 b - 1"), "Black has no king");
    assert!(message("4k4/9/9/9/9/9/9/9/3KK4 b - 1").contains("5i 6i"));
    assert!(message("4k4/ppppppppp/9/9/9/9/PPPPPPPPP/9/4K4 b P 1").contains("19"));
    assert!(message("P3k4/9/9/9/9/9/9/9/4K4 b - 1").contains("9a"));
    assert!(message("4k4/9/9/9/9/9/P8/P8/4K4 b - 1").contains("file 9"));
    assert!(message("4k4/9/9/9/9/9/9/9/4K3Q b - 1").contains("`Q`"));
    assert!(message("4k4/9/9/9/9/9/9/9/4K3 b - 1").contains("`4K3`"));
    assert!(message("4k4/9/9/9/9/9/9/9/4K4 b 2x 1").contains("`2x`"));
}

#[test]
fn problem_positions_may_leave_out_a_king() {
    let setup = Setup::from_sfen("6l2/6nk1/6R2/5Lppp/9/9/9/9/9 b 2BNr4g4s2n2l15p 1").unwrap();
    let p = Position::from_setup(setup.clone(), KingRule::MayBeMissing).unwrap();
    assert!(!p.legal_moves().is_empty());
    assert!(Position::from_setup(setup, KingRule::BothRequired).is_err());
}

#[test]
fn usi_moves_are_checked_against_the_position() {
    let mut p = Position::startpos();
    assert_eq!(p.play_usi_line("7g7f 3c3d 8h2b+ 3a2b B*4e").unwrap(), 5);
    let err = p.play_usi_line("4e3d").unwrap_err();
    assert_eq!(err.ply, 1);
    assert!(
        matches!(err.kind, UsiMoveErrorKind::Illegal { .. }),
        "{err}"
    );

    let mut p = Position::startpos();
    let err = p.play_usi_line("7g7f 3c3d 7f7e 5a5b 2h2c").unwrap_err();
    assert_eq!(err.ply, 5);
    assert_eq!(err.text, "2h2c");
    assert_eq!(
        err.to_string(),
        "move 5: `2h2c` is illegal: the piece cannot reach that square"
    );
    let err = p.play_usi("7g7x", 9).unwrap_err();
    assert_eq!(err.kind, UsiMoveErrorKind::Syntax);
    assert!(err.to_string().contains("move 9: `7g7x`"));
}

#[test]
fn illegal_moves_say_why() {
    let p = Position::startpos();
    let why = |text: &str| p.check_legal(Move::from_usi(text).unwrap()).unwrap_err();
    assert_eq!(why("5e5d"), IllegalMove::NoPiece);
    assert_eq!(why("3c3d"), IllegalMove::NotOwnPiece);
    assert_eq!(why("5i4i"), IllegalMove::OwnPieceOnTarget);
    assert_eq!(why("2h2c"), IllegalMove::CannotReach);
    assert_eq!(why("7g7f+"), IllegalMove::CannotPromote);
    assert_eq!(why("P*5e"), IllegalMove::NotInHand);

    let p = pos("4k4/9/4P4/9/9/9/9/1L7/4K4 b Pl 1");
    let why = |text: &str| p.check_legal(Move::from_usi(text).unwrap()).unwrap_err();
    assert_eq!(why("8h8a"), IllegalMove::MustPromote);
    assert_eq!(why("P*5d"), IllegalMove::DoublePawn);
    assert_eq!(why("P*1a"), IllegalMove::DropDeadSquare);
    assert_eq!(why("P*5c"), IllegalMove::DropOnOccupied);
    assert!(p.is_legal(Move::from_usi("8h8a+").unwrap()));
    assert!(p.is_legal(Move::from_usi("8h8c").unwrap()));
}

#[test]
fn pinned_pieces_and_king_safety() {
    // The silver on 5h is pinned by the rook on 5a: it may only move along the file.
    let p = pos("k3r4/9/9/9/9/9/9/4S4/4K4 b - 1");
    let silver: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(sq("5h")))
        .map(|m| m.to_string())
        .collect();
    assert_eq!(silver, ["5h5g"]);
    let err = p.check_legal(Move::from_usi("5h4g").unwrap()).unwrap_err();
    assert_eq!(err, IllegalMove::KingLeftInCheck);
    // The king may not step along the rook's line, nor onto a defended square.
    assert!(!p.is_legal(Move::from_usi("5i5h").unwrap()));
}

#[test]
fn pawn_drop_mate_is_illegal() {
    let verdict = |sfen: &str| pos(sfen).check_legal(Move::from_usi("P*1b").unwrap());
    // The king on 1a is walled in by its own knight and pawn; the pawn on 1b
    // is supported by the silver on 2c.
    assert_eq!(
        verdict("7nk/7p1/7S1/9/9/9/9/9/4K4 b P 1"),
        Err(IllegalMove::PawnDropMate)
    );
    // The gold on 2b could take the pawn, but it is pinned by the bishop on 4d.
    assert_eq!(
        verdict("7nk/7g1/7S1/5B3/9/9/9/9/4K4 b P 1"),
        Err(IllegalMove::PawnDropMate)
    );
    // Unpinned, the gold takes: the drop is legal.
    assert_eq!(verdict("7nk/7g1/7S1/9/9/9/9/9/4K4 b P 1"), Ok(()));
    // The king's only escape, 2b, is covered by the silver that supports the pawn.
    assert_eq!(
        verdict("7nk/9/7S1/9/9/9/9/9/4K4 b P 1"),
        Err(IllegalMove::PawnDropMate)
    );
    // Without the support the king takes the pawn.
    assert_eq!(verdict("7nk/7p1/9/9/9/9/9/9/4K4 b P 1"), Ok(()));
    // A pawn drop mate is not a move: it is missing from the legal moves,
    // while other drops on the same square remain.
    let p = pos("7nk/7p1/7S1/9/9/9/9/9/4K4 b PG 1");
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(!moves.contains(&"P*1b".to_string()));
    assert!(moves.contains(&"G*1b".to_string()));
}

#[test]
fn check_and_mate() {
    // Fool's-mate-like: a gold drop on 5b supported by a pawn mates.
    let mut p = pos("3gkg3/9/4P4/9/9/9/9/9/4K4 b G 1");
    assert!(!p.is_check());
    p.play_usi("G*5b", 1).unwrap();
    assert!(p.is_check());
    assert!(
        !p.is_checkmate(),
        "the king can take on 5b? no: 5b is supported"
    );
}

#[test]
fn candidates_are_the_legal_moves_of_one_kind_to_one_square() {
    let p = pos("4k4/9/9/9/9/9/3S1S3/9/4K4 b S 1");
    let names = |c: &[Move]| {
        let mut v: Vec<String> = c.iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(
        names(&p.candidates(PieceKind::Silver, sq("5f"))),
        ["4g5f", "6g5f", "S*5f"]
    );
    // Into the zone: both promoting and not.
    let p = pos("4k4/9/9/3S5/9/9/9/9/4K4 b - 1");
    assert_eq!(
        names(&p.candidates(PieceKind::Silver, sq("5c"))),
        ["6d5c", "6d5c+"]
    );
    // A pinned silver is not a candidate, but is counted when pins are ignored.
    let p = pos("k3r4/9/9/9/9/9/9/4S4/3SK4 b - 1");
    assert_eq!(
        names(&p.candidates(PieceKind::Silver, sq("4g"))),
        Vec::<String>::new()
    );
    assert_eq!(
        names(&p.candidates_ignoring_pins(PieceKind::Silver, sq("4g"))),
        ["5h4g"]
    );
    assert_eq!(names(&p.candidates(PieceKind::Silver, sq("5g"))), ["5h5g"]);
}

#[test]
fn flip_is_a_rotation() {
    let start = Position::startpos();
    for sfen in [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
    ] {
        let p = pos(sfen);
        assert_eq!(p.flip().flip(), p);
        assert_ne!(p.flip().sfen(), p.sfen());
    }
    // 7g7f, flipped, is the white-first start after 3c3d.
    let mut after = start.clone();
    after.play_usi("7g7f", 1).unwrap();
    let mut white_first = Setup::startpos();
    white_first.side_to_move = Color::White;
    let mut mirrored = Position::from_setup(white_first, KingRule::BothRequired).unwrap();
    mirrored.play_usi("3c3d", 1).unwrap();
    assert_eq!(after.flip(), mirrored);
    assert_eq!(after.flip().key(), mirrored.key());
}

#[test]
fn flips_that_others_got_wrong() {
    let flipped = |sfen: &str| Setup::from_sfen(sfen).unwrap().flip().sfen();
    // A promoted piece keeps its `+` before its (now other-case) letter.
    assert_eq!(
        flipped("l4Ssnl/7k1/p1np1g1p1/1rp1PPp1p/3P5/2P2+bPPP/P5BK1/6S2/LN2RG2L b GSPgn3p 77"),
        "l2gr2nl/2s6/1kb5p/ppp+B2p2/5p3/P1Ppp1PR1/1P1G1PN1P/1K7/LNSs4L w GN3Pgsp 77"
    );
    assert_eq!(
        flipped("4k4/9/9/9/9/9/9/9/4K4 b S2Pb3p 1"),
        "4k4/9/9/9/9/9/9/9/4K4 w B3Ps2p 1"
    );
    assert_eq!(
        flipped("4k4/9/9/9/9/9/9/9/4K4 b 18P 1"),
        "4k4/9/9/9/9/9/9/9/4K4 w 18p 1"
    );
    assert_eq!(
        flipped("4k4/9/9/9/9/9/9/9/4K4 w 10p 1"),
        "4k4/9/9/9/9/9/9/9/4K4 b 10P 1"
    );
}

#[test]
fn handicap_starts_are_legal_with_white_to_move() {
    for handicap in Handicap::ALL {
        let p = Position::from_setup(handicap.setup(), KingRule::BothRequired).unwrap();
        let expected = if handicap == Handicap::Even {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(
            p.side_to_move(),
            expected,
            "{}",
            kifconv::handicap_name(handicap)
        );
        assert!(!p.legal_moves().is_empty());
    }
}

#[test]
fn repetition_key_ignores_the_move_number() {
    let mut p = Position::startpos();
    let start_key = p.key();
    p.play_usi_line("2h3h 8b7b 3h2h 7b8b").unwrap();
    assert_eq!(p.key(), start_key);
    assert_eq!(p.move_number(), 5);
    p.play_usi("2h3h", 5).unwrap();
    assert_ne!(p.key(), start_key);
}
