//! The Western-notation reader: every fixture under fixtures/western/ read
//! through the resolver to the exact moves, the bad ones to located errors,
//! random games written in Western notation read back to the same moves,
//! and no panic on any input.

use crate::util::games::{game_of, usi_moves};
use crate::util::write::{stream, text as written};
use kifconv::error::{Error, ErrorKind};
use kifconv::read::{read_games, read_text, Format};
use kifconv::record::{NodeId, Record};
use kifconv::{Handicap, Move, PieceKind, Position, Square, Target};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/western")
        .join(name)
}

/// Every game of a text, read and resolved.
fn read(text: &str) -> Result<Vec<Record>, Error> {
    read_text(text, Format::Western)
}

fn final_sfen(record: &Record) -> String {
    record.final_position().sfen()
}

fn read_fixture(name: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(fixture_path(name)).unwrap();
    read(&text).unwrap_or_else(|e| panic!("{}", e.render(name)))
}

/// The only game of a fixture, which must read without warnings.
fn one_game(name: &str) -> Record {
    let mut games = read_fixture(name);
    assert_eq!(games.len(), 1, "{name}");
    let game = games.remove(0);
    assert!(game.warnings.is_empty(), "{name}: {:?}", game.warnings);
    game
}

fn headers(record: &Record) -> Vec<(&str, &str)> {
    record
        .headers
        .iter()
        .map(|h| (h.key.as_str(), h.value.as_str()))
        .collect()
}

/// The comments of each node that has any, as (ply, comments).
fn comments(record: &Record) -> Vec<(u32, Vec<&str>)> {
    std::iter::once(NodeId::ROOT)
        .chain(record.tree.ids())
        .map(|id| record.tree.node(id))
        .filter(|node| !node.comments().is_empty())
        .map(|node| {
            let texts = node.comments().iter().map(String::as_str).collect();
            (node.ply, texts)
        })
        .collect()
}

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

#[test]
fn moves_numbered_in_pairs() {
    let game = one_game("pairs-numbered.psn");
    assert_eq!(
        usi_moves(&game),
        "7g7f 3c3d 2g2f 4c4d 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 4i5h 6a5b 5g5f 3a3b 7i6h 7b8b 2f2e 2b3c"
    );
    assert_eq!(game.start.sfen(), STARTPOS);
    assert_eq!(game.handicap, Some(Handicap::Even));
    assert_eq!(
        headers(&game),
        [
            ("Event", "Club game"),
            ("Sente", "Black"),
            ("Gote", "White"),
            ("Result", "1-0"),
        ]
    );
    assert_eq!(
        comments(&game),
        [
            (0, vec!["A Static Rook game against a Fourth-File Rook."]),
            (12, vec!["both golds could go to 5h and to 5b"]),
        ]
    );
    assert_eq!(
        final_sfen(&game),
        "lns2g1nl/1k2grs2/ppppp1bpp/5pp2/7P1/2P1P4/PP1P1PP1P/1BKSGS1R1/LN1G3NL b - 19"
    );
}

#[test]
fn moves_numbered_one_by_one_and_glued() {
    let game = one_game("plies-glued.psn");
    // `Bx2b=` declines the promotion: 8h2b, not 8h2b+.
    assert_eq!(
        usi_moves(&game),
        "7g7f 3c3d 8h2b 3a2b 7i8h 2b3c B*4e B*3b 2g2f"
    );
    assert_eq!(
        comments(&game),
        [
            (0, vec!["each move numbered, glued to its number"]),
            (8, vec!["?"]),
        ]
    );
    assert_eq!(
        final_sfen(&game),
        "lnsgkg1nl/1r4b2/ppppppspp/6p2/5B3/2P4P1/PP1PPPP1P/1S5R1/LN1GKGSNL w - 10"
    );
}

#[test]
fn no_numbers_and_numeric_squares() {
    let game = one_game("no-numbers.psn");
    assert_eq!(
        usi_moves(&game),
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f"
    );
    assert_eq!(
        final_sfen(&game),
        "lnsgk1snl/1r4gb1/p1pppp1pp/6p2/1p7/2P4R1/PP1PPPP1P/1BG6/LNS1KGSNL w P 14"
    );
}

#[test]
fn ellipsis_numbers_in_every_spelling() {
    let game = one_game("ellipsis.psn");
    assert_eq!(usi_moves(&game), "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a4b");
}

