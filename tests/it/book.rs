//! `kifconv book build` and `kifconv book query`: a flip-folded book of a
//! few games, queried for a white-to-move position, which is found through
//! its rotation with the moves rotated back.

use crate::util::bin::{run, scratch, stderr, stdout};

const GAMES: &str = "position startpos moves 7g7f 3c3d 2g2f\n\
position startpos moves 7g7f 3c3d 6g6f\n\
position startpos moves 7g7f 8c8d\n\
position startpos moves 2g2f 8c8d\n";

#[test]
fn a_flip_folded_book_answers_for_white() {
    let dir = scratch("book");
    let games = dir.join("games.usi");
    std::fs::write(&games, GAMES).unwrap();
    let book = dir.join("book.db");
    let (g, b) = (games.to_str().unwrap(), book.to_str().unwrap());
    let out = run(&["book", "build", g, "-o", b, "--flip-fold"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("positions, "), "{}", stderr(&out));
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\n"));
    // Black to move only: white's positions are stored rotated.
    assert!(text
        .lines()
        .filter(|l| l.starts_with("sfen "))
        .all(|l| l.contains(" b ")));
    // After 7g7f, white to move: stored as its rotation, whose moves 7g7f
    // (from 3c3d, twice) and 2g2f (from 8c8d) come back rotated.
    let rotated = "sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2\n7g7f none 0 0 2\n2g2f none 0 0 1\n";
    assert!(text.contains(rotated), "{text}");
    let out = run(&["book", "query", b, "position startpos moves 7g7f"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "# found as its rotation; the moves are rotated back\n3c3d none 0 0 2\n8c8d none 0 0 1\n"
    );
    // The start itself is stored as it is; SFEN and JSON.
    let out = run(&["book", "query", b, "startpos", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["flipped"], false);
    assert_eq!(json["moves"][0]["move"], "7g7f");
    assert_eq!(json["moves"][0]["count"], 3);
    // A position in neither form: exit 1.
    let out = run(&["book", "query", b, "position startpos moves 5g5f"]);
    assert_eq!(out.status.code(), Some(1));
    // The book is not replaced without --force.
    let out = run(&["book", "build", g, "-o", b]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("exists; give --force to replace it"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);
    let out = run(&[
        "book",
        "build",
        g,
        "-o",
        b,
        "--force",
        "--side",
        "black",
        "--max-ply",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&book).unwrap(),
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 0 0 3\n2g2f none 0 0 1\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Two books merged: counts of the same move added, the smaller ply kept,
/// moves re-sorted; a book from another tool with comments, CRLF and
/// missing fields is read.
#[test]
fn books_merge() {
    let dir = scratch("book-merge");
    let a = dir.join("a.db");
    let b = dir.join("b.db");
    let c = dir.join("c.db");
    std::fs::write(&a, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 3\n7g7f none 10 0 2\n2g2f none 0 0 1\n").unwrap();
    std::fs::write(&b, "#YANEURAOU-DB2016 1.00\r\n// from elsewhere\r\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\r\n2g2f 8c8d 30 8 5\r\n5g5f\r\n").unwrap();
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let out = run(&["book", "merge", &s(&a), &s(&b), "-o", &s(&c)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&c).unwrap(),
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n2g2f 8c8d 30 8 6\n7g7f none 10 0 2\n5g5f none 0 0 0\n"
    );
    let out = run(&["book", "merge", &s(&a), "-o", &s(&a), "--force"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(dir);
}
