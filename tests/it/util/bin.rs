//! The `kifconv` binary, run as a user would, and the scratch folders its
//! tests write into.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// A fresh, empty scratch folder: its name holds the process id and a
/// number no other call in this process gets, so tests running at once
/// never share one.
pub fn scratch(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("kifconv-it-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fresh scratch folder (as [`scratch`]) holding one file, `file`, of
/// `contents`: the folder and the file's path.
pub fn scratch_with(name: &str, file: &str, contents: impl AsRef<[u8]>) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let path = dir.join(file);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

/// A path as an argument (the scratch folders are UTF-8).
pub fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn scratch_folders_are_fresh_and_distinct() {
    let (a, b) = (scratch("same"), scratch("same"));
    assert_ne!(a, b);
    assert!(a.is_dir() && b.is_dir());
    assert_eq!(std::fs::read_dir(&a).unwrap().count(), 0);
    std::fs::remove_dir_all(a).unwrap();
    std::fs::remove_dir_all(b).unwrap();
}