#[test]
fn annotations_become_comments_on_their_move() {
    let game = one_game("annotations.psn");
    assert_eq!(usi_moves(&game), "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 3a4b");
    assert_eq!(
        comments(&game),
        [
            (1, vec!["!"]),
            (2, vec!["?"]),
            (3, vec!["!!"]),
            (4, vec!["??"]),
            (5, vec!["!?"]),
            (6, vec!["?!"]),
            (7, vec!["a quiet move"]),
            (8, vec!["!?"]),
        ]
    );
}

#[test]
fn captures_drops_promotions_and_promoted_pieces() {
    let game = one_game("rook-rush.psn");
    assert_eq!(
        usi_moves(&game),
        "2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d2c+ 8f8h+ 7i8h B*5e 2c2b 3a2b \
         R*8b P*8d 8b8d+ 5e3g+ 3i4h 3g1i 8d8a 1i2h"
    );
    assert_eq!(
        final_sfen(&game),
        "l+Rsgkg1nl/7s1/p1ppppp1p/9/9/9/P1PPPP2P/1S3S1+b1/LN1GKG1N1 b BN3Prl2p 25"
    );
    // A `{…}` comment over two lines is two comments.
    assert_eq!(comments(&game)[0].1.len(), 2);
}

#[test]
fn origins_tell_twin_pieces_apart() {
    let game = one_game("disambiguation.psn");
    assert_eq!(
        usi_moves(&game),
        "6e5d 5a6a 4g5e 6a5a 6i5h 5a6a 5e4c 6a7b 1c2c 7b7a 4e3d 7a7b 2c2b 7b7a"
    );
    assert_eq!(game.start.sfen(), "4k4/9/8+P/9/3S1S3/9/3N1N3/9/3GKG3 b r 1");
    assert_eq!(
        final_sfen(&game),
        "2k6/7+P1/5N3/4S1S2/9/9/3N5/4G4/4KG3 b r 15"
    );
    // Without their origins, the same moves are ambiguous.
    let sfen = "[SFEN \"4k4/9/8+P/9/3S1S3/9/3N1N3/9/3GKG3 b r 1\"]\n";
    for (text, candidates) in [
        ("1. S-5d", "4e5d 6e5d"),
        ("1. N-5e", "4g5e 6g5e"),
        ("1. G-5h", "4i5h 6i5h"),
    ] {
        let err = read(&format!("{sfen}{text}")).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Illegal);
        assert!(err.message.ends_with(candidates), "{}", err.message);
    }
}

#[test]
fn sfen_tag_sets_the_start() {
    let game = one_game("sfen-start.psn");
    assert_eq!(
        game.start.sfen(),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4"
    );
    assert_eq!(usi_moves(&game), "4c4d 2f2e 2b3c 3i4h 3a4b");
    assert_eq!(game.header("SFEN"), Some(game.start.sfen().as_str()));
    assert_eq!(
        final_sfen(&game),
        "lnsgkg1nl/1r3s3/ppppp1bpp/5pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9"
    );
}

#[test]
fn mate_claims_a_real_mate() {
    let game = one_game("mate.psn");
    assert_eq!(usi_moves(&game), "G*5b");
    assert_eq!(final_sfen(&game), "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2");
    assert!(game.final_position().is_checkmate());
    assert_eq!(game.header("Result"), Some("1-0"));
}

#[test]
fn handicap_by_english_name() {
    let game = one_game("handicap-english.psn");
    assert_eq!(game.handicap, Some(Handicap::TwoPieces));
    assert_eq!(game.start, Handicap::TwoPieces.setup());
    assert_eq!(usi_moves(&game), "3c3d 7g7f 4c4d 3i4h 4a3b 2g2f 3a4b");
    assert_eq!(game.header("Handicap"), Some("2-Piece"));
}

#[test]
fn handicap_by_japanese_name_numbered_from_the_first_mover() {
    let game = one_game("handicap-japanese.psn");
    assert_eq!(game.handicap, Some(Handicap::Lance));
    assert_eq!(usi_moves(&game), "3c3d 7g7f 4c4d 2g2f 3a4b 3i4h");
}

