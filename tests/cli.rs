//! The `kifconv` binary, run as a user would.

use std::process::Command;

fn kifconv(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kifconv"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

#[test]
fn prints_the_final_sfen_of_each_game() {
    let out = kifconv(&["fixtures/usi/shogihome-division-input.usi", "--to", "sfen"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "ln1gk2nl/1r1s1sgb1/p1pp1p1pp/1p2p1p2/9/2P1P2P1/PPSP1PP1P/1BG2S1R1/LN2KG1NL w - 14",
            "lns1kg1nl/1r2g1s2/p1ppp1bpp/5pp2/1p5P1/2P3P2/PPBPPPS1P/7R1/LNSGKG1NL b - 15",
            "ln1gk2nl/1r4gs1/p1pspp1pp/3p2p2/1p5P1/2P3P2/PPSPPPN1P/6SR1/LN1GKG2L b Bb 19",
        ]
    );
}

#[test]
fn usi_output_keeps_the_start() {
    let out = kifconv(&["fixtures/usi/handicap-and-drops.usi", "--to", "usi"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a6b 7g7f 3a3b",
            "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G2Pg 1 moves G*5b 5a5b P*5c",
        ]
    );
}

#[test]
fn an_illegal_move_is_reported_with_its_line_and_ply() {
    let dir = std::env::temp_dir().join(format!("kifconv-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.usi");
    std::fs::write(
        &file,
        "position startpos moves 7g7f\nposition startpos moves 7g7f 3c3d 2h2c 8c8d\n",
    )
    .unwrap();
    let out = kifconv(&[file.to_str().unwrap(), "--to", "sfen"]);
    assert_eq!(out.status.code(), Some(1));
    // The good game is still converted.
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "bad.usi:2:35: error: move 3: illegal move 2h2c: the piece cannot reach that square"
        ),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
