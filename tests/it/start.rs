//! A record's start is a checked `Position`: a start that breaks the rules
//! never becomes one, and a record a library user builds from a checked
//! handicap start goes through every writer and reads back as it was.

use kifconv::record::{NodeId, Record};
use kifconv::write::{Options, Positions};
use kifconv::{
    Color, Handicap, KingRule, Move, Piece, PieceKind, Position, Setup, SetupError, Square, Target,
};

/// The standard start with one piece put on `square` (`None` empties it).
fn startpos_with(square: &str, piece: Option<Piece>) -> Setup {
    let mut setup = Setup::startpos();
    setup.set_piece(Square::from_usi(square).unwrap(), piece);
    setup
}

/// Setups no game can start from are refused by every way of making a
/// `Position` (strict, lenient, `TryFrom`), so no `Record` can hold them:
/// `Record::new` takes only a `Position`.
#[test]
fn a_start_that_breaks_the_rules_makes_no_position() {
    let black_king = Some(Piece::new(Color::Black, PieceKind::King));
    let white_rook = Some(Piece::new(Color::White, PieceKind::Rook));
    let mut nineteen_pawns = Setup::startpos();
    nineteen_pawns.hands[0].add(PieceKind::Pawn);
    type Reason = fn(&SetupError) -> bool;
    let refused_by_all: [(&str, Setup, Reason); 3] = [
        ("two black kings", startpos_with("5e", black_king), |e| {
            matches!(
                e,
                SetupError::ExtraKing {
                    color: Color::Black,
                    ..
                }
            )
        }),
        ("nineteen pawns", nineteen_pawns, |e| {
            matches!(
                e,
                SetupError::TooManyPieces {
                    kind: PieceKind::Pawn,
                    count: 19,
                    max: 18
                }
            )
        }),
        // White's rook moved from 8b to 5b sees the black king on 5i down
        // a file opened at 5c and 5g, while White is to move.
        (
            "the side not to move in check",
            {
                let mut s = startpos_with("5b", white_rook);
                for empty in ["8b", "5c", "5g"] {
                    s.set_piece(Square::from_usi(empty).unwrap(), None);
                }
                s.side_to_move = Color::White;
                s
            },
            |e| {
                matches!(
                    e,
                    SetupError::OpponentInCheck {
                        color: Color::Black,
                        ..
                    }
                )
            },
        ),
    ];
    for (what, setup, reason) in refused_by_all {
        let strict = Position::from_setup(setup.clone(), KingRule::BothRequired).unwrap_err();
        let lenient = Position::from_setup_lenient(setup.clone()).unwrap_err();
        let tried = Position::try_from(setup).unwrap_err();
        assert!(reason(&strict), "{what}: {strict:?}");
        assert_eq!(lenient, strict, "{what}");
        assert_eq!(tried, strict, "{what}");
    }
    // A missing king is refused where both are required, and allowed
    // leniently, as a tsume record's start is.
    let no_white_king = startpos_with("5a", None);
    assert_eq!(
        Position::try_from(no_white_king.clone()).unwrap_err(),
        SetupError::MissingKing {
            color: Color::White
        }
    );
    let (tsume, problems) = Position::from_setup_lenient(no_white_king.clone()).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(Record::new(tsume).start, no_white_king);
}

/// A check given by one of two pawns on a file is still a check: the
/// lenient reading, which reports the doubled pawns and reads on, refuses
/// the start for the king that could be taken, as it would with one pawn.
/// (It once looked for the check after clearing the doubled file, found
/// none, and played on from a start whose cached checkers were wrong.)
#[test]
fn a_check_from_a_doubled_pawn_is_still_refused() {
    let black_pawn = Some(Piece::new(Color::Black, PieceKind::Pawn));
    // Black's pawn from 1g on 5b, below White's king on 5a, beside Black's
    // own on 5g; Black to move.
    let mut setup = startpos_with("5b", black_pawn);
    setup.set_piece(Square::from_usi("1g").unwrap(), None);
    let in_check = SetupError::OpponentInCheck {
        color: Color::White,
        king: Square::from_usi("5a").unwrap(),
    };
    assert_eq!(
        Position::from_setup_lenient(setup.clone()).unwrap_err(),
        in_check
    );
    // With the check gone (White's king moved to 4b), the same doubled
    // pawns are a problem reported beside a position.
    setup.set_piece(Square::from_usi("5a").unwrap(), None);
    setup.set_piece(
        Square::from_usi("4b").unwrap(),
        Some(Piece::new(Color::White, PieceKind::King)),
    );
    let (_, problems) = Position::from_setup_lenient(setup).unwrap();
    assert_eq!(
        problems,
        [SetupError::DoublePawn {
            color: Color::Black,
            file: 5
        }]
    );
}