#[test]
fn several_games_in_one_file() {
    let games = read_fixture("multi-game.psn");
    assert_eq!(games.len(), 3);
    assert_eq!(usi_moves(&games[0]), "7g7f 3c3d 2g2f 4c4d");
    assert_eq!(headers(&games[0]), [("Event", "Game 1"), ("Result", "0-1")]);
    assert_eq!(usi_moves(&games[1]), "2g2f 8c8d 2f2e 8d8e");
    // No Result tag, and `*` (unknown) as the result: nothing to keep.
    assert_eq!(headers(&games[1]), [("Event", "Game 2")]);
    assert_eq!(usi_moves(&games[2]), "3c3d 7g7f 8c8d");
    assert_eq!(games[2].handicap, Some(Handicap::Bishop));
    for game in &games {
        assert!(game.warnings.is_empty(), "{:?}", game.warnings);
        assert!(game.ending().is_none());
    }
}

/// Every line of the tree, from the start to each leaf, in USI, depth
/// first in the order of the children, with the leaf's ending.
fn lines(record: &Record) -> Vec<String> {
    let tree = &record.tree;
    let mut out = Vec::new();
    let mut stack = vec![NodeId::ROOT];
    while let Some(id) = stack.pop() {
        let children: Vec<NodeId> = tree.children(id).collect();
        if children.is_empty() {
            let mut path = Vec::new();
            let mut at = id;
            while let Some(mv) = tree.node(at).mv {
                path.push(mv.to_string());
                at = tree.node(at).parent.unwrap();
            }
            path.reverse();
            let end = tree
                .node(id)
                .ending()
                .as_ref()
                .map_or(String::new(), |e| format!(" {:?} {:?}", e.kind, e.winner));
            out.push(format!("{}{end}", path.join(" ")));
        }
        stack.extend(children.into_iter().rev());
    }
    out
}

#[test]
fn variations_in_parentheses_nest_and_end() {
    use kifconv::record::EndingKind::Resign;
    let game = one_game("variations.psn");
    assert_eq!(
        lines(&game),
        [
            "7g7f 3c3d 2g2f 4c4d 3i4h Resign Some(Black)",
            "7g7f 8c8d 2g2f",
            "2g2f 8c8d 2f2e Abort None",
            "2g2f 3c3d 2f2e",
            "5g5f",
        ]
    );
    let root: Vec<Move> = game
        .tree
        .children(NodeId::ROOT)
        .filter_map(|c| game.tree.node(c).mv)
        .collect();
    assert_eq!(root.len(), 3);
    assert_eq!(
        comments(&game),
        [
            (
                0,
                vec![
                    "Variations in parentheses after the move they replace, nested, with",
                    "comments and a terminal word in each."
                ]
            ),
            (1, vec!["the other opening"]),
        ]
    );
    assert_eq!(game.ending().map(|e| e.kind), Some(Resign));
    assert_eq!(game.header("Result"), Some("1-0"));
}

#[test]
fn variation_errors_are_located() {
    let cases = [
        ("(1. P-7f)", "1:1", "a variation with no move before it"),
        ("1. P-7f )", "1:9", "`)` with no variation open"),
        ("1. P-7f () P-3d", "1:9", "an empty variation"),
        (
            "1. P-7f (1. P-2f 1-0)",
            "1:18",
            "a result inside the variation",
        ),
        (
            "1. P-7f 1-0 (1. P-2f)",
            "1:13",
            "a variation after the result",
        ),
        (
            "1. P-7f (1. P-2f\n[Event \"x\"]\n1. P-7f",
            "1:9",
            "never closed",
        ),
    ];
    for (text, at, message) in cases {
        let err = read(text).unwrap_err();
        assert_eq!(
            format!("{}:{}", err.location.line, err.location.column),
            at,
            "{text}"
        );
        assert!(err.message.contains(message), "{text}: {}", err.message);
    }
}

#[test]
fn terminal_words_end_their_line() {
    let games = read("1. P-7f P-3d 2. P-2f 中断").unwrap();
    let ending = games[0].ending().unwrap();
    assert_eq!(ending.kind, kifconv::record::EndingKind::Abort);
    assert_eq!(ending.text, "中断");
    // A word the builder does not know is kept, with a warning.
    let games = read("1. P-7f 謎").unwrap();
    assert_eq!(games[0].ending().unwrap().text, "謎");
    assert_eq!(games[0].warnings.len(), 1, "{:?}", games[0].warnings);
    // A move after the word is an error.
    assert!(read("1. P-7f 投了 1... P-3d").is_err());
}

