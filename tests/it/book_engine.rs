//! kifconv's books against the real engine
//! (`../shared/tools/engines/engine.sh material`): the engine's own
//! `makebook peta_shock` reads a `.ybb` kifconv wrote and writes one that
//! kifconv reads and writes again to the same bytes, and the engine plays
//! a book move from a book kifconv wrote in each format (`.db`, `.ybb`,
//! `.bin`, the last two made by `kifconv book convert`), also for a
//! white-to-move position found through FlippedBook.

use crate::util::bin::{run_ok, s, scratch, stderr};
use kifconv::book::build::{Builder, Options};
use kifconv::book::{db2016, file, ybb, Book};
use kifconv::read::{read_text, Format};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Games whose lines meet again (transpositions), so that peta_shock has
/// values to back up through more than one move.
const GAMES: &str = "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b\n\
position startpos moves 2g2f 8c8d 7g7f 3c3d 2f2e 8d8e 6i7h 4a3b\n\
position startpos moves 7g7f 8c8d 2g2f 3c3d 2f2e 4a3b\n\
position startpos moves 7g7f 3c3d 6g6f 8c8d 1g1f\n\
position startpos moves 2g2f 3c3d 7g7f 4c4d 3i4h\n\
position startpos moves 5g5f 5c5d 7g7f\n";

/// YaneuraOu's material edition.
fn engine() -> Option<PathBuf> {
    crate::util::engines::yaneuraou("material")
}

/// Runs the engine: `usi`, then `commands`, reading its output until a
/// line for which `done` holds; then `quit`. The lines it printed.
fn session(engine: &Path, commands: &[String], done: impl Fn(&str) -> bool) -> Vec<String> {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (send, lines) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let mut script = String::from("usi\n");
    for c in commands {
        script.push_str(c);
        script.push('\n');
    }
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                let last = done(&line);
                seen.push(line);
                if last {
                    break;
                }
            }
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "the engine did not finish; it printed:\n{}",
                    seen.join("\n")
                );
            }
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    child.wait().unwrap();
    let _ = reader.join();
    seen
}

/// A book of [`GAMES`] with a value from -300 to 300 for every move, made
/// from the position and the move (deterministic, and different from move
/// to move).
fn valued_book(flip_fold: bool) -> Book {
    let mut builder = Builder::new(Options {
        flip_fold,
        ..Options::default()
    });
    for game in read_text(GAMES, Format::Usi).unwrap() {
        builder.add(&game).unwrap();
    }
    let mut book = builder.finish(1).unwrap();
    for (key, entry) in &mut book.entries {
        for m in &mut entry.moves {
            let hash = format!("{key} {}", m.mv)
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                });
            m.value = (hash % 601) as i32 - 300;
        }
    }
    book
}

fn write_ybb(book: &Book, path: &Path) {
    let mut bytes = Vec::new();
    ybb::write(book, &mut bytes).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// `makebook peta_shock IN OUT` in `dir` (paths are taken relative to
/// BookDir).
fn peta_shock(engine: &Path, dir: &Path, input: &str, output: &str) {
    let lines = session(
        engine,
        &[
            "setoption name USI_Hash value 16".to_string(),
            "setoption name BookFile value no_book".to_string(),
            format!("setoption name BookDir value {}", dir.display()),
            format!("makebook peta_shock {input} {output}"),
        ],
        |l| l.contains("has been completed") || l.contains("Error"),
    );
    assert!(
        lines.last().unwrap().contains("has been completed"),
        "{}",
        lines.join("\n")
    );
}

/// The engine's answer to `go` at `position`, playing from the book `file`
/// in `dir` with every book move allowed. `BookFile` is a list of names:
/// `user_book1.db` named there is read as `user_book1.ybb` when no `.db`
/// of that name is in `dir`. No line may report an error.
pub(crate) fn book_move(
    engine: &Path,
    dir: &Path,
    file: &str,
    on_the_fly: bool,
    position: &str,
) -> Vec<String> {
    let options = [
        ("USI_Hash", "16".to_string()),
        ("Threads", "1".to_string()),
        ("BookDir", dir.display().to_string()),
        ("BookFile", file.to_string()),
        ("BookOnTheFly", on_the_fly.to_string()),
        ("BookMoves", "999".to_string()),
        ("BookEvalDiff", "99999".to_string()),
        ("BookEvalBlackLimit", "-99999".to_string()),
        ("BookEvalWhiteLimit", "-99999".to_string()),
        ("BookDepthLimit", "0".to_string()),
        ("FlippedBook", "true".to_string()),
    ];
    let mut commands: Vec<String> = options
        .iter()
        .map(|(name, value)| format!("setoption name {name} value {value}"))
        .collect();
    commands.extend([
        "isready".to_string(),
        "usinewgame".to_string(),
        position.to_string(),
        "go btime 0 wtime 0 byoyomi 1000".to_string(),
    ]);
    let lines = session(engine, &commands, |l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.contains("Error")),
        "{}",
        lines.join("\n")
    );
    lines
}