/// A two-piece handicap start, made with `Position::from_sfen`, with White's
/// first moves and Black's replies, is written by every writer and read
/// back with the same start (the named handicap recognised) and moves; the
/// SFEN writer gives the start and the position after each move.
#[test]
fn every_writer_writes_a_record_with_a_checked_handicap_start() {
    let start = Position::from_sfen(&Handicap::TwoPieces.sfen()).unwrap();
    assert_eq!(start.side_to_move(), Color::White);
    let moves = ["6c6d", "7g7f", "5c5d", "2g2f"].map(|m| Move::from_usi(m).unwrap());
    for named in [None, Some(Handicap::TwoPieces)] {
        let mut record = Record::new(start.clone());
        record.handicap = named;
        let mut at = NodeId::ROOT;
        for mv in moves {
            at = record.tree.push(at, mv);
        }
        for target in [
            Target::Usi,
            Target::Kif,
            Target::Kifu,
            Target::Ki2,
            Target::Ki2u,
            Target::Csa,
            Target::Jkf,
            Target::Western,
        ] {
            let bytes = kifconv::write(&[record.clone()], target, &Options::default()).unwrap();
            let back = kifconv::read_bytes(&bytes).unwrap();
            let what = format!("{target:?}, named {named:?}");
            assert_eq!(back.len(), 1, "{what}");
            assert_eq!(back[0].start, start, "{what}");
            assert_eq!(back[0].handicap, Some(Handicap::TwoPieces), "{what}");
            let read_moves: Vec<Move> = back[0].tree.mainline_moves().collect();
            assert_eq!(read_moves, moves, "{what}");
        }
        let mut options = Options::default();
        options.positions = Positions::All;
        let sfen = kifconv::write(&[record.clone()], Target::Sfen, &options).unwrap();
        let sfen = String::from_utf8(sfen).unwrap();
        let mut expected = vec![start.sfen()];
        let mut pos = start.clone();
        for mv in moves {
            pos.play(mv).unwrap();
            expected.push(pos.sfen());
        }
        // The empty line that ends the game.
        expected.push(String::new());
        assert_eq!(
            sfen.lines().collect::<Vec<_>>(),
            expected,
            "named {named:?}"
        );
    }
}

/// Flipping a record flips its start position, and the flipped start of a
/// handicap game is no standard start (Black gives the pieces).
#[test]
fn a_flipped_record_starts_from_the_flipped_position() {
    let start = Position::from_sfen(&Handicap::Lance.sfen()).unwrap();
    let mut record = Record::new(start.clone());
    record.handicap = start.handicap();
    assert_eq!(record.handicap, Some(Handicap::Lance));
    record
        .tree
        .push(NodeId::ROOT, Move::from_usi("4a3b").unwrap());
    let flipped = record.flip();
    assert_eq!(flipped.start, start.flip());
    assert_eq!(flipped.start.side_to_move(), Color::Black);
    assert_eq!(flipped.handicap, None);
    assert_eq!(flipped.check(), Ok(()));
    assert_eq!(flipped.flip(), record);
}

/// A position equals exactly the setup it shows: another move number, side
/// to move, hand or board is another setup. Its board and its named start
/// read the same as the setup's.
#[test]
fn a_position_equals_the_setup_it_shows() {
    let pos = Position::startpos();
    assert_eq!(pos, Setup::startpos());
    assert_eq!(pos, pos.to_setup());
    assert_eq!(pos.board(), &Setup::startpos().board);
    let mut later = Setup::startpos();
    later.move_number = 2;
    let mut turned = Setup::startpos();
    turned.side_to_move = Color::White;
    let mut held = Setup::startpos();
    held.hands[0].add(PieceKind::Pawn);
    for other in [later, turned, held, startpos_with("7g", None)] {
        assert_ne!(pos, other, "{}", other.sfen());
    }
    for handicap in Handicap::ALL {
        let start = Position::from_sfen(&handicap.sfen()).unwrap();
        assert_eq!(start.handicap(), Some(handicap));
    }
    assert_eq!(
        Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1")
            .unwrap()
            .handicap(),
        None
    );
}

