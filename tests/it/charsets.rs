//! KIF and KI2 in CP932 or UTF-8 are read from their bytes, a line
//! decoded or checked only when its text is needed. The one reader gives
//! the same games either way: every fixture and every record of the shared
//! corpus in CP932 (as it is, or encoded from UTF-8) reads as its text,
//! decoded whole, reads as UTF-8 (but for the encoding each record
//! names), and that text's bytes read as the text does.

use crate::util::shared::locate;
use kifconv::decode::EncodingChoice;
use kifconv::decode::{decode, Encoding, ExtensionHint};
use kifconv::read::{read_bytes, Format, Read};
use std::path::{Path, PathBuf};

/// Every file under `dir`, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The bytes to read of a file: as they are, and in CP932 when they are
/// UTF-8 text CP932 can hold.
fn variants(bytes: Vec<u8>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if let Ok(text) = std::str::from_utf8(&bytes) {
        if !text.is_ascii() {
            let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
            if !unmappable {
                out.push(sjis.into_owned());
            }
        }
    }
    out.push(bytes);
    out
}

/// What was read, as text, each record's encoding left out.
fn unlabelled(read: Result<Read, kifconv::Error>) -> String {
    let read = read.map(|mut read| {
        for record in &mut read.records {
            record.encoding = None;
        }
        (read.records, read.errors)
    });
    format!("{read:?}")
}

#[test]
fn cp932_reads_as_its_text_in_utf8() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared =
        std::env::var_os("KIFCONV_SHARED").map_or_else(|| root.join("../shared"), PathBuf::from);
    // This test needs the corpus: without it, it fails.
    let corpus = locate(&shared, "corpus", true)
        .unwrap_or_else(|message| panic!("{message}"))
        .expect("required");
    let mut paths = Vec::new();
    files(&root.join("fixtures"), &mut paths);
    files(&corpus, &mut paths);
    // Records read in CP932, and how many of them as KIF and as KI2.
    let (mut compared, mut kif, mut ki2) = (0, 0, 0);
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        for bytes in variants(bytes) {
            for encoding in [
                EncodingChoice::Auto,
                EncodingChoice::Forced(Encoding::Cp932),
            ] {
                let decoded = decode(&bytes, encoding, ExtensionHint::from_path(path));
                if decoded.encoding != Encoding::Cp932 || !decoded.malformed.is_empty() {
                    continue;
                }
                let utf8 = EncodingChoice::Forced(Encoding::Utf8);
                let as_text = read_bytes(decoded.text.as_bytes(), path, None, utf8);
                // Bytes read as UTF-8 when they are valid, a line at a
                // time, read as the text does.
                let auto = read_bytes(decoded.text.as_bytes(), path, None, EncodingChoice::Auto);
                if !decoded.text.starts_with('\u{feff}') {
                    assert_eq!(
                        format!("{auto:?}"),
                        format!("{as_text:?}"),
                        "{} in UTF-8",
                        path.display()
                    );
                }
                let read = read_bytes(&bytes, path, None, encoding);
                if let Ok(read) = &read {
                    assert_eq!(read.encoding, Encoding::Cp932, "{}", path.display());
                }
                assert_eq!(unlabelled(read), unlabelled(as_text), "{}", path.display());
                compared += 1;
                match Format::sniff(&decoded.text) {
                    Some(Format::Kif) => kif += 1,
                    Some(Format::Ki2) => ki2 += 1,
                    _ => {}
                }
            }
        }
    }
    eprintln!("{compared} reads compared: KIF {kif}, KI2 {ki2}");
    assert!(kif > 100 && ki2 > 20, "KIF {kif}, KI2 {ki2}");
}

/// UTF-16 without a byte-order mark, as some Windows tools save text: each
/// KIF, KI2 and CSA fixture, decoded and written as UTF-16 LE and BE with
/// no mark, reads as the same games as the fixture itself; and forced with
/// `--encoding utf-16le`.
#[test]
fn utf16_without_a_mark_reads_as_the_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut paths = Vec::new();
    for dir in ["kif", "ki2", "csa"] {
        files(&root.join(dir), &mut paths);
    }
    let usi = |bytes: &[u8]| {
        kifconv::read_bytes(bytes).ok().map(|records| {
            kifconv::write(&records, kifconv::Target::Usi, &Default::default()).unwrap()
        })
    };
    let mut compared = 0;
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let Some(want) = usi(&bytes) else { continue };
        let text = decode(&bytes, EncodingChoice::Auto, ExtensionHint::None)
            .text
            .into_owned();
        let text = text.trim_start_matches('\u{feff}');
        for big_endian in [false, true] {
            let utf16 = crate::util::write::utf16(text, big_endian);
            assert_eq!(
                usi(&utf16).as_ref(),
                Some(&want),
                "{} (big endian: {big_endian})",
                path.display()
            );
        }
        compared += 1;
    }
    assert!(compared > 40, "{compared}");
    // Forced by name.
    let text = crate::util::write::utf16("▲７六歩 △３四歩\n", false);
    let out =
        crate::util::bin::run_with_input(&["-", "--encoding", "utf-16le", "--to", "usi"], &text);
    assert_eq!(
        crate::util::bin::stdout(&out),
        "position startpos moves 7g7f 3c3d\n"
    );
}
