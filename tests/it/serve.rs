//! `kifconv serve`, a real server process on loopback, asked over TCP as a
//! browser asks it: the book answers equal `book query --json`'s, records
//! convert to the command's bytes, bad requests get a 4xx and leave the
//! server up, a thousand requests at once are all answered, and slow
//! clients are dropped.

use crate::util::bin::{run, run_ok, s, scratch, stderr, stdout};
use crate::util::server::{encode, parse_response, Server};
use crate::util::shared::shared;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A flip-folded book of the first thousand bench games, built once per
/// test run with the command; `None` when ../shared is missing.
fn bench_book() -> Option<PathBuf> {
    static BOOK: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| {
        let games = std::fs::read_to_string(shared("bench")?.join("games.usi")).unwrap();
        let dir = scratch("serve-book");
        let usi = dir.join("games.usi");
        let first: Vec<&str> = games.lines().take(1000).collect();
        std::fs::write(&usi, first.join("\n") + "\n").unwrap();
        let book = dir.join("bench.db");
        run_ok(&["book", "build", s(&usi), "--flip-fold", "-o", s(&book)]);
        Some(book)
    })
    .clone()
}

/// `book query --json` for a position, without the trailing newline.
fn queried(book: &str, position: &str) -> serde_json::Value {
    let out = run(&["book", "query", book, position, "--json"]);
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)))
}

/// The `usi` of each move of a list the API answered.
fn usi_of(moves: &serde_json::Value) -> Vec<&str> {
    let moves = moves.as_array().unwrap().iter();
    moves.map(|m| m["usi"].as_str().unwrap()).collect()
}

#[test]
fn the_book_answers_as_book_query_does() {
    let Some(book) = bench_book() else { return };
    let server = Server::start(&["--book", s(&book), "--addr", "127.0.0.1:0"]);
    let books = server.get("/api/books").json();
    assert_eq!(books["books"][0]["name"], "bench", "{books}");
    assert_eq!(books["books"][0]["format"], "db", "{books}");

    let start = server.get("/api/book?position=startpos");
    assert_eq!(start.status, 200);
    assert_eq!(start.header("content-type"), Some("application/json"));
    let start = start.json();
    assert_eq!(start["found"], "exact");
    assert_eq!(start["book"], "bench");
    let count = |answer: &serde_json::Value, usi: &str| {
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["usi"] == usi)
            .map(|m| m["count"].as_u64().unwrap())
    };
    // The first thousand games open with both, each more than once.
    assert!(count(&start, "7g7f").is_some_and(|n| n > 1), "{start}");
    assert!(count(&start, "2g2f").is_some_and(|n| n > 1), "{start}");
    let mut without_name = start.clone();
    without_name.as_object_mut().unwrap().remove("book");
    assert_eq!(without_name, queried(s(&book), "startpos"));

    // White to move: found through the rotation, white's moves back.
    let line = "position startpos moves 7g7f";
    let after = server.get(&format!("/api/book?position={}&book=bench", encode(line)));
    assert_eq!(after.status, 200);
    let mut after = after.json();
    assert_eq!(after["found"], "flipped", "{after}");
    assert!(count(&after, "3c3d").is_some(), "{after}");
    after.as_object_mut().unwrap().remove("book");
    assert_eq!(after, queried(s(&book), line));

    // Not in the book.
    let far = "position startpos moves 1g1f 1c1d 1f1e 1d1e";
    let none = server
        .get(&format!("/api/book?position={}", encode(far)))
        .json();
    assert_eq!(none["found"], "none", "{none}");
    assert_eq!(none["moves"], serde_json::json!([]));
}

