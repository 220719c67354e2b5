//! Training files rewritten entry by entry (`kifconv x.hcpe --to psv`,
//! `--to hcpe`, `--to hcpe3`, `--to sfen`, and the same from `.psv`): the
//! direct path writes the bytes and says the messages that reading each
//! entry as a record and writing that record gives. The record path is
//! the definition, run by the same binary: `--min-moves 0` is a filter
//! that keeps every game, and a filter sends the entries through records.

use crate::util::bin::{run, s, scratch};
use crate::util::rng::Rng;
use crate::util::shared::shared;
use std::path::Path;

/// Runs `input --to to` both ways and asserts the same bytes, messages
/// and exit code.
fn same_both_ways(input: &Path, to: &str) {
    let direct = run(&[s(input), "--to", to, "-j", "1"]);
    let records = run(&[s(input), "--to", to, "-j", "1", "--min-moves", "0"]);
    let name = format!("{} --to {to}", input.display());
    assert!(!records.stdout.is_empty(), "{name}: nothing written");
    assert!(
        direct.stdout == records.stdout,
        "{name}: the direct path wrote other bytes ({} against {})",
        direct.stdout.len(),
        records.stdout.len()
    );
    assert_eq!(
        String::from_utf8_lossy(&direct.stderr),
        String::from_utf8_lossy(&records.stderr),
        "{name}"
    );
    assert_eq!(direct.status.code(), records.status.code(), "{name}");
}

/// Writes `bytes` to `dir/name` and gives the path.
fn file(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `bytes` with entries of `size` bytes spoiled: in some, one byte of
/// each field changed (position, evaluation, move, result, ply), some
/// moves swapped for another entry's, and the last entry cut short.
fn spoiled(bytes: &[u8], size: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let entries = out.len() / size;
    for _ in 0..entries / 4 {
        let entry = (rng.next() as usize % entries) * size;
        let at = rng.next() as usize % size;
        out[entry + at] ^= 1 << (rng.next() % 8);
    }
    for _ in 0..entries / 8 {
        let (a, b) = (rng.next() as usize % entries, rng.next() as usize % entries);
        let code = [out[a * size + 34], out[a * size + 35]];
        out[b * size + 34..b * size + 36].copy_from_slice(&code);
    }
    // Extreme evaluations, which writing clamps.
    for (i, eval) in [i16::MIN, i16::MAX, -32767].into_iter().enumerate() {
        out[i * size + 32..i * size + 34].copy_from_slice(&eval.to_le_bytes());
    }
    out.truncate(out.len() - size / 2);
    out
}

/// Every entry of the bench CSA games as HCPE and as PackedSfenValue,
/// and the first 3,000 of each with spoiled entries, rewritten as every
/// kind: the same bytes, errors and summary both ways.
#[test]
fn entries_rewritten_directly_are_what_their_records_write() {
    let Some(bench) = shared("bench") else {
        return;
    };
    let dir = scratch("training-recode");
    let hcpe = dir.join("bench.hcpe");
    let made = run(&[
        s(&bench.join("csa.zip")),
        "--to",
        "hcpe",
        "-j",
        "1",
        "--quiet",
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let written = made.stdout;
    assert!(written.len() > 1_000_000 * 38, "{} bytes", written.len());
    std::fs::write(&hcpe, &written).unwrap();
    let psv = run(&[s(&hcpe), "--to", "psv", "--quiet", "--min-moves", "0"]).stdout;
    assert_eq!(psv.len() / 40, written.len() / 38);
    let psv_path = file(&dir, "bench.psv", &psv);
    same_both_ways(&hcpe, "psv");
    same_both_ways(&hcpe, "sfen");
    same_both_ways(&psv_path, "hcpe");
    let mut rng = Rng::new(0x7ead);
    for (name, bytes, size) in [("hcpe", &written, 38), ("psv", &psv, 40)] {
        let whole = file(&dir, &format!("part.{name}"), &bytes[..3000 * size]);
        let bad = spoiled(&bytes[..3000 * size], size, &mut rng);
        let bad = file(&dir, &format!("bad.{name}"), &bad);
        for to in ["hcpe", "psv", "hcpe3", "sfen"] {
            same_both_ways(&whole, to);
            same_both_ways(&bad, to);
        }
        let errors = run(&[s(&bad), "--to", "psv", "--quiet"]);
        let text = String::from_utf8_lossy(&errors.stderr);
        assert!(text.matches("error: entry ").count() > 100, "{text}");
        assert!(text.contains("the file ends"), "{text}");
    }
}