#[test]
fn written_variations_endings_and_tags_read_back() {
    let game = one_game("variations.psn");
    let text = written(&game, Target::Western);
    let back = read(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.render("written")));
    assert_eq!(back.len(), 1, "{text}");
    assert_eq!(lines(&back[0]), lines(&game), "{text}");
    assert_eq!(comments(&back[0]), comments(&game), "{text}");
    assert_eq!(headers(&back[0]), headers(&game), "{text}");
    assert!(
        back[0].warnings.is_empty(),
        "{:?}\n{text}",
        back[0].warnings
    );
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "1. P-7f (1. P-2f {the other opening} P-8d (1... P-3d 2. P-2e) 2. P-2e 中断) (1. P-5f) 1... P-3d (1... P-8d 2. P-2f) 2. P-2f"
        ),
        "{text}"
    );
    assert!(flat.ends_with("3. S-4h 投了 1-0"), "{text}");
}

#[test]
fn games_written_one_after_another_read_back_apart() {
    let games = [
        game_of(STARTPOS, "7g7f 3c3d"),
        game_of(STARTPOS, "2g2f"),
        game_of(STARTPOS, ""),
    ];
    let text = stream(&games, Target::Western);
    let back = read(&text).unwrap();
    assert_eq!(back.len(), 3, "{text}");
    for (a, b) in games.iter().zip(&back) {
        assert_eq!(usi_moves(a), usi_moves(b), "{text}");
    }
}

#[test]
fn the_start_keeps_its_move_number() {
    let even_late = STARTPOS.replace(" b - 1", " b - 31");
    let handicap = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    for sfen in [STARTPOS, even_late.as_str(), handicap] {
        let game = game_of(sfen, "");
        let text = written(&game, Target::Western);
        let back = read(&text).unwrap();
        assert_eq!(back[0].start.sfen(), sfen, "{text}");
    }
    let text = written(&game_of(&even_late, "7g7f 3c3d"), Target::Western);
    assert!(text.contains("16. P-7f P-3d"), "{text}");
}

#[test]
fn headers_no_tag_can_hold_are_kept_as_comments() {
    let mut game = game_of(STARTPOS, "7g7f");
    for (key, value) in [
        ("先手", "羽生"),
        ("対局 場所", "東京"),
        ("備考", "a \"b\" c"),
        ("Handicap", "Queen"),
    ] {
        game.headers.push(kifconv::record::Header {
            key: key.into(),
            value: value.into(),
        });
    }
    let text = written(&game, Target::Western);
    // 先手 is written as Western's tag for Black's player.
    assert!(
        text.starts_with(
            "[Sente \"羽生\"]\n{対局 場所:東京}\n{備考:a \"b\" c}\n{Handicap:Queen}\n1. P-7f *\n"
        ),
        "{text}"
    );
    let back = &read(&text).unwrap()[0];
    assert_eq!(headers(back), [("Sente", "羽生")]);
    assert_eq!(
        comments(back)[0].1,
        ["対局 場所:東京", "備考:a \"b\" c", "Handicap:Queen"]
    );
}

#[test]
fn every_fixture_is_tested() {
    let tested = [
        "annotations.psn",
        "disambiguation.psn",
        "ellipsis.psn",
        "handicap-english.psn",
        "handicap-japanese.psn",
        "mate.psn",
        "multi-game.psn",
        "no-numbers.psn",
        "pairs-numbered.psn",
        "plies-glued.psn",
        "rook-rush.psn",
        "sfen-start.psn",
        "variations.psn",
    ];
    let mut found: Vec<String> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    found.sort();
    assert_eq!(found, tested);
}

// ---------------------------------------------------------------------------
// Warnings: read leniently, never silently.
// ---------------------------------------------------------------------------

fn warnings(text: &str) -> Vec<String> {
    let games = read(text).unwrap();
    games
        .iter()
        .flat_map(|g| g.warnings.iter().map(|w| w.to_string()))
        .collect()
}