/// The engine rewrites a kifconv `.ybb` with `makebook peta_shock`; kifconv
/// reads the engine's file, finds every position and move it wrote, and
/// writes the engine's content back to the engine's very bytes, which the
/// engine itself writes again when given its own book.
#[test]
fn the_engine_rewrites_our_ybb_and_we_write_its_bytes() {
    let Some(engine) = engine() else { return };
    let dir = scratch("ybb-peta");
    let ours = valued_book(false);
    write_ybb(&ours, &dir.join("ours.ybb"));
    peta_shock(&engine, &dir, "ours.ybb", "theirs.ybb");
    let theirs_bytes = std::fs::read(dir.join("theirs.ybb")).unwrap();
    let theirs = ybb::read(&theirs_bytes).unwrap();
    // The same positions and plies, and each position's moves.
    assert_eq!(
        theirs.entries.keys().collect::<Vec<_>>(),
        ours.entries.keys().collect::<Vec<_>>()
    );
    for (key, entry) in &ours.entries {
        let t = &theirs.entries[key];
        assert_eq!(t.ply, entry.ply, "{key}");
        let mut a: Vec<&str> = entry.moves.iter().map(|m| m.mv.as_str()).collect();
        let mut b: Vec<&str> = t.moves.iter().map(|m| m.mv.as_str()).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{key}");
    }
    // Values backed up: some move's value is no longer the one written.
    let changed = ours.entries.iter().any(|(key, entry)| {
        entry.moves.iter().any(|m| {
            theirs.entries[key]
                .moves
                .iter()
                .any(|t| t.mv == m.mv && t.value != m.value)
        })
    });
    assert!(changed, "peta_shock changed no value");
    // What the engine wrote, kifconv writes: header, flags, index order,
    // offsets, move order.
    let mut again = Vec::new();
    ybb::write(&theirs, &mut again).unwrap();
    assert!(
        again == theirs_bytes,
        "kifconv's bytes differ from the engine's"
    );
    // Values already backed up are a fixed point: the engine, given its own
    // book, writes it again, byte for byte, and so the same bytes as
    // kifconv writes for that content.
    peta_shock(&engine, &dir, "theirs.ybb", "twice.ybb");
    let twice = std::fs::read(dir.join("twice.ybb")).unwrap();
    assert!(
        twice == again,
        "peta_shock twice differs from kifconv's bytes"
    );
}

/// The book moves the engine listed before answering (its `info depth 0
/// ... nodes 0` lines, one per book move): each move with its value.
fn listed(lines: &[String]) -> BTreeSet<(String, i32)> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth 0 ") && l.contains(" nodes 0 "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = |w: &str| words.iter().position(|x| *x == w).unwrap() + 1;
            let value = words[at("cp")].parse().unwrap();
            (words[at("pv")].to_string(), value)
        })
        .collect()
}

/// The engine's move and the book's moves with their values, asserting
/// that it played one of them.
fn assert_plays_from(lines: &[String], moves: &BTreeSet<(String, i32)>) {
    let best = lines.last().unwrap();
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(
        moves.iter().any(|(m, _)| m == mv),
        "{mv} is not a book move ({moves:?}):\n{}",
        lines.join("\n")
    );
    assert_eq!(&listed(lines), moves, "{}", lines.join("\n"));
}

/// The engine plays from a `.ybb` kifconv wrote: at the start (from the
/// book read whole, and by its own binary search in the file with
/// BookOnTheFly), listing every book move with its value, and after 7g7f
/// (white to move) from a flip-folded book, whose moves it finds through
/// FlippedBook and rotates.
#[test]
fn the_engine_plays_from_our_ybb() {
    let Some(engine) = engine() else { return };
    let dir = scratch("ybb-play");
    let book = valued_book(false);
    write_ybb(&book, &dir.join("user_book1.ybb"));
    let start: BTreeSet<(String, i32)> = book.entries
        ["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"]
        .moves
        .iter()
        .map(|m| (m.mv.clone(), m.value))
        .collect();
    assert!(start.len() >= 3);
    for on_the_fly in [false, true] {
        let lines = book_move(
            &engine,
            &dir,
            "user_book1.db",
            on_the_fly,
            "position startpos",
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.ends_with("user_book1.ybb")),
            "no info string names the book:\n{}",
            lines.join("\n")
        );
        if !on_the_fly {
            let read = format!(
                "info string read book done. number of positions = {}",
                book.entries.len()
            );
            assert!(lines.contains(&read), "{}", lines.join("\n"));
        }
        assert_plays_from(&lines, &start);
    }
    let folded = valued_book(true);
    write_ybb(&folded, &dir.join("user_book2.ybb"));
    let rotated = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    let replies: BTreeSet<(String, i32)> = folded.entries[rotated]
        .moves
        .iter()
        .map(|m| {
            let mv = kifconv::Move::from_usi(&m.mv).unwrap().flip();
            (mv.to_string(), m.value)
        })
        .collect();
    let lines = book_move(
        &engine,
        &dir,
        "user_book2.db",
        false,
        "position startpos moves 7g7f",
    );
    assert_plays_from(&lines, &replies);
}

