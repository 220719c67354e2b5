//! The USI driver (`kifconv::usi`) against real engines — YaneuraOu's
//! material and mate editions and Fairy-Stockfish — and against tiny
//! scripts that misbehave as broken engines do: an illegal move, no
//! `readyok`, a crash, a `quit` ignored. After each, no engine process
//! is left running.

use crate::util::bin::{s, scratch};
use crate::util::engines::{
    fairy_stockfish, running, yaneuraou, yaneuraou_mate, YANEURAOU_OPTIONS,
};
use kifconv::usi::{BestMove, Engine, EngineErrorKind, Limit, Mate, Timeouts, Value};
use kifconv::{Move, Position};
use std::path::Path;
use std::time::{Duration, Instant};

/// Positions that test what a `position` command must carry: a handicap
/// (white moves first), ten pawns and two lances in hand, and a promoted
/// bishop with white to move.
fn positions() -> Vec<(Position, Vec<Move>)> {
    let moves = |line: &str| {
        line.split_whitespace()
            .map(|m| Move::from_usi(m).unwrap())
            .collect::<Vec<_>>()
    };
    vec![
        (Position::startpos(), moves("7g7f 3c3d")),
        (
            Position::from_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap(),
            Vec::new(),
        ),
        (
            Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 10P2L8p2l 1").unwrap(),
            Vec::new(),
        ),
        (Position::startpos(), moves("7g7f 3c3d 8h2b+")),
    ]
}

/// Searches each of [`positions`] with `engine` and checks what the
/// driver hands back: a legal best move (the driver checked it), a PV
/// with a score, the ponder move after it.
fn searches_every_position(engine: &mut Engine) {
    for (start, moves) in positions() {
        engine.new_game().unwrap();
        let search = engine.search(&start, &moves, &Limit::Nodes(3000)).unwrap();
        let mut pos = start.clone();
        for &mv in &moves {
            pos.play(mv).unwrap();
        }
        let BestMove::Move(best) = search.best else {
            panic!("{}: {:?}", pos.sfen(), search.best)
        };
        assert!(pos.legal_moves().contains(&best), "{}: {best}", pos.sfen());
        let pv = &search.pvs[0];
        assert_eq!(pv.multipv, 1);
        assert!(pv.score.is_some() && !pv.moves.is_empty(), "{pv:?}");
        assert!(search.infos.iter().any(|i| i.nodes.is_some()));
        if let Some(ponder) = search.ponder {
            pos.play(best).unwrap();
            assert!(pos.legal_moves().contains(&ponder));
        }
    }
}

/// `go infinite`, then `stop`: a best move within the stop bound.
fn stops_an_infinite_search(engine: &mut Engine) {
    engine
        .go(&Position::startpos(), &[], &Limit::Infinite)
        .unwrap();
    // Still searching: no bestmove before stop.
    let polled = engine.poll(Duration::from_millis(300)).unwrap();
    assert!(polled.is_none(), "{polled:?}");
    let asked = Instant::now();
    let search = engine.stop().unwrap();
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert!(matches!(search.best, BestMove::Move(_)));
}

fn quits(engine: Engine) {
    let pid = engine.id();
    assert!(engine.quit(), "the engine ended by itself after quit");
    assert!(!running(pid), "engine process {pid} still runs");
}