#[test]
fn move_numbers_that_disagree_are_warnings() {
    let w = warnings("1. P-7f P-3d 2. P-2f P-4d 4. P-2e B-3c 5. S-4h");
    assert_eq!(
        w,
        ["1:27: move number `4.` does not fit the moves before it (expected `3.`) (`4.`)"]
    );
    let w = warnings("3. P-7f P-3d");
    assert_eq!(
        w,
        ["1:1: move number `3.` does not fit the moves before it (expected `1.`) (`3.`)"]
    );
    // Per-move numbering with a slip.
    let w = warnings("1.P-7f 2.P-3d 3.P-2f 5.P-4d 6.P-2e");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("expected `4.`"), "{w:?}");
    let w = warnings("1. P-7f 2.");
    assert_eq!(w, ["1:9: a move number with no move after it (`2.`)"]);
    // `N. ...` is one number, warned about as written.
    let w = warnings("1. P-7f P-3d 3. ... P-2f");
    assert_eq!(
        w,
        ["1:14: move number `3. ...` does not fit the moves before it (expected `2.`) (`3. ...`)"]
    );
}

#[test]
fn result_and_handicap_disagreements_are_warnings() {
    let w = warnings("[Result \"1-0\"]\n1. P-7f P-3d 0-1");
    assert_eq!(w.len(), 1);
    assert!(w[0].contains("disagrees with the Result tag"), "{w:?}");
    let text = format!("[Handicap \"Bishop\"]\n[SFEN \"{STARTPOS}\"]\n1. P-7f");
    let games = read(&text).unwrap();
    assert_eq!(games[0].start.sfen(), STARTPOS);
    assert_eq!(games[0].warnings.len(), 1);
    let w =
        warnings("[SFEN \"4k4/9/9/9/9/9/9/9/4K4 b G 1\"]\n[SFEN \"4k4/9/9/9/9/9/9/9/4K4 b - 1\"]");
    assert_eq!(w.len(), 1);
    assert!(w[0].contains("second SFEN tag"), "{w:?}");
}

#[test]
fn comments_and_empty_texts() {
    assert!(read("").unwrap().is_empty());
    // A comment alone is a game with no moves.
    let games = read("{just a note}").unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tree.root().comments(), ["just a note"]);
    // Tags after tags stay in the same game; tags after moves start another.
    let games = read("[A \"1\"]\n[B \"2\"]\nP-7f\n[C \"3\"]\nP-2f").unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].headers.len(), 2);
    assert_eq!(usi_moves(&games[1]), "2g2f");
    // A BOM and CRLF line endings.
    let games = read("\u{feff}[Sente \"A\"]\r\n1. P-7f P-3d\r\n").unwrap();
    assert_eq!(games[0].header("Sente"), Some("A"));
    assert_eq!(usi_moves(&games[0]), "7g7f 3c3d");
}

// ---------------------------------------------------------------------------
// Bad inputs: located errors.
// ---------------------------------------------------------------------------

fn bad(name: &str) -> (Error, String) {
    let path = format!("fixtures/western/bad/{name}");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)).unwrap();
    let err = match read(&text) {
        Ok(games) => panic!("{name} read without error: {:?}", games.len()),
        Err(e) => e,
    };
    let rendered = err.render(&path);
    (err, rendered)
}

