//! A USI conformance report for an engine under development: each check
//! is a row that passes or fails with its evidence (the reply seen, the
//! time taken, the move refused). It runs on the driver, so every move
//! the engine sends is played on kifconv's board, every wait has a
//! deadline and the process is always ended. A failing check does not
//! stop the report; an engine that dies or hangs is ended, and the rows
//! after it say they were not run.

use super::{BestMove, Engine, EngineError, EngineErrorKind, Info, Limit, Search, Timeouts};
use crate::{Move, Position};
use std::fmt;
use std::time::{Duration, Instant};

/// How strict the checks are, and how long they wait.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The longest wait for any reply (`usiok`, `readyok`, `bestmove`)
    /// before the engine is called hung and ended.
    pub timeout: Duration,
    /// How late a timed search (`movetime`, a clock) may answer.
    pub tolerance: Duration,
    /// How soon `bestmove` must follow `stop`.
    pub stop: Duration,
    /// How soon the process must end after `quit` (it is killed after).
    pub quit: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            timeout: Duration::from_secs(10),
            tolerance: Duration::from_secs(1),
            stop: Duration::from_secs(2),
            quit: Duration::from_secs(5),
        }
    }
}

/// One check's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// What was checked (`isready`, `go movetime 500`, …).
    pub name: String,
    /// Whether the engine passed.
    pub passed: bool,
    /// What was seen: the reply, the time taken, the move refused.
    pub evidence: String,
}

/// Every check's row, in the order they ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The engine's `id name`, or its command line.
    pub engine: String,
    /// One row per check.
    pub rows: Vec<Row>,
}

impl Report {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.rows.iter().all(|row| row.passed)
    }
}

impl fmt::Display for Report {
    /// One line per row (`PASS name  evidence`, the evidence aligned),
    /// then a summary line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .rows
            .iter()
            .map(|row| row.name.chars().count())
            .max()
            .unwrap_or(0);
        for row in &self.rows {
            let verdict = if row.passed { "PASS" } else { "FAIL" };
            writeln!(f, "{verdict} {:width$}  {}", row.name, row.evidence)?;
        }
        let failed = self.rows.iter().filter(|row| !row.passed).count();
        let total = self.rows.len();
        match failed {
            0 => writeln!(f, "engine {}: all {total} checks passed", self.engine),
            _ => writeln!(
                f,
                "engine {}: {failed} of {total} checks failed",
                self.engine
            ),
        }
    }
}

/// A position the engine searches, taken from a real record or built by
/// moves: what it tests in its name, the `position` command's start
/// (`None` for `startpos`) and the moves after it.
struct Case {
    name: &'static str,
    sfen: Option<&'static str>,
    moves: &'static str,
}