fn options(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

#[test]
fn drives_yaneuraou() {
    let Some(path) = yaneuraou("material") else {
        return;
    };
    let opts = options(&YANEURAOU_OPTIONS);
    let mut engine = Engine::start(s(&path), &opts, Timeouts::default()).unwrap();
    assert!(engine.name().contains("YaneuraOu"), "{}", engine.name());
    assert!(engine.options().iter().any(|o| o.name == "MultiPV"));
    searches_every_position(&mut engine);
    // MultiPV 3: three lines, best first.
    engine.set_option("MultiPV", "3").unwrap();
    let search = engine
        .search(&Position::startpos(), &[], &Limit::Depth(4))
        .unwrap();
    let ranks: Vec<u32> = search.pvs.iter().map(|p| p.multipv).collect();
    assert_eq!(ranks, [1, 2, 3]);
    stops_an_infinite_search(&mut engine);
    // An option the engine lacks is refused before it is sent.
    let error = engine.set_option("NoSuchOption", "1").unwrap_err();
    assert!(
        matches!(*error.kind, EngineErrorKind::NoOption { .. }),
        "{error}"
    );
    quits(engine);
}

#[test]
fn drives_fairy_stockfish() {
    let Some(path) = fairy_stockfish() else {
        return;
    };
    let opts = options(&[("Threads", "1"), ("Hash", "16")]);
    let mut engine = Engine::start(s(&path), &opts, Timeouts::default()).unwrap();
    assert!(
        engine.name().contains("Fairy-Stockfish"),
        "{}",
        engine.name()
    );
    searches_every_position(&mut engine);
    stops_an_infinite_search(&mut engine);
    quits(engine);
}

#[test]
fn asks_the_mate_engine_for_mates() {
    let Some(path) = yaneuraou("mate") else {
        return;
    };
    // G*5b mates: the pawn on 5c guards the gold.
    let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
    let answer = yaneuraou_mate(&path, &pos, Duration::from_secs(5));
    assert_eq!(answer, Mate::Found(vec![Move::from_usi("G*5b").unwrap()]));
    // Black has a gold but no mate.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
    let answer = yaneuraou_mate(&path, &pos, Duration::from_secs(5));
    assert!(matches!(answer, Mate::NoMate | Mate::Timeout), "{answer:?}");
}

/// A script engine in `dir`: a `sh` loop over its input lines that runs
/// `cases` (a `case` body) on each.
fn script(dir: &Path, name: &str, cases: &str) -> String {
    let path = dir.join(name);
    let text = format!(
        "while read -r line; do\n  case \"$line\" in\n    usi) echo 'id name {name}'; echo 'option name Threads type spin default 1 min 1 max 4'; echo usiok;;\n{cases}\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    format!("sh {}", s(&path))
}

/// The script engine `name` (see [`script`]) started in `dir` with the
/// [`quick`] deadlines.
fn started(dir: &Path, name: &str, cases: &str) -> Engine {
    Engine::start(&script(dir, name, cases), &[], quick()).unwrap()
}

/// Deadlines a script engine meets with room to spare on a busy machine;
/// the waits that are meant to run out are shortened where they are.
fn quick() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(10),
        ready: Duration::from_secs(10),
        search: Duration::from_secs(10),
        stop: Duration::from_secs(2),
        quit: Duration::from_millis(500),
    }
}

#[test]
fn an_illegal_move_is_an_error_naming_the_engine_the_position_and_the_move() {
    let dir = scratch("usi-illegal");
    let mut engine = started(
        &dir,
        "illegal-mover",
        "    isready) echo readyok;;\n    go*) echo 'info depth 1 score cp 3 pv 3c3d 7g7f'; echo 'bestmove 5e5d';;\n    quit) exit 0;;",
    );
    let moves = [Move::from_usi("2g2f").unwrap()];
    let error = engine
        .search(&Position::startpos(), &moves, &Limit::Nodes(10))
        .unwrap_err();
    match &*error.kind {
        EngineErrorKind::IllegalMove {
            what,
            position,
            line,
            ..
        } => {
            assert_eq!(
                (*what, position.as_str(), line.as_str()),
                ("bestmove", "position startpos moves 2g2f", "5e5d")
            );
        }
        other => panic!("{other:?}"),
    }
    let text = error.to_string();
    assert!(text.starts_with("engine illegal-mover: bestmove `5e5d` is not legal after `position startpos moves 2g2f`"), "{text}");
    assert!(
        text.contains("< bestmove 5e5d"),
        "the transcript is shown: {text}"
    );
    // A PV that goes wrong at its third move is refused the same way.
    let mut engine2 = started(
        &dir,
        "bad-pv",
        "    isready) echo readyok;;\n    go*) echo 'info depth 2 score mate + pv 7g7f 3c3d 7f7d'; echo 'bestmove 7g7f';;",
    );
    let error = engine2
        .search(&Position::startpos(), &[], &Limit::Depth(2))
        .unwrap_err();
    assert!(
        matches!(&*error.kind, EngineErrorKind::IllegalMove { what: "pv", line, .. } if line == "7g7f 3c3d 7f7d"),
        "{error}"
    );
    let pids = [engine.id(), engine2.id()];
    drop((engine, engine2));
    for pid in pids {
        assert!(!running(pid), "{pid} still runs");
    }
}