/// Each bad fixture: its kind, where the error points, the text under the
/// caret, and words the message must contain.
const BAD: [(&str, ErrorKind, &str, &str, &[&str]); 15] = [
    (
        "ambiguous-gold.psn",
        ErrorKind::Illegal,
        "2:17",
        "G-5h",
        &["ambiguous", "4i5h 6i5h"],
    ),
    (
        "false-capture.psn",
        ErrorKind::Illegal,
        "1:4",
        "Px7f",
        &["7g7f: the text says it captures, it does not"],
    ),
    (
        "dash-on-capture.psn",
        ErrorKind::Illegal,
        "2:4",
        "B-2b+",
        &["8h2b+: the text says it does not capture, it does"],
    ),
    (
        "false-mate.psn",
        ErrorKind::Illegal,
        "1:4",
        "P-7f#",
        &["7g7f: the text claims mate, the move does not mate"],
    ),
    (
        "decline-impossible.psn",
        ErrorKind::Illegal,
        "1:4",
        "P-7f=",
        &["could not promote here"],
    ),
    (
        "promote-impossible.psn",
        ErrorKind::Illegal,
        "1:4",
        "P-7f+",
        &["7g7f: the text says 成 (promote), this does not"],
    ),
    (
        "origin-without-piece.psn",
        ErrorKind::Illegal,
        "1:4",
        "P7e-7d",
        &["no piece of the mover's on the origin square 7e"],
    ),
    (
        "unknown-piece.psn",
        ErrorKind::Syntax,
        "1:17",
        "Q",
        &["expected a piece letter"],
    ),
    (
        "bad-square.psn",
        ErrorKind::Syntax,
        "1:19",
        "2j",
        &["expected a square"],
    ),
    (
        "drop-promotes.psn",
        ErrorKind::Syntax,
        "1:35",
        "+",
        &["a dropped piece cannot promote"],
    ),
    (
        "unclosed-comment.psn",
        ErrorKind::Syntax,
        "1:14",
        "{",
        &["never closed"],
    ),
    (
        "move-after-result.psn",
        ErrorKind::Syntax,
        "2:4",
        "P-2f",
        &["a move after the result `1-0` on line 1"],
    ),
    (
        "unknown-handicap.psn",
        ErrorKind::Syntax,
        "1:12",
        "Queen",
        &["unknown handicap `Queen`", "2-Piece", "香落ち"],
    ),
    (
        "bad-sfen.psn",
        ErrorKind::Syntax,
        "1:8",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
        &["not a valid SFEN", "`X`"],
    ),
    (
        "unclosed-variation.psn",
        ErrorKind::Syntax,
        "1:9",
        "(",
        &["a variation opened with `(` is never closed"],
    ),
];

#[test]
fn bad_fixtures_are_located_errors() {
    for (name, kind, place, text, words) in BAD {
        let (err, rendered) = bad(name);
        assert_eq!(err.kind, kind, "{rendered}");
        // Errors keep the first 60 characters of the offending text.
        let clipped: String = text.chars().take(60).collect();
        assert_eq!(err.location.text, clipped, "{rendered}");
        let head = format!("fixtures/western/bad/{name}:{place}: error: ");
        assert!(rendered.starts_with(&head), "{rendered}");
        for word in words {
            assert!(
                rendered.contains(word),
                "{name}: no `{word}` in\n{rendered}"
            );
        }
        // The caret line sits under the offending text.
        let caret = rendered.lines().nth(3).unwrap();
        assert!(
            caret.trim_start_matches(' ').starts_with("| "),
            "{rendered}"
        );
    }
    let mut found: Vec<String> = std::fs::read_dir(fixture_path("bad"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut listed: Vec<&str> = BAD.iter().map(|b| b.0).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn ambiguity_renders_like_a_compiler() {
    let (_, rendered) = bad("ambiguous-gold.psn");
    assert_eq!(
        rendered,
        "fixtures/western/bad/ambiguous-gold.psn:2:17: error: move 3: ambiguous: 2 moves of 金 (KI) to 5h fit the text: 4i5h 6i5h; each of them lets every later move be played, so the record does not say which\n  |\n2 | 1. P-7f P-3d 2. G-5h P-8d\n  |                 ^^^^\n"
    );
}

// ---------------------------------------------------------------------------
// Random games written in Western notation read back to the same moves.
// ---------------------------------------------------------------------------

fn letter(kind: PieceKind, aliases: bool) -> &'static str {
    use PieceKind::*;
    match kind {
        Pawn => "P",
        Lance => "L",
        Knight => "N",
        Silver => "S",
        Gold => "G",
        Bishop => "B",
        Rook => "R",
        King => "K",
        ProPawn if aliases => "T",
        ProPawn => "+P",
        ProLance => "+L",
        ProKnight => "+N",
        ProSilver => "+S",
        Horse if aliases => "H",
        Horse => "+B",
        Dragon if aliases => "D",
        Dragon => "+R",
    }
}

fn square_text(sq: Square, numeric: bool) -> String {
    if numeric {
        format!("{}{}", sq.file(), sq.rank())
    } else {
        sq.to_string()
    }
}

/// How a random game writes its moves.
#[derive(Clone, Copy, Debug)]
struct Style {
    numeric: bool,
    aliases: bool,
    /// Leave the separator out when the move is not a drop.
    bare: bool,
    /// Write `=` where a promotion was declined.
    equals: bool,
    /// Write the origin on every board move, not only when needed.
    origins: bool,
}

/// `mv` in Western notation, with the origin when another piece of the same
/// kind could also go there (or always, if the style says).
fn write_move(pos: &Position, mv: Move, style: Style) -> String {
    match mv {
        Move::Drop { kind, to } => {
            format!("{}*{}", letter(kind, false), square_text(to, style.numeric))
        }
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).unwrap().kind;
            let twins = pos
                .candidates(kind, to)
                .iter()
                .filter_map(|m| m.from())
                .any(|f| f != from);
            let mut out = letter(kind, style.aliases).to_string();
            if twins || style.origins {
                out.push_str(&square_text(from, style.numeric));
            }
            let captures = pos.piece_at(to).is_some();
            if !style.bare || twins || style.origins {
                out.push(if captures { 'x' } else { '-' });
            }
            out.push_str(&square_text(to, style.numeric));
            let could = pos.is_legal(Move::Normal {
                from,
                to,
                promote: true,
            });
            if promote {
                out.push('+');
            } else if could && style.equals {
                out.push('=');
            }
            out
        }
    }
}

