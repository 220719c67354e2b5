//! `--uniq` compares whole games: two games with the same moves from
//! different starts (two handicaps, two tsume problems with the same
//! answer) are two games, for training data and for books alike.

use crate::util::bin::{assert_contains, run_ok, s, scratch_with, stderr};

/// The same two moves from the even start, from the lance handicap's
/// board with black to move, and from the even start again.
const GAMES: &str = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d\n\
position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d\n\
position startpos moves 7g7f 3c3d\n";

#[test]
fn games_from_different_starts_are_kept_apart() {
    let (dir, games) = scratch_with("uniq-starts", "games.usi", GAMES);
    // Training data: the third game repeats the first, start and moves.
    let out = run_ok(&[s(&games), "--to", "hcpe", "--uniq"]);
    assert_eq!(out.stdout.len(), 2 * 2 * 38, "{}", stderr(&out));
    assert_contains(&stderr(&out), "left out: --uniq 1 games (2 positions)");
    // A book: two games counted, one left out.
    let book = dir.join("b.db");
    let out = run_ok(&["book", "build", s(&games), "-o", s(&book), "--uniq"]);
    assert_contains(&stderr(&out), ": 2 games,");
    assert_contains(&stderr(&out), "left out: --uniq 1 games");
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(
        text.contains("sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 0 0 1\n"),
        "{text}"
    );
    assert!(
        text.contains("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 0 0 1\n"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
