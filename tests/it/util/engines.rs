//! The real USI engines the tests drive: YaneuraOu from
//! `../shared/tools/engines` (built there when its binary does not run)
//! and Debian's `fairy-stockfish`.

use super::shared::shared;
use kifconv::usi::{Engine, EngineErrorKind, Mate, Timeouts};
use kifconv::Position;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// YaneuraOu's `edition` (`material` or `mate`), or `None` (after a note)
/// when ../shared is missing and not required.
pub fn yaneuraou(edition: &str) -> Option<PathBuf> {
    let tools = shared("tools")?;
    let script = tools.join("engines/engine.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(edition)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    assert!(
        out.status.success(),
        "engine.sh {edition} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    assert!(path.is_file(), "engine.sh printed {}", path.display());
    Some(path)
}

/// Debian's Fairy-Stockfish (`apt-get install fairy-stockfish`, which
/// `.ci/run` does), or `None` after a note; with
/// `KIFCONV_REQUIRE_SHARED=1` (as CI runs) a missing one fails.
pub fn fairy_stockfish() -> Option<PathBuf> {
    let found = ["/usr/games", "/usr/bin", "/usr/local/bin"]
        .iter()
        .map(|dir| PathBuf::from(dir).join("fairy-stockfish"))
        .find(|p| p.is_file());
    if found.is_none() {
        let required = std::env::var_os("KIFCONV_REQUIRE_SHARED").is_some_and(|v| v == "1");
        assert!(
            !required,
            "fairy-stockfish is not installed (apt-get install -y fairy-stockfish)"
        );
        let test = std::thread::current().name().unwrap_or("?").to_string();
        eprintln!("note: {test}: fairy-stockfish not installed; skipped");
    }
    found
}

/// Whether the process `pid` still runs (a zombie counts as ended).
pub fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            // The state follows the command's closing parenthesis.
            let state = stat.rsplit_once(')').map(|(_, s)| s.trim_start());
            !state.is_some_and(|s| s.starts_with('Z') || s.starts_with('X'))
        })
        .unwrap_or(false)
}

/// What the tests set in YaneuraOu for searches that repeat: one thread,
/// a small hash, no book of its own.
pub const YANEURAOU_OPTIONS: [(&str, &str); 3] = [
    ("Threads", "1"),
    ("USI_Hash", "16"),
    ("BookFile", "no_book"),
];

/// `options` as command-line arguments: `--option NAME=VALUE` each.
pub fn option_args(options: &[(&str, &str)]) -> Vec<String> {
    options
        .iter()
        .flat_map(|(name, value)| ["--option".to_string(), format!("{name}={value}")])
        .collect()
}

/// YaneuraOu's mate edition (`engine`, from [`yaneuraou`]) asked for a
/// mate in `pos` with `time`, in a fresh process of one thread.
///
/// The edition has a race: it prints its speed as nodes per elapsed
/// millisecond, and when its solver ends before its timer has ticked
/// (a quick mate while the machine is busy) it divides by zero and dies
/// of SIGFPE. About one start in 200 did so under load here, and CI met
/// it. So a death by SIGFPE is retried, up to four starts; any other
/// error, or a fourth such death, fails the test.
pub fn yaneuraou_mate(engine: &Path, pos: &Position, time: Duration) -> Mate {
    let options = [
        ("Threads".to_string(), "1".to_string()),
        ("USI_Hash".to_string(), "64".to_string()),
    ];
    let path = engine.to_str().expect("a UTF-8 engine path");
    for start in 1.. {
        let mut yane = Engine::start(path, &options, Timeouts::default()).unwrap();
        match yane.mate(pos, &[], Some(time)) {
            Ok(answer) => {
                yane.quit();
                return answer;
            }
            Err(e) if start < 4 && died_of_sigfpe(&e.kind) => {
                eprintln!("note: YaneuraOu's mate edition died of SIGFPE; started again");
            }
            Err(e) => panic!("{}: {e:?}", pos.sfen()),
        }
    }
    unreachable!("the loop returns or panics")
}

fn died_of_sigfpe(kind: &EngineErrorKind) -> bool {
    matches!(kind, EngineErrorKind::Ended { status: Some(s), .. } if s.contains("SIGFPE"))
}