/// An error or warning about a start written as a diagram quotes the line
/// of the rank its square is on (KIF's `|` row, CSA's `P1`–`P9`), or the
/// diagram's first line when it names no square: the rendered error shows
/// the text, never an empty line.
#[test]
fn a_start_problem_quotes_the_row_of_its_square() {
    // CSA rows: White's king on 5a; Black's pawns on 5b (giving check)
    // and on 5g; Black to move.
    let csa = "P1 *  *  *  * -OU *  *  *  * \n\
               P2 *  *  *  * +FU *  *  *  * \n\
               P3 *  *  *  *  *  *  *  *  * \n\
               P4 *  *  *  *  *  *  *  *  * \n\
               P5 *  *  *  *  *  *  *  *  * \n\
               P6 *  *  *  *  *  *  *  *  * \n\
               P7 *  *  *  * +FU *  *  *  * \n\
               P8 *  *  *  *  *  *  *  *  * \n\
               P9 *  *  *  * +OU *  *  *  * \n\
               +\n";
    let error = kifconv::read_bytes(csa.as_bytes()).unwrap_err();
    assert_eq!(error.kind, kifconv::ErrorKind::Illegal);
    // The king in check is on 5a: rank 1, the first row.
    assert_eq!((error.location.line, error.location.column), (1, 1));
    assert!(error.location.source_line.starts_with("P1"), "{error:?}");
    assert!(
        error.render("x.csa").contains("1 | P1 *"),
        "{}",
        error.render("x.csa")
    );

    // Moving White's king to 4b takes the check away: the doubled pawns
    // and a White pawn on 1i (which could never move) are warnings, the
    // dead pawn at its row P9, the file-wide nifu at the first row.
    let csa = csa
        .replace(
            "P1 *  *  *  * -OU *  *  *  * ",
            "P1 *  *  *  *  *  *  *  *  * ",
        )
        .replace(
            "P2 *  *  *  * +FU *  *  *  * ",
            "P2 *  *  *  * +FU-OU *  *  * ",
        )
        .replace(
            "P9 *  *  *  * +OU *  *  *  * ",
            "P9 *  *  *  * +OU *  *  * -FU",
        );
    let records = kifconv::read_bytes(csa.as_bytes()).unwrap();
    let warnings: Vec<(u32, &str, &str)> = records[0]
        .warnings
        .iter()
        .filter(|w| w.message.contains("start position"))
        .map(|w| (w.line, w.text.get(..2).unwrap_or(""), w.message.as_str()))
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings.iter().any(|&(line, text, message)| line == 9
        && text == "P9"
        && message.contains("could never move")));
    assert!(warnings
        .iter()
        .any(|&(line, text, message)| line == 1 && text == "P1" && message.contains("nifu")));

    // A KIF hand line without a diagram: too many pawns is quoted there.
    let kif =
        "手合割：平手\n先手の持駒：歩十九\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let error = kifconv::read_bytes(kif.as_bytes()).unwrap_err();
    assert_eq!(error.location.line, 2, "{error:?}");
    assert_eq!(error.location.text, "先手の持駒：歩十九");
}

/// Pieces in hand written without a board diagram go into the hands of the
/// start the 手合割 names, with a warning at the hand line; when that start
/// cannot hold them (the even game has every piece on the board), the
/// error at the hand line says where they were put.
#[test]
fn hands_without_a_diagram_go_into_the_named_start() {
    let kif = "手合割：香落ち\n後手の持駒：香\n手数----指手---------消費時間--\n   1 ５二玉(51)\n";
    let records = kifconv::read_bytes(kif.as_bytes()).unwrap();
    let record = &records[0];
    let mut expected = Handicap::Lance.setup();
    expected.hands[Color::White.index()].add(PieceKind::Lance);
    assert_eq!(record.start.to_setup(), expected);
    assert_eq!(record.handicap, None);
    let warning = record
        .warnings
        .iter()
        .find(|w| w.message.contains("without a board diagram"))
        .expect("a warning about the hands");
    assert_eq!((warning.line, warning.text.as_str()), (2, "後手の持駒：香"));
    assert!(warning.message.contains("香落ち"), "{}", warning.message);
    assert_eq!(record.tree.mainline_moves().count(), 1);

    let kif = "先手の持駒：歩\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let error = kifconv::read_bytes(kif.as_bytes()).unwrap_err();
    assert_eq!(error.kind, kifconv::ErrorKind::Illegal);
    assert_eq!(
        (error.location.line, error.location.text.as_str()),
        (1, "先手の持駒：歩")
    );
    assert!(
        error.message.contains("19 pieces") && error.message.contains("平手 start"),
        "{}",
        error.message
    );
}
