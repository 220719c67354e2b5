//! Data safety, as the binary is run: a batch killed mid-way leaves only
//! whole outputs, a write that fails is reported and leaves nothing behind
//! (the failing-writer case is a unit test in `src/cli/batch.rs`), and
//! inputs are never modified.

use kifconv::emit::kif;
use kifconv::{Move, Position};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

fn bin() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kifconv"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kifconv-safety-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Every file under `dir`, by path relative to it.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A long game (the same first legal move each time, never ending early),
/// written as KIF: slow enough to convert that a batch can be caught
/// mid-way.
fn long_kif(plies: usize) -> String {
    let mut pos = Position::startpos();
    let mut text = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    let mut previous = None;
    for ply in 1..=plies {
        // Shuffle kings and golds rather than play toward a mate: pick the
        // legal move after which the opponent still has one, cycling
        // through the list by ply so that the game does not repeat itself
        // too soon.
        let moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&mv| {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                next.has_legal_move()
            })
            .collect();
        let mv = moves[(ply * 7919) % moves.len()];
        text.push_str(&format!("{ply:>4} "));
        kif::move_text(&mut text, &pos, mv, previous);
        text.push('\n');
        pos.play_unchecked(mv);
        previous = Some(mv.to());
    }
    text
}

#[test]
fn a_killed_batch_leaves_only_whole_outputs() {
    let dir = scratch("killed");
    let (inputs, killed, whole) = (dir.join("in"), dir.join("killed"), dir.join("whole"));
    std::fs::create_dir_all(&inputs).unwrap();
    let game = long_kif(1000);
    const FILES: usize = 2000;
    for i in 0..FILES {
        std::fs::write(inputs.join(format!("game-{i:05}.kif")), &game).unwrap();
    }
    // Start a batch into `killed` and kill it (SIGKILL: no clean-up code
    // runs) once some outputs exist.
    let mut child = bin()
        .args([s(&inputs), "-o", s(&killed), "--to", "kif", "-j", "2", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let count = |dir: &Path| std::fs::read_dir(dir).map_or(0, |d| d.count());
    while count(&killed) < 20 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The same batch, run to the end.
    let out = run(&[s(&inputs), "-o", s(&whole), "--to", "kif", "-j", "2", "-q"]);
    assert_eq!(out.status.code(), Some(0));
    let whole = files(&whole);
    assert_eq!(whole.len(), FILES);
    let killed = files(&killed);
    let (outputs, temporary): (Vec<_>, Vec<_>) = killed
        .iter()
        .partition(|(path, _)| !path.to_string_lossy().starts_with('.'));
    eprintln!(
        "killed after {} of {FILES} outputs ({} temporary files left)",
        outputs.len(),
        temporary.len()
    );
    assert!(
        outputs.len() < FILES,
        "the batch ended before it was killed"
    );
    assert!(!outputs.is_empty());
    // Every output under its own name is whole: byte for byte what the
    // complete run wrote.
    for (path, bytes) in &outputs {
        assert_eq!(Some(*bytes), whole.get(*path), "{}", path.display());
    }
    // What else is there is a hidden temporary file, never an output name.
    for (path, _) in &temporary {
        let name = path.to_string_lossy();
        assert!(
            name.contains(".kifconv-") && name.ends_with(".tmp"),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file's bytes and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, SystemTime)> {
    files(dir)
        .into_iter()
        .map(|(path, bytes)| {
            let modified = std::fs::metadata(dir.join(&path))
                .unwrap()
                .modified()
                .unwrap();
            (path, (bytes, modified))
        })
        .collect()
}

#[test]
fn inputs_are_never_modified() {
    let dir = scratch("inputs");
    let inputs = dir.join("fixtures");
    // Every fixture, good and bad, in every format and encoding.
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for (path, bytes) in files(&source) {
        let target = inputs.join(&path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    let before = snapshot(&inputs);
    assert!(before.len() > 100);
    let out = dir.join("out");
    for to in ["usi", "sfen", "kif", "kifu", "ki2", "csa", "jkf", "western"] {
        for extra in [&[][..], &["--force", "--flip"][..]] {
            let mut args = vec![s(&inputs), "-o", s(&out), "--to", to, "-q"];
            args.extend_from_slice(extra);
            run(&args);
        }
    }
    // Outputs aimed into the inputs' own folder, over them.
    for to in ["kif", "ki2", "csa", "usi"] {
        run(&[s(&inputs), "-o", s(&inputs), "--to", to, "--force", "-q"]);
    }
    let after = snapshot(&inputs);
    // Converting into the input folder may add files; it changes none.
    for (path, (bytes, modified)) in &before {
        let (now, then) = after.get(path).expect("an input was removed");
        assert!(now == bytes, "{} was modified", path.display());
        assert_eq!(then, modified, "{} was touched", path.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_standard_output_is_a_reported_failure() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("note: no /dev/full here; skipped");
        return;
    };
    let out = bin()
        .args(["fixtures/kif", "--to", "usi", "-q"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write to standard output"),
        "{stderr}"
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = bin()
        .args(["fixtures", "--to", "kif", "-q"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read nothing: close our end at once.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("cannot write"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