#[test]
fn moves_are_every_legal_move_with_notation_and_the_position_after() {
    let server = Server::start(&["--addr", "127.0.0.1:0"]);
    assert_eq!(server.url, format!("http://{}/", server.addr));
    let start = server.get("/api/moves?position=startpos").json();
    assert_eq!(start["turn"], "b");
    assert_eq!(start["move_number"], 1);
    assert_eq!(start["check"], false);
    let moves = start["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 30);
    let pawn = moves.iter().find(|m| m["usi"] == "7g7f").unwrap();
    assert_eq!(pawn["japanese"], "▲７六歩");
    assert_eq!(
        pawn["sfen_after"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );
    // A promotion that may be declined is listed both ways; drops too.
    let sfen = "sfen 4k4/9/2P6/9/9/9/9/9/4K4 b G 1";
    let answer = server
        .get(&format!("/api/moves?position={}", encode(sfen)))
        .json();
    let usi = usi_of(&answer["moves"]);
    assert!(usi.contains(&"7c7b") && usi.contains(&"7c7b+"), "{usi:?}");
    assert!(usi.contains(&"G*5b"), "{usi:?}");
    assert_eq!(answer["turn"], "b");
}

#[test]
fn records_convert_to_the_commands_bytes() {
    let server = Server::start(&["--addr", "127.0.0.1:0"]);
    let path = "fixtures/kif/shogihome-sjis.kif";
    let bytes = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "a Shift_JIS fixture");
    for to in ["usi", "kif", "csa", "jkf"] {
        let answer = server.post(&format!("/api/convert?to={to}"), &bytes);
        assert_eq!(answer.status, 200, "{to}");
        let cli = run(&[path, "--to", to]);
        assert!(cli.status.success());
        assert_eq!(answer.body, cli.stdout, "{to}");
    }
    let usi = server.post("/api/convert?to=usi", &bytes);
    assert_eq!(
        usi.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    let kif = server.post("/api/convert?to=kif", &bytes);
    assert_eq!(
        kif.header("content-type"),
        Some("text/plain; charset=Shift_JIS")
    );

    // The record, move by move, for the page.
    let record = server.post("/api/record", &bytes).json();
    let game = &record["games"][0];
    let moves = usi_of(&game["moves"]);
    let line = stdout(&run(&[path, "--to", "usi"]));
    assert_eq!(
        format!("position startpos moves {}", moves.join(" ")),
        line.trim()
    );
    assert_eq!(game["moves"][0]["japanese"], "▲２六歩");
}

#[test]
fn bad_requests_get_a_4xx_and_the_server_stays_up() {
    let Some(book) = bench_book() else { return };
    let mut server = Server::start(&[
        "--book",
        s(&book),
        "--addr",
        "127.0.0.1:0",
        "--max-input-size",
        "1000",
    ]);
    let ok = |server: &Server| {
        let answer = server.get("/api/book?position=startpos");
        assert_eq!(answer.status, 200);
        assert_eq!(answer.json()["found"], "exact");
    };
    // A record with an illegal second move: its line and column.
    let answer = server.post("/api/convert?to=usi", "▲７六歩\n▲７六歩\n".as_bytes());
    assert_eq!(answer.status, 400);
    let error = &answer.json()["error"];
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(2), Some(1)),
        "{error}"
    );
    assert_eq!(error["text"], "▲７六歩");
    ok(&server);
    // Bytes that are no HTTP at all.
    let answer = server.request(b"\x00\x01\x02 garbage\r\n\r\n");
    assert_eq!(answer.status, 400);
    ok(&server);
    // A position that is none, a book that is not served, a book named
    // like a path, a format that does not exist, a route that does not.
    for (path, status) in [
        ("/api/book?position=garbage", 400),
        ("/api/book", 400),
        ("/api/moves?position=sfen%20lnsgk", 400),
        ("/api/book?position=startpos&book=other", 404),
        (
            "/api/book?position=startpos&book=..%2F..%2Fetc%2Fpasswd",
            404,
        ),
        ("/etc/passwd", 404),
        ("/api/book?position=%FF%FE", 400),
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, status, "{path}");
        let error = answer.json();
        assert!(error["error"]["message"].is_string(), "{path}: {error}");
    }
    let answer = server.post("/api/convert?to=nothing", b"position startpos");
    assert_eq!(answer.status, 400);
    // A body past --max-input-size.
    let answer = server.post("/api/record", &[b' '; 1001]);
    assert_eq!(
        answer.status,
        413,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    ok(&server);
    assert!(server.child.try_wait().unwrap().is_none(), "still running");
}

