//! The page of `kifconv serve` in a real browser: Debian's chromium,
//! headless, driven by `tests/browser/page.mjs` (playwright-core, installed
//! by `npm ci` in `tests/browser`) against the real server with a
//! flip-folded book of the bench games (and a small second one; and a
//! server with no book). What the page must show is taken
//! from the command itself (`book query --json`, `--to sfen --all-plies`,
//! the error of a bad record) and handed to the script in a JSON file.
//!
//! Without chromium or the driver the test is skipped with a note; with
//! `KIFCONV_REQUIRE_SHARED=1` (as CI runs) it fails instead.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::bin::{run, run_ok, s, scratch, stderr, stdout};
use crate::util::server::Server;
use crate::util::shared::shared;

const CHROMIUM: &str = "/usr/bin/chromium";
/// A Shift_JIS KIF of four moves with comments.
const RECORD: &str = "fixtures/kif/shogihome-sjis.kif";
/// The games of a second, small book.
const SMALL: &str = "position startpos moves 2g2f 8c8d 2f2e\nposition startpos moves 2g2f 3c3d\nposition startpos moves 5g5f\n";
/// A KIF whose third move is illegal, with a move after it: an error.
const BAD: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九角(88)\n   4 ８四歩(83)\n";

/// Whether the browser and its driver are here: a note and `false` when
/// not, a failure when CI requires them.
fn browser_ready() -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing: Vec<&str> = [
        (
            Path::new(CHROMIUM).is_file(),
            "chromium (apt-get install -y chromium)",
        ),
        (
            root.join("tests/browser/node_modules/playwright-core")
                .is_dir(),
            "tests/browser/node_modules (cd tests/browser && npm ci)",
        ),
        (
            Command::new("node").arg("--version").output().is_ok(),
            "node",
        ),
    ]
    .into_iter()
    .filter_map(|(here, what)| (!here).then_some(what))
    .collect();
    if missing.is_empty() {
        return true;
    }
    let required = std::env::var_os("KIFCONV_REQUIRE_SHARED").is_some_and(|v| v == "1");
    assert!(!required, "the browser test needs: {}", missing.join(", "));
    let test = std::thread::current().name().unwrap_or("?").to_string();
    eprintln!("note: {test}: {} missing; skipped", missing.join(", "));
    false
}

/// `kifconv book query BOOK POSITION --json`.
fn query(book: &Path, position: &str) -> serde_json::Value {
    let out = run_ok(&["book", "query", s(book), position, "--json"]);
    serde_json::from_str(&stdout(&out)).unwrap()
}

/// What the page must show, from the command: the book's answers, the
/// record's moves and positions, the bad record's line and column.
fn expectations(book: &Path, small: &Path) -> serde_json::Value {
    let book_start = query(book, "startpos");
    let small_start = query(small, "startpos");
    let book_after = query(book, "position startpos moves 7g7f");
    assert_eq!(book_start["found"], "exact");
    assert_eq!(book_after["found"], "flipped");
    let usi_text = stdout(&run(&[RECORD, "--to", "usi", "-o", "-"]));
    let usi: Vec<&str> = usi_text
        .trim()
        .strip_prefix("position startpos moves ")
        .expect("a game from the start")
        .split(' ')
        .collect();
    let sfens = stdout(&run(&[RECORD, "--to", "sfen", "--all-plies", "-o", "-"]));
    // The positions, then the empty line that ends the game.
    let sfens: Vec<&str> = sfens.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(sfens.len(), usi.len() + 1);
    // The command's error for the bad record: `path:line:column: error: …`.
    let dir = book.parent().unwrap();
    let bad = dir.join("bad.kif");
    std::fs::write(&bad, BAD).unwrap();
    let out = run(&[s(&bad), "--to", "usi", "-o", "-"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let place = err
        .split(": error:")
        .next()
        .and_then(|head| head.strip_prefix(&format!("{}:", bad.display())))
        .and_then(|place| place.split_once(':'))
        .unwrap_or_else(|| panic!("an error with its place: {err}"));
    let (line, column): (u32, u32) = (place.0.parse().unwrap(), place.1.parse().unwrap());
    serde_json::json!({
        "book_start": book_start,
        "book_after": book_after,
        "small_start": small_start,
        "record": {
            "path": Path::new(env!("CARGO_MANIFEST_DIR")).join(RECORD),
            "usi": usi,
            "sfens": sfens,
            "usi_text": usi_text,
        },
        "bad": {"text": BAD, "line": line, "column": column},
    })
}

/// A flip-folded book of the bench games' first plies.
fn bench_book(dir: &Path) -> Option<PathBuf> {
    let games = shared("bench")?.join("games.usi");
    let book = dir.join("bench.db");
    run_ok(&[
        "book",
        "build",
        s(&games),
        "--flip-fold",
        "--max-ply",
        "8",
        "-o",
        s(&book),
    ]);
    Some(book)
}

/// Chromium's flags for a headless run as any user, nothing fetched.
fn chromium_flags(profile: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(|f| f.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

#[test]
fn the_page_in_a_real_browser() {
    if !browser_ready() {
        return;
    }
    let dir = scratch("serve-page");
    let Some(book) = bench_book(&dir) else {
        return;
    };
    let small = dir.join("small.db");
    std::fs::write(dir.join("small.usi"), SMALL).unwrap();
    run_ok(&[
        "book",
        "build",
        s(&dir.join("small.usi")),
        "--flip-fold",
        "-o",
        s(&small),
    ]);
    let expect = dir.join("expect.json");
    std::fs::write(&expect, expectations(&book, &small).to_string()).unwrap();
    let server = Server::start(&[
        "--book",
        &format!("{}=bench", s(&book)),
        "--book",
        &format!("{}=small", s(&small)),
        "--addr",
        "127.0.0.1:0",
    ]);
    let bookless = Server::start(&["--addr", "127.0.0.1:0"]);

    // The page driven through playwright-core: see tests/browser/page.mjs.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("serve-page.png");
    let _ = std::fs::remove_file(&shot);
    let out = Command::new("node")
        .arg("page.mjs")
        .args([&server.url, s(&shot), s(&expect), &bookless.url])
        .current_dir(root.join("tests/browser"))
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the browser test failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).starts_with("ok: "), "{}", stdout(&out));
    let png = std::fs::read(&shot).expect("the screenshot is written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000);

    // The DOM chromium itself dumps at the load event: the page carries
    // the answers of its first view, so the board and the book's moves
    // are drawn by then, with no request made.
    let profile = dir.join("profile");
    let out = Command::new(CHROMIUM)
        .args(chromium_flags(&profile))
        .args(["--dump-dom", &server.url])
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("<svg id=\"board\""), "{dom}");
    assert_eq!(dom.matches(" data-piece=\"").count(), 40, "{dom}");
    for usi in ["7g7f", "2g2f"] {
        assert!(dom.contains(&format!("<li data-usi=\"{usi}\"")), "{dom}");
    }
    assert!(dom.contains("id=\"moves\""), "{dom}");
    drop((server, bookless));
    let _ = std::fs::remove_dir_all(dir);
}