#[test]
fn an_engine_that_hangs_dies_or_ignores_quit_is_ended() {
    let dir = scratch("usi-broken");
    // Never answers isready.
    let command = script(&dir, "no-readyok", "    isready) ;;");
    let short = Timeouts {
        ready: Duration::from_millis(500),
        ..quick()
    };
    let error = Engine::start(&command, &[], short)
        .err()
        .expect("no readyok");
    assert!(
        matches!(
            *error.kind,
            EngineErrorKind::Timeout {
                waiting_for: "readyok",
                ..
            }
        ),
        "{error}"
    );
    assert!(error.transcript.iter().any(|l| l == "> isready"), "{error}");
    // Dies on go, saying why on its standard error.
    let mut engine = started(
        &dir,
        "crasher",
        "    isready) echo readyok;;\n    go*) echo 'out of memory' >&2; exit 3;;",
    );
    let pid = engine.id();
    let error = engine
        .search(&Position::startpos(), &[], &Limit::Nodes(10))
        .unwrap_err();
    match &*error.kind {
        EngineErrorKind::Ended {
            waiting_for,
            status,
        } => {
            assert_eq!(*waiting_for, "bestmove");
            assert!(
                status.as_deref().is_some_and(|s| s.contains('3')),
                "{status:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(error.stderr.iter().any(|l| l == "out of memory"), "{error}");
    drop(engine);
    assert!(!running(pid));
    // Ignores quit (and the closed input): killed after the grace time.
    let command = script(
        &dir,
        "stubborn",
        "    isready) echo readyok;;\n    quit) while :; do sleep 1; done;;",
    );
    let engine = Engine::start(&command, &[], quick()).unwrap();
    let pid = engine.id();
    assert!(!engine.quit(), "it had to be killed");
    assert!(!running(pid));
    // A command that is not one.
    let error = Engine::start("'unclosed", &[], quick()).err().unwrap();
    assert!(
        matches!(*error.kind, EngineErrorKind::CommandLine(_)),
        "{error}"
    );
    let error = Engine::start("/no/such/engine", &[], quick())
        .err()
        .unwrap();
    assert!(matches!(*error.kind, EngineErrorKind::Start(_)), "{error}");
}

#[test]
fn scores_are_typed() {
    let Some(path) = yaneuraou("material") else {
        return;
    };
    let opts = options(&YANEURAOU_OPTIONS);
    let mut engine = Engine::start(s(&path), &opts, Timeouts::default()).unwrap();
    // Black to move with a rook more than white: a clear plus.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R 1").unwrap();
    let search = engine.search(&pos, &[], &Limit::Nodes(2000)).unwrap();
    match search.pvs[0].score.unwrap().value {
        Value::Cp(cp) => assert!(cp > 300, "{cp}"),
        Value::Mate { mating, .. } => assert!(mating),
    }
    quits(engine);
}

#[test]
fn a_search_that_failed_on_its_pv_does_not_spoil_the_next() {
    let dir = scratch("usi-abandon");
    // The first search sends two PVs with an illegal second move, then a
    // legal best move; every later one answers cleanly.
    let mut engine = started(
        &dir,
        "bad-first-pv",
        "    isready) echo readyok;;\n    go*) n=$((n+1)); if [ $n = 1 ]; then echo 'info depth 1 pv 7g7f 7f7e'; echo 'info depth 2 pv 7g7f 7f7e'; fi; echo 'info depth 1 score cp 0 pv 2g2f'; echo 'bestmove 2g2f';;",
    );
    let error = engine
        .search(&Position::startpos(), &[], &Limit::Depth(1))
        .unwrap_err();
    assert!(
        matches!(
            &*error.kind,
            EngineErrorKind::IllegalMove { what: "pv", .. }
        ),
        "{error}"
    );
    // The stale lines of the first search are read and dropped.
    let search = engine
        .search(&Position::startpos(), &[], &Limit::Depth(1))
        .unwrap();
    assert_eq!(search.best, BestMove::Move(Move::from_usi("2g2f").unwrap()));
    assert!(engine.transcript().iter().any(|l| l == "> stop"));
    let pid = engine.id();
    assert!(engine.quit());
    assert!(!running(pid));
}

#[test]
fn open_exchanges_the_handshake_only() {
    let dir = scratch("usi-open");
    let command = script(&dir, "opened", "    isready) echo readyok;;");
    let engine = Engine::open(&command, quick()).unwrap();
    assert_eq!(engine.id_name(), Some("opened"));
    assert_eq!(engine.options().len(), 1);
    assert!(
        !engine.transcript().iter().any(|l| l == "> isready"),
        "{:?}",
        engine.transcript()
    );
    assert!(engine.quit());
    // An engine that sends no `id name` is named by its command line.
    let path = dir.join("nameless");
    std::fs::write(
        &path,
        "while read -r line; do\n  case \"$line\" in\n    usi) echo usiok;;\n    isready) echo readyok;;\n  esac\ndone\n",
    )
    .unwrap();
    let command = format!("sh {}", s(&path));
    let engine = Engine::start(&command, &[], quick()).unwrap();
    assert_eq!(engine.id_name(), None);
    assert_eq!(engine.name(), command);
    assert!(engine.quit());
}

#[test]
fn poll_gives_a_search_that_answered_and_waits_for_one_that_did_not() {
    let dir = scratch("usi-poll");
    // Answers `go infinite` at once (a fault), and waits for stop after
    // any other go.
    let mut engine = started(
        &dir,
        "poller",
        "    isready) echo readyok;;\n    'go infinite') echo 'info depth 1 score cp 0 pv 7g7f'; echo 'bestmove 7g7f';;\n    stop) echo 'bestmove 2g2f';;",
    );
    engine
        .go(&Position::startpos(), &[], &Limit::Infinite)
        .unwrap();
    let search = engine.poll(Duration::from_secs(2)).unwrap().unwrap();
    assert_eq!(search.best, BestMove::Move(Move::from_usi("7g7f").unwrap()));
    assert_eq!(search.pvs[0].moves.len(), 1);
    engine
        .go(&Position::startpos(), &[], &Limit::Depth(3))
        .unwrap();
    let waited = Instant::now();
    assert!(engine.poll(Duration::from_millis(200)).unwrap().is_none());
    assert!(waited.elapsed() >= Duration::from_millis(200));
    let search = engine.stop().unwrap();
    assert_eq!(search.best, BestMove::Move(Move::from_usi("2g2f").unwrap()));
    assert!(engine.quit());
}

/// A move YaneuraOu plays from its book comes with a PV that ends in the
/// book move's share (`(100.00%)`): the driver takes the moves before it.
#[test]
fn a_book_move_s_pv_ends_at_its_share() {
    let Some(path) = yaneuraou("material") else {
        return;
    };
    let dir = scratch("usi-book");
    std::fs::write(
        dir.join("user_book1.db"),
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n2g2f 8c8d 40 20 1\n",
    )
    .unwrap();
    let opts = options(&[
        ("Threads", "1"),
        ("USI_Hash", "16"),
        ("BookDir", s(&dir)),
        ("BookFile", "user_book1.db"),
        ("BookMoves", "999"),
        ("BookEvalDiff", "99999"),
        ("BookDepthLimit", "0"),
    ]);
    let mut engine = Engine::start(s(&path), &opts, Timeouts::default()).unwrap();
    let search = engine
        .search(&Position::startpos(), &[], &Limit::Nodes(1000))
        .unwrap();
    let book_move = Move::from_usi("2g2f").unwrap();
    assert_eq!(search.best, BestMove::Move(book_move));
    let words: Vec<String> = search.pvs[0].moves.iter().map(Move::to_string).collect();
    assert_eq!(words.first().map(String::as_str), Some("2g2f"), "{words:?}");
    assert!(
        search
            .infos
            .iter()
            .any(|i| i.pv.iter().any(|w| w.starts_with('('))),
        "the engine sent its share: {:?}",
        search.infos
    );
    quits(engine);
}