/// The positions that stress the `position` command.
const CASES: [Case; 6] = [
    // The first 40 moves of mog-core-scala/csa/game/002.csa: a bishop
    // exchange with a promotion (2b7g+) and a pawn dropped.
    Case {
        name: "position startpos moves (40)",
        sfen: None,
        moves: "2g2f 8c8d 2f2e 8d8e 7g7f 3c3d 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f \
                5i6h 8f7f 8h7g 7f7d 3i3h P*2c 2d2f 7d8d 7i8h 5a5b 3g3f 6a7b 2i3g 7a6b \
                9g9f 1c1d 1g1f 9c9d P*8f 2b7g+ 8h7g 3a2b 4g4f 7c7d 3f3e 8a7c",
    },
    // The first 24 moves of kif-parser's
    // 20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22_shogigui.kif: a
    // bishop that enters the zone without promoting (8h3c), bishops and
    // lances dropped.
    Case {
        name: "position startpos moves (drops, no promotion)",
        sfen: None,
        moves: "7g7f 4a5b 8h3c 5a4a 3c2b 3a2b B*5e B*7g 5i4h 7g5e 1g1f 5e9i 7i7h L*8e \
                5g5f 8e8g 7h8g B*7e 4h5h 7e9g 8i9g 2b3c L*9e P*3a",
    },
    // shogi-kifu-converter/csa/initial_ka.csa: the bishop handicap (角落ち),
    // white to move first.
    Case {
        name: "position sfen bishop handicap",
        sfen: Some("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
        moves: "",
    },
    // json-kifu-format/kif/20081220kyoochi.kif: the lance handicap
    // (香落ち) and its first five moves.
    Case {
        name: "position sfen lance handicap moves",
        sfen: Some("lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
        moves: "3c3d 2g2f 2b3c 2f2e 4c4d",
    },
    // The Kifuwarabe game above at ply 229: ten pawns in black's hand, a
    // promoted lance, white to move; then moves 230 and 231.
    Case {
        name: "position sfen 10P in hand moves",
        sfen: Some("lBR2G1nl/2G4ss/pg1k4p/5S3/P3P3N/2g4PL/1B3PS2/4KNR2/7+l1 w 10Pn2p 230"),
        moves: "7f8g 4d3e",
    },
    // mog-core-scala/csa/game/002.csa at ply 255: both kings in the other
    // camp, eleven promoted pieces, ten pawns in hand, white to move; then
    // moves 256 and 257.
    Case {
        name: "position sfen entered kings moves",
        sfen: Some(
            "3+P1G1+R+B/2+N1K4/1+P1+SG2+L1/2+R6/P2S5/2G1+n+p+p2/3p3+p1/4+p4/5k3 w BG2S2N3L10P 256",
        ),
        moves: "5f6f G*4c",
    },
];

/// The nodes each position's search may take.
const CASE_NODES: u64 = 20_000;
/// The depth, nodes and times of the limit checks.
const DEPTH: u32 = 5;
const NODES: u64 = 10_000;
const MOVETIME: Duration = Duration::from_millis(500);
const CLOCK: Duration = Duration::from_millis(1000);
/// How long an infinite search runs before `stop`: it must not answer
/// before.
const INFINITE_FOR: Duration = Duration::from_millis(500);

impl Case {
    /// The start position and the moves, as the driver takes them.
    fn position(&self) -> Result<(Position, Vec<Move>), String> {
        let start = match self.sfen {
            Some(sfen) => Position::from_sfen(sfen).map_err(|e| format!("{sfen}: {e}"))?,
            None => Position::startpos(),
        };
        let moves = self
            .moves
            .split_ascii_whitespace()
            .map(|m| Move::from_usi(m).map_err(|e| format!("{m}: {e}")))
            .collect::<Result<_, _>>()?;
        Ok((start, moves))
    }
}

/// The bound on the nodes a `go nodes N` search may report: engines
/// check the limit now and then, so small limits are overshot.
fn nodes_bound(limit: u64) -> u64 {
    2 * limit + 10_000
}

/// Whether a `go depth` search kept to `limit`: the deepest `depth` any
/// `info` reported.
fn judge_depth(infos: &[Info], limit: u32) -> (bool, String) {
    match infos.iter().filter_map(|i| i.depth).max() {
        Some(depth) => (
            depth <= limit,
            format!("deepest info depth {depth} (limit {limit})"),
        ),
        None => (true, "answered; no info gave a depth".to_string()),
    }
}

/// Whether a `go nodes` search kept to `limit`, within [`nodes_bound`]:
/// the most nodes any `info` reported.
fn judge_nodes(infos: &[Info], limit: u64) -> (bool, String) {
    let bound = nodes_bound(limit);
    match infos.iter().filter_map(|i| i.nodes).max() {
        Some(nodes) => (
            nodes <= bound,
            format!("info nodes {nodes}, at most {bound} allowed (2·N + 10000)"),
        ),
        None => (true, "answered; no info gave nodes".to_string()),
    }
}

/// Whether a timed search answered within `allowed` and `tolerance`.
fn judge_time(elapsed: Duration, allowed: Duration, tolerance: Duration) -> (bool, String) {
    (
        elapsed <= allowed + tolerance,
        format!(
            "bestmove after {:.2} s, at most {:.1} s + {:.1} s allowed",
            elapsed.as_secs_f64(),
            allowed.as_secs_f64(),
            tolerance.as_secs_f64()
        ),
    )
}

fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// What a finished search's answer was: the best and ponder moves (legal,
/// or the driver would have refused them) and its PV lines.
fn answered(search: &Search) -> String {
    let best = match search.best {
        BestMove::Move(mv) => format!("bestmove {mv}"),
        BestMove::Resign => "bestmove resign".to_string(),
        BestMove::Win => "bestmove win".to_string(),
    };
    let ponder = search
        .ponder
        .map_or(String::new(), |p| format!(" ponder {p}"));
    let pvs: Vec<usize> = search
        .infos
        .iter()
        .map(|i| i.pv.len())
        .filter(|&n| n > 0)
        .collect();
    match pvs.iter().max() {
        Some(longest) => format!(
            "{best}{ponder}; every PV move legal ({} PV lines, the longest {longest} moves)",
            pvs.len()
        ),
        None => format!("{best}{ponder}; no PV sent"),
    }
}

/// Why a check failed, for its row: the error without its transcript,
/// and for a reply that never came, the last lines exchanged.
fn describe(error: &EngineError) -> String {
    let mut text = error.kind.to_string();
    if matches!(
        *error.kind,
        EngineErrorKind::Timeout { .. }
            | EngineErrorKind::Ended { .. }
            | EngineErrorKind::Garbled { .. }
    ) {
        let last: Vec<&str> = error
            .transcript
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(String::as_str)
            .collect();
        if !last.is_empty() {
            text.push_str(&format!("; last lines: {}", last.join(" | ")));
        }
        if let Some(line) = error.stderr.last() {
            text.push_str(&format!("; its stderr ends: {line}"));
        }
    }
    text
}

/// Whether `error` leaves the engine unusable: it hangs or has ended.
fn is_fatal(error: &EngineError) -> bool {
    matches!(
        *error.kind,
        EngineErrorKind::Timeout { .. } | EngineErrorKind::Ended { .. } | EngineErrorKind::Send(_)
    )
}

/// The checks under way: the engine while it is usable, and the rows.
struct Run {
    engine: Option<Engine>,
    /// The row at which the engine ended (or was ended).
    ended_at: String,
    rows: Vec<Row>,
    settings: Settings,
}

impl Run {
    fn row(&mut self, name: impl Into<String>, passed: bool, evidence: String) {
        self.rows.push(Row {
            name: name.into(),
            passed,
            evidence,
        });
    }

    /// Runs one check on the engine, if it is still usable. A fatal
    /// error ends the engine; any other leaves it ready for the next.
    fn step(
        &mut self,
        name: impl Into<String>,
        check: impl FnOnce(&mut Engine, &Settings) -> Result<(bool, String), EngineError>,
    ) {
        let name = name.into();
        let Some(engine) = self.engine.as_mut() else {
            let evidence = format!("not run: engine ended at row {}", self.ended_at);
            return self.row(name, false, evidence);
        };
        match check(engine, &self.settings) {
            Ok((passed, evidence)) => self.row(name, passed, evidence),
            Err(error) => {
                let fatal = is_fatal(&error) || engine.abandon().is_err();
                self.row(name.clone(), false, describe(&error));
                if fatal {
                    self.end(&name);
                }
            }
        }
    }

    /// Ends the engine after the row `at`.
    fn end(&mut self, at: &str) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
        self.ended_at = at.to_string();
    }

    /// A search of `limit` from `start` and `moves`, judged by `judge`.
    fn search(
        &mut self,
        name: impl Into<String>,
        start: &Position,
        moves: &[Move],
        limit: Limit,
        judge: impl FnOnce(&Search, &Settings) -> (bool, String),
    ) {
        self.step(name, |engine, settings| {
            let search = engine.search(start, moves, &limit)?;
            let (mut passed, mut evidence) = judge(&search, settings);
            evidence.push_str(&format!("; {}", answered(&search)));
            if let Some(warning) = search.warnings.first() {
                passed = false;
                evidence = format!("{warning}; {evidence}");
            }
            Ok((passed, evidence))
        });
    }
}

/// Runs every check on the engine `command` (a command line, as
/// [`Engine::start`] takes it) with `options` set after the handshake.
/// The error is for an engine that cannot be started at all (no such
/// program, a command line that is not one); anything after that is a
/// row of the report.
pub fn check(
    command: &str,
    options: &[(String, String)],
    settings: Settings,
) -> Result<Report, EngineError> {
    let timeouts = Timeouts {
        handshake: settings.timeout,
        ready: settings.timeout,
        search: settings.timeout,
        stop: settings.timeout,
        quit: settings.quit,
    };
    let mut run = Run {
        engine: None,
        ended_at: String::new(),
        rows: Vec::new(),
        settings,
    };
    let started = Instant::now();
    match Engine::open(command, timeouts) {
        Ok(engine) => {
            let took = seconds(started.elapsed());
            let count = engine.options().len();
            match engine.id_name() {
                Some(name) => run.row(
                    "handshake",
                    true,
                    format!("id name {name}; usiok after {took}; {count} options declared"),
                ),
                None => run.row(
                    "handshake",
                    false,
                    format!("no `id name` before usiok (after {took}); {count} options declared"),
                ),
            }
            run.engine = Some(engine);
        }
        Err(error) => {
            if matches!(
                *error.kind,
                EngineErrorKind::CommandLine(_) | EngineErrorKind::Start(_)
            ) {
                return Err(error);
            }
            run.row("handshake", false, describe(&error));
            run.ended_at = "handshake".to_string();
        }
    }
    let engine_name = run
        .engine
        .as_ref()
        .map_or(command.to_string(), |e| e.name().to_string());

    run.step("setoption", |engine, _| {
        for (name, value) in options {
            engine.set_option(name, value)?;
        }
        let set: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
        Ok((
            true,
            match set.len() {
                0 => "none given".to_string(),
                _ => format!("set {}", set.join(", ")),
            },
        ))
    });
    run.step("isready", |engine, _| {
        let started = Instant::now();
        engine.ready()?;
        Ok((
            true,
            format!("readyok after {}", seconds(started.elapsed())),
        ))
    });
    run.step("usinewgame", |engine, _| {
        let started = Instant::now();
        engine.forget()?;
        Ok((
            true,
            format!(
                "accepted; isready after it answered in {}",
                seconds(started.elapsed())
            ),
        ))
    });
    for case in &CASES {
        let (start, moves) = match case.position() {
            Ok(position) => position,
            Err(why) => {
                run.row(
                    case.name,
                    false,
                    format!("kifconv's own case is bad: {why}"),
                );
                continue;
            }
        };
        let limit = Limit::Nodes(CASE_NODES);
        run.search(case.name, &start, &moves, limit, |search, _| {
            (true, format!("took {}", seconds(search.elapsed)))
        });
    }

    let start = Position::startpos();
    let opening: Vec<Move> = ["7g7f", "3c3d"]
        .iter()
        .map(|m| Move::from_usi(m).expect("a move"))
        .collect();
    let depth = Limit::Depth(DEPTH);
    run.search(
        format!("go depth {DEPTH}"),
        &start,
        &opening,
        depth,
        |s, _| judge_depth(&s.infos, DEPTH),
    );
    let nodes = Limit::Nodes(NODES);
    run.search(
        format!("go nodes {NODES}"),
        &start,
        &opening,
        nodes,
        |s, _| judge_nodes(&s.infos, NODES),
    );
    let movetime = Limit::MoveTime(MOVETIME);
    let name = format!("go movetime {}", MOVETIME.as_millis());
    run.search(name, &start, &opening, movetime, |s, settings| {
        judge_time(s.elapsed, MOVETIME, settings.tolerance)
    });
    let ms = CLOCK.as_millis();
    let byoyomi = Limit::Clock {
        black: CLOCK,
        white: CLOCK,
        byoyomi: CLOCK,
        black_inc: Duration::ZERO,
        white_inc: Duration::ZERO,
    };
    let name = format!("go btime {ms} wtime {ms} byoyomi {ms}");
    run.search(name, &start, &opening, byoyomi, |s, settings| {
        judge_time(s.elapsed, CLOCK + CLOCK, settings.tolerance)
    });
    let fischer = Limit::Clock {
        black: CLOCK,
        white: CLOCK,
        byoyomi: Duration::ZERO,
        black_inc: CLOCK,
        white_inc: CLOCK,
    };
    let name = format!("go btime {ms} wtime {ms} binc {ms} winc {ms}");
    run.search(name, &start, &opening, fischer, |s, settings| {
        judge_time(s.elapsed, CLOCK + CLOCK, settings.tolerance)
    });
    run.step("go infinite, stop", |engine, settings| {
        engine.go(&start, &opening, &Limit::Infinite)?;
        if let Some(search) = engine.poll(INFINITE_FOR)? {
            return Ok((
                false,
                format!(
                    "bestmove {:.2} s after go infinite, before stop was sent; {}",
                    search.elapsed.as_secs_f64(),
                    answered(&search)
                ),
            ));
        }
        let asked = Instant::now();
        let search = engine.stop()?;
        let took = asked.elapsed();
        Ok((
            took <= settings.stop,
            format!(
                "bestmove {} after stop, at most {:.1} s allowed; {}",
                seconds(took),
                settings.stop.as_secs_f64(),
                answered(&search)
            ),
        ))
    });
    run.step("isready between searches", |engine, _| {
        let started = Instant::now();
        engine.ready()?;
        Ok((
            true,
            format!("readyok after {}", seconds(started.elapsed())),
        ))
    });

    match run.engine.take() {
        Some(engine) => {
            let asked = Instant::now();
            let by_itself = engine.quit();
            let took = asked.elapsed();
            let evidence = match by_itself {
                true => format!("the process ended {} after quit", seconds(took)),
                false => format!(
                    "the process still ran {:.1} s after quit: killed",
                    settings.quit.as_secs_f64()
                ),
            };
            run.row("quit", by_itself, evidence);
        }
        None => {
            let evidence = format!("not run: engine ended at row {}", run.ended_at);
            run.row("quit", false, evidence);
        }
    }
    Ok(Report {
        engine: engine_name,
        rows: run.rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(depth: Option<u32>, nodes: Option<u64>) -> Info {
        Info {
            depth,
            nodes,
            ..Info::default()
        }
    }

    #[test]
    fn a_depth_limit_is_kept_when_no_info_goes_deeper() {
        let infos = [info(Some(3), None), info(Some(5), None)];
        assert!(judge_depth(&infos, 5).0);
        let (passed, evidence) = judge_depth(&infos, 4);
        assert!(!passed);
        assert_eq!(evidence, "deepest info depth 5 (limit 4)");
        // An engine that gives no depth has answered, which is all USI asks.
        assert!(judge_depth(&[info(None, Some(9))], 1).0);
    }

    #[test]
    fn a_node_limit_may_be_overshot_up_to_twice_and_ten_thousand() {
        assert_eq!(nodes_bound(10_000), 30_000);
        assert!(judge_nodes(&[info(None, Some(30_000))], 10_000).0);
        let (passed, evidence) = judge_nodes(&[info(None, Some(30_001))], 10_000);
        assert!(!passed, "{evidence}");
        assert!(evidence.contains("30001") && evidence.contains("30000"));
        // The most nodes any info gave count, not the last info's.
        let infos = [info(None, Some(40_000)), info(None, Some(100))];
        assert!(!judge_nodes(&infos, 10_000).0);
        assert!(judge_nodes(&[], 10).0);
    }

    #[test]
    fn a_timed_search_may_be_late_by_the_tolerance() {
        let ms = Duration::from_millis;
        assert!(judge_time(ms(1500), ms(500), ms(1000)).0);
        let (passed, evidence) = judge_time(ms(1501), ms(500), ms(1000));
        assert!(!passed);
        assert_eq!(
            evidence,
            "bestmove after 1.50 s, at most 0.5 s + 1.0 s allowed"
        );
    }

    #[test]
    fn every_case_is_legal_and_the_cases_cover_what_they_claim() {
        let mut white_first_handicap = false;
        let mut ten_in_hand_white_to_move = false;
        let mut promoted = false;
        for case in &CASES {
            let (start, moves) = case.position().unwrap();
            let mut position = start.clone();
            for &mv in &moves {
                position
                    .play(mv)
                    .unwrap_or_else(|e| panic!("{}: {mv}: {e}", case.name));
            }
            assert!(!position.legal_moves().is_empty(), "{}", case.name);
            let sfen = case.sfen.unwrap_or("");
            let fields: Vec<&str> = sfen.split(' ').collect();
            if fields.len() == 4 {
                let white = fields[1] == "w";
                white_first_handicap |= white && fields[2] == "-" && fields[3] == "1";
                ten_in_hand_white_to_move |= white && fields[2].contains("10P");
                promoted |= fields[0].contains('+');
            }
        }
        assert!(white_first_handicap && ten_in_hand_white_to_move && promoted);
        // Some cases are built by moves from the start.
        assert!(CASES
            .iter()
            .any(|c| c.sfen.is_none() && c.moves.contains('+')));
    }

    #[test]
    fn a_report_aligns_its_rows_and_sums_up() {
        let row = |name: &str, passed, evidence: &str| Row {
            name: name.to_string(),
            passed,
            evidence: evidence.to_string(),
        };
        let report = Report {
            engine: "E".to_string(),
            rows: vec![
                row("handshake", true, "id name E"),
                row("isready", false, "no `readyok`"),
            ],
        };
        assert!(!report.passed());
        assert_eq!(
            report.to_string(),
            "PASS handshake  id name E\nFAIL isready    no `readyok`\nengine E: 1 of 2 checks failed\n"
        );
    }
}
