//! Positions given to the tools (`flip`, `mate`, `book query`) are read as
//! strictly as a record's moves: an illegal move is an error naming it, its
//! number and its column, the last move too; a start that breaks a rule
//! warns as conversion does.

use crate::util::bin::{assert_contains, run, run_ok, s, scratch_with, stderr, stdout};

/// The last move of the line was dropped without a word: the tool worked
/// on the position before it.
#[test]
fn an_illegal_last_move_is_an_error_naming_it() {
    let out = run(&["flip", "position startpos moves 7g7f 7g7f"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        concat!(
            "error: move 2: illegal move 7g7f: there is no piece on the origin square (column 30)\n",
            "  position startpos moves 7g7f 7g7f\n",
            "                               ^^^^\n",
        )
    );
    // In the middle of the line, in an SFEN line, and for every tool.
    let line = "sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1 moves G*5b 5a5b";
    for args in [
        vec!["flip", "position startpos moves 7g7f 7g7f 3c3d"],
        vec!["mate", line],
        vec!["mate", line, "--depth", "3"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).starts_with("error: move 2: "),
            "{}",
            stderr(&out)
        );
    }
    let (dir, games) = scratch_with(
        "positions-book",
        "g.usi",
        "position startpos moves 7g7f 3c3d\n",
    );
    let book = dir.join("b.db");
    run_ok(&["book", "build", s(&games), "-o", s(&book)]);
    let out = run(&[
        "book",
        "query",
        s(&book),
        "position startpos moves 7g7f 7g7f",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !stderr(&out).contains("not in the book"),
        "{}",
        stderr(&out)
    );
    assert_contains(&stderr(&out), "move 2");
    let _ = std::fs::remove_dir_all(dir);
}

/// A start with two black pawns on file 5 is worked on, with the warning
/// conversion gives; a start that cannot be played at all is refused.
#[test]
fn a_start_that_breaks_a_rule_warns() {
    let nifu = "lnsgkgsnl/1r5b1/ppppppppp/9/4P4/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 1";
    let out = run_ok(&["flip", nifu]);
    assert_eq!(
        stdout(&out),
        "lnsgkgsnl/1r5b1/p1ppppppp/9/4p4/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1\n"
    );
    assert_eq!(
        stderr(&out),
        "<position>:1:1: warning: the start position breaks a rule: Black has two unpromoted pawns on file 5 (nifu)\n"
    );
    let out = run(&["flip", "startpos"]);
    assert_eq!(stderr(&out), "");
    let out = run(&[
        "flip",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&stderr(&out), "19 pieces of kind P");
    assert_contains(&stderr(&out), "(column 1)");
}