#[test]
fn a_thousand_book_requests_at_once_are_all_answered() {
    let Some(book) = bench_book() else { return };
    let server = Server::start(&["--book", s(&book), "--addr", "127.0.0.1:0"]);
    let positions = [
        "startpos",
        "position%20startpos%20moves%207g7f",
        "position%20startpos%20moves%202g2f%208c8d",
        "position%20startpos%20moves%201g1f%201c1d%201f1e",
    ];
    // Every connection is open and its request sent before any answer is
    // read: the server holds a thousand requests at once.
    let mut streams: Vec<_> = (0..1000)
        .map(|i| {
            let mut stream = server.connect();
            let request = format!(
                "GET /api/book?position={} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                positions[i % positions.len()]
            );
            stream.write_all(request.as_bytes()).unwrap();
            stream
        })
        .collect();
    for (i, stream) in streams.iter_mut().enumerate() {
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        let answer = parse_response(&bytes);
        assert_eq!(answer.status, 200, "request {i}");
        let found = answer.json()["found"].as_str().unwrap().to_string();
        let want = ["exact", "flipped", "exact", "none"][i % positions.len()];
        assert_eq!(found, want, "request {i}");
    }
}

#[test]
fn slow_clients_are_dropped_and_others_served_meanwhile() {
    let server = Server::start(&["--addr", "127.0.0.1:0", "--client-timeout", "0.5"]);
    // Half a request line, then nothing.
    let mut slow_headers = server.connect();
    slow_headers
        .write_all(b"GET /api/books HTTP/1.1\r\nHo")
        .unwrap();
    // Headers that promise a body of 100 bytes, and 10 of them.
    let mut slow_body = server.connect();
    slow_body
        .write_all(b"POST /api/record HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
        .unwrap();
    // A connection that sends nothing at all.
    let mut silent = server.connect();
    let started = Instant::now();
    assert_eq!(server.get("/api/formats").status, 200);
    let mut bytes = Vec::new();
    slow_body.read_to_end(&mut bytes).unwrap();
    assert_eq!(parse_response(&bytes).status, 408);
    for (name, stream) in [("slow headers", &mut slow_headers), ("silent", &mut silent)] {
        // Closed by the server: the end of the stream (after a 408, or
        // nothing), or a reset; never still open when the deadline of
        // this read passes.
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut rest = Vec::new();
        match stream.read_to_end(&mut rest) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            Err(e) => panic!("{name}: {e}"),
        }
        assert!(
            rest.is_empty() || rest.starts_with(b"HTTP/1.1 408"),
            "{name}: {:?}",
            String::from_utf8_lossy(&rest)
        );
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(server.get("/api/formats").status, 200);
}

#[test]
fn serve_listens_on_loopback_unless_told_otherwise() {
    // Port 8080 may be taken on the machine: then the error names the
    // address it tried, which is the loopback one all the same.
    let mut child = crate::util::bin::command()
        .arg("serve")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let said = format!("{line}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        line == "kifconv serve: http://127.0.0.1:8080/\n"
            || said.contains("cannot listen on 127.0.0.1:8080"),
        "{said}"
    );
}

/// Ctrl-C ends the server cleanly, even when it comes the moment the
/// address is said (before serving starts): tried on a few servers, as
/// the moment is short.
#[test]
fn serve_ends_cleanly_on_ctrl_c() {
    for _ in 0..10 {
        let mut server = Server::start(&["--addr", "127.0.0.1:0"]);
        let pid = server.child.id().to_string();
        let kill = std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap();
        assert!(kill.success());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = server.child.try_wait().unwrap() {
                break status;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "still running");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{status:?}");
    }
}

#[test]
fn a_book_that_is_none_is_refused_before_serving() {
    let dir = scratch("serve-not-a-book");
    let file = dir.join("notes.db");
    std::fs::write(&file, "hello\nworld\n").unwrap();
    let out = run(&["serve", "--book", s(&file), "--addr", "127.0.0.1:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("notes.db"), "{}", stderr(&out));
    let out = run(&[
        "serve",
        "--book",
        s(&dir.join("missing.db")),
        "--addr",
        "127.0.0.1:0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // Two books of one name.
    let Some(book) = bench_book() else { return };
    let out = run(&[
        "serve",
        "--book",
        s(&book),
        "--book",
        s(&book),
        "--addr",
        "127.0.0.1:0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("two books are named `bench`"),
        "{}",
        stderr(&out)
    );
}
