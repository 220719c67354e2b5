//! How the command walks its inputs, as ripgrep walks a tree: `!GLOB`
//! prunes a folder, in folders and in archives' entry names.

use crate::util::bin::{assert_exit, run, s, scratch, stderr, stdout};
use crate::util::zip::stored;
use std::path::Path;

/// A one-move CSA record whose move is `usi` in USI (`+7776FU` is `7g7f`).
fn record(csa_move: &str) -> String {
    format!("V2.2\nPI\n+\n{csa_move}\n")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `--glob '!v3'` leaves out every folder named v3, at any depth, and
/// everything under it; a file whose own name only starts with v3 stays.
#[test]
fn a_negated_glob_prunes_a_folder() {
    let dir = scratch("prune");
    let records = dir.join("records");
    write(&records.join("a.csa"), &record("+7776FU"));
    write(&records.join("v3").join("b.csa"), &record("+2726FU"));
    write(
        &records.join("old").join("v3").join("deep").join("c.csa"),
        &record("+5756FU"),
    );
    write(&records.join("v3x").join("d.csa"), &record("+1716FU"));
    let out = run(&[s(&records), "--glob", "!v3", "--to", "usi"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("7g7f") && text.contains("1g1f"), "{text}");
    assert!(!text.contains("2g2f") && !text.contains("5g5f"), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same in a zip: an entry whose path goes through a folder named v3
/// is left out.
#[test]
fn a_negated_glob_prunes_an_archives_folder() {
    let dir = scratch("prune-zip");
    let zip = dir.join("games.zip");
    let (a, b, c) = (record("+7776FU"), record("+2726FU"), record("+5756FU"));
    std::fs::write(
        &zip,
        stored(&[
            (b"a.csa", a.as_bytes()),
            (b"v3/b.csa", b.as_bytes()),
            (b"x/v3/y/c.csa", c.as_bytes()),
        ]),
    )
    .unwrap();
    let out = run(&[s(&zip), "--glob", "!v3", "--to", "usi"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("7g7f"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Hidden files and folders found in a folder (`.git`, `.b.csa`) are not
/// walked unless `--hidden` is given; a hidden file named on the command
/// line is read.
#[test]
fn hidden_files_and_folders_are_walked_only_when_asked() {
    let dir = scratch("hidden");
    let records = dir.join("records");
    write(&records.join("a.csa"), &record("+7776FU"));
    write(&records.join(".b.csa"), &record("+2726FU"));
    write(&records.join(".git").join("c.csa"), &record("+5756FU"));
    let out = run(&[s(&records), "--to", "usi"]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "position startpos moves 7g7f\n");
    let out = run(&[s(&records), "--hidden", "--to", "usi"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("2g2f") && text.contains("5g5f"), "{text}");
    let out = run(&[s(&records.join(".b.csa")), "--to", "usi"]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "position startpos moves 2g2f\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A zip made on a Mac: its `__MACOSX/._game.kif` AppleDouble entry (and
/// a `._` entry beside the record) are skipped with one warning saying how
/// many, and the record converts with exit 0.
#[test]
fn a_zip_made_on_a_mac_converts() {
    let dir = scratch("macosx");
    let zip = dir.join("mac.zip");
    let game = record("+7776FU");
    // An AppleDouble header: magic, version, filler, then one entry.
    let mut apple = vec![0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00];
    apple.extend_from_slice(b"Mac OS X        ");
    apple.extend_from_slice(&[0x00, 0x01, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x32]);
    apple.extend_from_slice(&[0xff; 40]);
    std::fs::write(
        &zip,
        stored(&[
            (b"game.csa", game.as_bytes()),
            (b"__MACOSX/", b""),
            (b"__MACOSX/._game.kif", &apple),
            (b"._game.csa", &apple),
        ]),
    )
    .unwrap();
    let out = run(&[s(&zip), "--to", "usi", "-v"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(stdout(&out), "position startpos moves 7g7f\n");
    let notes: Vec<&str> = err.lines().filter(|l| l.contains("macOS")).collect();
    assert_eq!(
        notes,
        [format!(
            "{}: warning: 2 macOS metadata entries (__MACOSX/, ._name) skipped",
            s(&zip)
        )],
        "{err}"
    );
    assert!(err.contains("1 files, 1 games"), "{err}");
    // The same entries in a tar, read in order.
    let tar = dir.join("mac.tar");
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in [
        ("game.csa", game.as_bytes()),
        ("__MACOSX/._game.kif", &apple[..]),
        ("._game.csa", &apple[..]),
    ] {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        builder.append_data(&mut header, name, data).unwrap();
    }
    std::fs::write(&tar, builder.into_inner().unwrap()).unwrap();
    let out = run(&[s(&tar), "--to", "usi"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(stdout(&out), "position startpos moves 7g7f\n");
    assert_eq!(
        err,
        format!(
            "{}: warning: 2 macOS metadata entries (__MACOSX/, ._name) skipped\n",
            s(&tar)
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--skip-existing` resumes a batch: a second run into the same folder
/// skips every input whose outputs exist, says how many in one line, and
/// exits 0; an input added since is converted. Without it, each input is
/// an error.
#[test]
fn skip_existing_resumes_a_batch() {
    let dir = scratch("skip-existing");
    let records = dir.join("records");
    let out_dir = dir.join("out");
    write(&records.join("a.csa"), &record("+7776FU"));
    write(&records.join("sub").join("b.csa"), &record("+2726FU"));
    let first = run(&[s(&records), "-o", s(&out_dir), "--to", "usi"]);
    assert_exit(&first, 0);
    let b = out_dir.join("sub").join("b.usi");
    let written = std::fs::read(&b).unwrap();
    // Without --skip-existing: an error an input, exit 1.
    let again = run(&[s(&records), "-o", s(&out_dir), "--to", "usi"]);
    assert_eq!(again.status.code(), Some(1));
    assert_eq!(stderr(&again).matches("the output exists").count(), 2);
    write(&records.join("c.csa"), &record("+5756FU"));
    let report = dir.join("report.tsv");
    let resumed = run(&[
        s(&records),
        "-o",
        s(&out_dir),
        "--to",
        "usi",
        "--skip-existing",
        "--report",
        s(&report),
    ]);
    let err = stderr(&resumed);
    assert_eq!(resumed.status.code(), Some(0), "{err}");
    assert_eq!(
        err,
        "2 inputs skipped: their outputs exist already (--skip-existing)\n"
    );
    assert_eq!(
        std::fs::read_to_string(out_dir.join("c.usi")).unwrap(),
        "position startpos moves 5g5f\n"
    );
    assert_eq!(std::fs::read(&b).unwrap(), written);
    let report = std::fs::read_to_string(&report).unwrap();
    assert_eq!(report.matches("\tskipped\t").count(), 2, "{report}");
    // It goes with -o DIR only.
    let usage = run(&[s(&records), "--to", "usi", "--skip-existing"]);
    assert_exit(&usage, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A folder or archive named on the command line in which nothing is
/// found is an error for it (exit 1), as a missing file is; the other
/// inputs are still converted.
#[test]
fn a_named_folder_or_archive_with_no_input_is_an_error() {
    let dir = scratch("nothing-found");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    write(&dir.join("notes").join("a.txt"), "not a record\n");
    write(&dir.join("records").join("a.csa"), &record("+7776FU"));
    std::fs::write(dir.join("none.zip"), stored(&[(b"a.txt", b"text")])).unwrap();
    let (empty, notes, records, zip) = (
        dir.join("empty"),
        dir.join("notes"),
        dir.join("records"),
        dir.join("none.zip"),
    );
    let out = run(&[s(&empty), s(&notes), s(&records), s(&zip), "--to", "usi"]);
    assert_exit(&out, 1);
    assert_eq!(stdout(&out).trim(), "position startpos moves 7g7f");
    let err = stderr(&out);
    for (path, what) in [(&empty, "folder"), (&notes, "folder"), (&zip, "archive")] {
        let line = format!("{}: error: no input found in this {what}", path.display());
        assert!(err.contains(&line), "{line} not in:\n{err}");
    }
    // A glob that takes nothing in a folder of records is the same fault.
    let out = run(&[s(&records), "--glob", "*.kif", "--to", "usi"]);
    assert_exit(&out, 1);
    assert!(stderr(&out).contains("no input found in this folder"));
    // A missing input is said plainly.
    let out = run(&[s(&dir.join("missing.kif")), "--to", "usi"]);
    assert_exit(&out, 1);
    assert!(stderr(&out).contains("missing.kif: error: no such file or folder"));
    std::fs::remove_dir_all(&dir).unwrap();
}