/// A random game from the start: the moves, and its Western text.
fn random_game(choices: &[u16], style: Style, per_ply: bool) -> (Vec<Move>, String) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut text = String::from("[Sente \"random\"]\n");
    for (i, &c) in choices.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[c as usize % legal.len()];
        let mut written = write_move(&pos, mv, style);
        pos.play(mv).unwrap();
        if pos.is_checkmate() {
            written.push('#');
        }
        if per_ply {
            text.push_str(&format!("{}.{written} ", i + 1));
        } else if i % 2 == 0 {
            text.push_str(&format!("{}. {written} ", i / 2 + 1));
        } else {
            text.push_str(&format!("{written}\n"));
        }
        moves.push(mv);
    }
    (moves, text)
}

fn style() -> impl Strategy<Value = Style> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(numeric, aliases, bare, equals, origins)| Style {
            numeric,
            aliases,
            bare,
            equals,
            origins,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_read_back(
        choices in prop::collection::vec(any::<u16>(), 0..120),
        style in style(),
        per_ply in any::<bool>(),
    ) {
        let (moves, text) = random_game(&choices, style, per_ply);
        let games = read(&text).map_err(|e| {
            TestCaseError::fail(format!("{}\n{text}", e.render("random.psn")))
        })?;
        prop_assert_eq!(games.len(), 1);
        let read_moves: Vec<Move> = games[0].tree.mainline_moves().collect();
        prop_assert_eq!(read_moves, moves, "{}", text);
        prop_assert!(games[0].warnings.is_empty(), "{:?}\n{}", games[0].warnings, text);
    }
}

// ---------------------------------------------------------------------------
// No panic, whatever the input.
// ---------------------------------------------------------------------------

fn good_and_bad_fixtures() -> Vec<String> {
    ["", "bad"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(fixture_path(dir)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// A fixture with characters replaced, inserted or deleted, mostly ones the
/// notation uses.
fn mutated_fixture() -> impl Strategy<Value = String> {
    let texts = good_and_bad_fixtures();
    let alphabet: Vec<char> = "PLNSGBRKTHD+-x*=#!?.…0123456789abcdefghij[]{}()\"; \n\u{3000}香é"
        .chars()
        .collect();
    let edit = (any::<usize>(), 0u8..3, prop::sample::select(alphabet));
    (0..texts.len(), prop::collection::vec(edit, 1..8)).prop_map(move |(i, edits)| {
        let mut chars: Vec<char> = texts[i].chars().collect();
        crate::util::edits::apply(&mut chars, edits);
        chars.into_iter().collect()
    })
}

fn never_panics(text: &str) {
    if let Ok(games) = read_games(text, Format::Western) {
        for record in games.into_iter().flatten() {
            let _ = final_sfen(&record);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_fixtures_never_panic(text in mutated_fixture()) {
        never_panics(&text);
    }

    #[test]
    fn western_looking_junk_never_panics(
        text in "([PLNSGBRKTHD+x*=#!?.…0-9a-j\\[\\]{}()\"; -]|\n){0,120}"
    ) {
        never_panics(&text);
    }

    #[test]
    fn any_text_never_panics(text in "\\PC{0,200}") {
        never_panics(&text);
    }
}