/// The moves of `key` in `book`, rotated when `rotate`, with their values.
fn moves_of(book: &Book, key: &str, rotate: bool) -> BTreeSet<(String, i32)> {
    book.entries[key]
        .moves
        .iter()
        .map(|m| {
            let mv = kifconv::Move::from_usi(&m.mv).unwrap();
            let mv = if rotate { mv.flip() } else { mv };
            (mv.to_string(), m.value)
        })
        .collect()
}

/// The same book as `.db`, `.ybb` and `.bin`, the binary ones made from the
/// text by `kifconv book convert`: converted back, each keeps what its
/// format holds (a `.ybb` no count, a `.bin` everything here); the engine
/// plays a book move from each file at the start, and from the
/// flip-folded `.db` and `.ybb` after 7g7f (it looks a `.bin` up
/// unrotated).
#[test]
fn the_engine_plays_from_each_format_kifconv_converts_to() {
    let Some(engine) = engine() else { return };
    let dir = scratch("book-formats-play");
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    let rotated = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    // The engine's names for a book of each format: BookFile takes names
    // from its list; `user_book1.db` is read as `.ybb` where no `.db` is.
    let formats = [
        ("db", "user_book1.db"),
        ("ybb", "user_book1.db"),
        ("bin", "book.bin"),
    ];
    for flip_fold in [false, true] {
        let book = valued_book(flip_fold);
        let text = dir.join(format!("book-{flip_fold}.db"));
        std::fs::write(&text, db2016::write(&book)).unwrap();
        for (ext, engine_name) in formats {
            let sub = dir.join(format!("{ext}-{flip_fold}"));
            std::fs::create_dir_all(&sub).unwrap();
            let name = engine_name.replace(".db", &format!(".{ext}"));
            let path = sub.join(&name);
            run_ok(&["book", "convert", s(&text), s(&path)]);
            // Back to text: what the format holds is kept.
            let back = sub.join("back.db");
            let out = run_ok(&["book", "convert", s(&path), s(&back)]);
            // A binary book's text is in the file's order: not a fault.
            assert!(!stderr(&out).contains("not sorted"), "{}", stderr(&out));
            let again = file::read(&std::fs::read(&back).unwrap(), file::BookFormat::Db2016)
                .unwrap()
                .book;
            assert_eq!(
                again.entries.keys().collect::<Vec<_>>(),
                book.entries.keys().collect::<Vec<_>>(),
                "{ext}"
            );
            for (key, entry) in &book.entries {
                let got = &again.entries[key];
                assert_eq!(
                    moves_of(&again, key, false),
                    moves_of(&book, key, false),
                    "{ext} {key}"
                );
                assert_eq!(got.ply, entry.ply, "{ext} {key}");
                if ext != "ybb" {
                    let counts = |e: &kifconv::book::Entry| {
                        let mut c: Vec<(String, u64)> =
                            e.moves.iter().map(|m| (m.mv.clone(), m.count)).collect();
                        c.sort();
                        c
                    };
                    assert_eq!(counts(got), counts(entry), "{ext} {key}");
                }
            }
            // YaneuraOu looks an Apery book up unrotated (FlippedBook is
            // for its own formats), so a flip-folded `.bin` answers black
            // only.
            if flip_fold && ext == "bin" {
                continue;
            }
            let (position, want) = if flip_fold {
                (
                    "position startpos moves 7g7f",
                    moves_of(&book, rotated, true),
                )
            } else {
                ("position startpos", moves_of(&book, start, false))
            };
            let lines = book_move(&engine, &sub, engine_name, false, position);
            if ext == "bin" {
                // The engine lists one move of an Apery book, not each.
                let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
                assert!(want.iter().any(|(m, _)| m == best), "{best}: {want:?}");
                assert!(listed(&lines).is_subset(&want), "{}", lines.join("\n"));
                assert!(!listed(&lines).is_empty(), "{}", lines.join("\n"));
            } else {
                assert_plays_from(&lines, &want);
            }
        }
    }
}

/// `kifconv book peta-shock` of a `.ybb` writes the very bytes YaneuraOu's
/// `makebook peta_shock` writes for it, in full and with `--shrink`.
#[test]
fn peta_shock_of_a_ybb_is_the_engines() {
    let Some(engine) = engine() else { return };
    let dir = scratch("ybb-peta-ours");
    write_ybb(&valued_book(true), &dir.join("book.ybb"));
    for (mode, flag) in [("full", None), ("shrink", Some("--shrink"))] {
        let theirs = format!("engine-{mode}.ybb");
        // The engine takes `makebook peta_shock IN OUT [shrink]`.
        let output = match flag {
            Some(_) => format!("{theirs} shrink"),
            None => theirs.clone(),
        };
        peta_shock(&engine, &dir, "book.ybb", &output);
        let ours = dir.join(format!("ours-{mode}.ybb"));
        let mut args = vec!["book", "peta-shock"];
        args.extend(flag);
        let book = dir.join("book.ybb");
        args.extend([s(&book), s(&ours)]);
        run_ok(&args);
        let want = std::fs::read(dir.join(&theirs)).unwrap();
        assert!(
            std::fs::read(&ours).unwrap() == want,
            "{mode}: the bytes differ"
        );
    }
}
