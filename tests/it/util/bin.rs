//! The `kifconv` binary, run as a user would, and the scratch folders its
//! tests write into ([`super::scratch`]).

pub use super::scratch::{scratch, scratch_with};
use std::path::Path;
use std::process::{Command, Output};

/// A command for the binary, run from the package root (so that
/// `fixtures/…` paths work).
pub fn command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kifconv"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// Runs the binary with `args` and waits for it.
pub fn run(args: &[&str]) -> Output {
    command().args(args).output().expect("the binary runs")
}

/// Runs the binary with `args` and waits for it; asserts it exited 0,
/// showing its standard error if not.
#[track_caller]
pub fn run_ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

/// Runs the binary with `args`, `input` on its standard input, and waits
/// for it.
pub fn run_with_input(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    // The binary may stop reading early (a usage error): a closed pipe is
    // its answer, not the test's failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("the binary runs")
}

/// Runs the binary with `args`; where /usr/bin/time exists, also returns
/// the child's peak resident memory in KiB.
pub fn run_measured(args: &[&str]) -> (Output, Option<u64>) {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return (run(args), None);
    }
    let rss = scratch("rss").join("rss.txt");
    let out = Command::new(time)
        .args(["-f", "%M", "-o"])
        .arg(&rss)
        .arg(env!("CARGO_BIN_EXE_kifconv"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let kib = std::fs::read_to_string(&rss)
        .ok()
        .and_then(|t| t.lines().last()?.trim().parse().ok());
    let _ = std::fs::remove_dir_all(rss.parent().unwrap());
    (out, kib)
}

/// The standard output, which must be UTF-8.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("standard output is UTF-8")
}

/// The standard error, which must be UTF-8.
pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("standard error is UTF-8")
}

/// The first line of the standard error that starts with `prefix`, or
/// an empty string when none does.
pub fn stderr_line(out: &Output, prefix: &str) -> String {
    stderr(out)
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_default()
        .to_string()
}

/// Asserts that the binary exited with `code`, showing its standard error
/// if not.
#[track_caller]
pub fn assert_exit(out: &Output, code: i32) {
    let shown = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{shown}");
}

/// Asserts that `shown` (what the binary wrote) holds `text`, showing it
/// whole if not.
#[track_caller]
pub fn assert_contains(shown: &str, text: &str) {
    assert!(shown.contains(text), "{shown}");
}

/// A path as an argument (the scratch folders are UTF-8).
pub fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}
