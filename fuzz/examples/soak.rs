//! The fuzz checks on mutated real records, without libFuzzer: a stable
//! toolchain and no `cargo fuzz` needed. Real records (the fixtures, the
//! corpus beside the checkout, each UTF-8 one in CP932 too) with one to
//! six edits each (a byte changed, inserted or deleted, a run copied
//! elsewhere or cut) go through
//! [`kifconv_fuzz::round_trip`] once for every reader and for sniffing:
//! read both ways (CP932 from its bytes against its text as UTF-8), every
//! move replayed, every error rendered, every game written by every writer
//! and read back. libFuzzer's own mutations start from arbitrary bytes and
//! rarely keep a record whole enough to reach a game's later moves; these
//! start from whole records.
//!
//! ```text
//! cd fuzz
//! CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
//!   cargo run --release --example soak -- --seed 1 --seconds 600 ../fixtures ../../shared/corpus
//! ```
//!
//! (Debug assertions add the position's own consistency check after every
//! move.) The same seed and files give the same inputs. Each finding is
//! saved under `soak-found/` as a round-trip input (the reader's selector
//! byte, then the bytes), which `--replay FILE` runs again (printing the
//! panic) and `cargo run --example show -- FILE --round-trip` shows; the
//! exit status is 1 when there was one.

use kifconv::write::{encode, OutputEncoding};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Files over this size are left out: they would slow every round.
const MAX_FILE: u64 = 200_000;

// The tests' own generator: the same seed gives the same inputs.
#[path = "../../tests/it/util/rng.rs"]
#[allow(dead_code)]
mod rng;
use rng::Rng;

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if entry.metadata().is_ok_and(|m| m.len() <= MAX_FILE) {
            out.push(path);
        }
    }
}

/// One to six edits: a byte changed, inserted or deleted, a run of up to
/// 40 bytes copied elsewhere, or a run of up to 30 cut.
fn mutate(bytes: &mut Vec<u8>, rng: &mut Rng) {
    for _ in 0..1 + rng.below(6) {
        let len = bytes.len();
        match rng.below(5) {
            0 if len > 0 => {
                let at = rng.below(len);
                bytes[at] = rng.next() as u8;
            }
            1 => {
                let at = rng.below(len + 1);
                bytes.insert(at, rng.next() as u8);
            }
            2 if len > 0 => {
                bytes.remove(rng.below(len));
            }
            3 if len > 0 => {
                let from = rng.below(len);
                let run = 1 + rng.below(40.min(len - from));
                let copied = bytes[from..from + run].to_vec();
                let at = rng.below(len + 1);
                bytes.splice(at..at, copied);
            }
            4 if len > 0 => {
                let from = rng.below(len);
                let run = rng.below(30.min(len - from) + 1);
                bytes.drain(from..from + run);
            }
            _ => {}
        }
    }
}

/// The last panic's message and place, kept by the panic hook.
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut seed, mut seconds, mut out) = (1u64, 60u64, PathBuf::from("soak-found"));
    let (mut dirs, mut replay) = (Vec::new(), None);
    while let Some(arg) = args.next() {
        let mut value = || args.next().expect("a value after the option");
        match arg.as_str() {
            "--seed" => seed = value().parse().expect("a number"),
            "--seconds" => seconds = value().parse().expect("a number"),
            "--out" => out = PathBuf::from(value()),
            "--replay" => replay = Some(PathBuf::from(value())),
            _ => dirs.push(PathBuf::from(arg)),
        }
    }
    std::panic::set_hook(Box::new(|info| {
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = info.to_string();
    }));
    if let Some(file) = replay {
        let data = std::fs::read(&file).expect("a readable file");
        let found = std::panic::catch_unwind(|| kifconv_fuzz::round_trip(&data)).is_err();
        if found {
            println!("{}", LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()));
        }
        std::process::exit(i32::from(found));
    }
    let mut files = Vec::new();
    for dir in &dirs {
        walk(dir, &mut files);
    }
    files.sort();
    let mut inputs: Vec<(PathBuf, Vec<u8>)> = files
        .into_iter()
        .filter_map(|path| Some((path.clone(), std::fs::read(&path).ok()?)))
        .collect();
    // Every UTF-8 record CP932 can hold, in CP932 too: most of the corpus
    // is UTF-8, and the Shift_JIS byte path reads only CP932.
    let in_cp932: Vec<(PathBuf, Vec<u8>)> = inputs
        .iter()
        .filter_map(|(path, bytes)| {
            let text = std::str::from_utf8(bytes).ok().filter(|t| !t.is_ascii())?;
            Some((path.clone(), encode(text, OutputEncoding::ShiftJis).ok()?))
        })
        .collect();
    inputs.extend(in_cp932);
    assert!(!inputs.is_empty(), "no files under {dirs:?}");
    std::fs::create_dir_all(&out).expect("the --out folder");
    eprintln!("{} files, seed {seed}, {seconds} s", inputs.len());
    let mut rng = Rng::new(seed.max(1));
    let started = std::time::Instant::now();
    let (mut tried, mut findings) = (0u64, 0u64);
    while started.elapsed().as_secs() < seconds {
        tried += 1;
        let (path, original) = &inputs[rng.below(inputs.len())];
        let mut data = original.clone();
        mutate(&mut data, &mut rng);
        // Room for the selector byte in front.
        data.insert(0, 0);
        // Selectors 0-6: the six readers, then sniffing (`format_for`).
        for selector in 0..7u8 {
            data[0] = selector;
            if std::panic::catch_unwind(|| kifconv_fuzz::round_trip(&data)).is_ok() {
                continue;
            }
            findings += 1;
            let saved = out.join(format!("{seed}-{tried}-{selector}"));
            std::fs::write(&saved, &data).expect("the --out folder is writable");
            println!(
                "{} (from {}): {}",
                saved.display(),
                path.display(),
                LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner())
            );
            break;
        }
    }
    eprintln!("{tried} inputs, {findings} findings");
    std::process::exit(i32::from(findings > 0));
}
