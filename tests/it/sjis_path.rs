//! The Shift_JIS reading path of `read_bytes` (KIF and KI2 in CP932 read
//! from their bytes, issue #20) gives what the general path gives, byte
//! for byte: for every fixture and every record of the shared corpus, as
//! they are and, when they are UTF-8, encoded to CP932 to exercise the
//! path. And it is taken for most plain records.

use crate::util::shared::locate;
use kifconv::decode::EncodingChoice;
use kifconv::read::{read_bytes, read_bytes_general, read_shift_jis_game, Format};
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

#[test]
fn the_shift_jis_path_reads_as_the_general_path() {
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
    let (mut read, mut fast) = (0, 0);
    // Plain records of KIF and of KI2, each with how many took the path.
    let (mut plain_kif, mut plain_ki2) = ((0, 0), (0, 0));
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        for bytes in variants(bytes) {
            for encoding in [
                EncodingChoice::Auto,
                EncodingChoice::Forced(kifconv::decode::Encoding::Cp932),
            ] {
                read += 1;
                let general = format!("{:?}", read_bytes_general(&bytes, path, None, encoding));
                let both = format!("{:?}", read_bytes(&bytes, path, None, encoding));
                assert_eq!(both, general, "{}", path.display());
                let taken = read_shift_jis_game(&bytes, None, encoding);
                if let Some(taken) = &taken {
                    fast += 1;
                    assert_eq!(
                        format!("{:?}", Ok::<&kifconv::read::Read, kifconv::Error>(taken)),
                        general,
                        "{}",
                        path.display()
                    );
                }
                // A plain record: one KIF or KI2 game in CP932 read with
                // nothing to say.
                if let Ok(r) = read_bytes_general(&bytes, path, None, encoding) {
                    let one_plain = r.errors.is_empty()
                        && r.records.len() == 1
                        && r.records[0].warnings.is_empty()
                        && r.encoding == kifconv::decode::Encoding::Cp932
                        && !bytes.is_ascii();
                    let plain = match one_plain
                        .then(|| Format::sniff(&encoding_rs::SHIFT_JIS.decode(&bytes).0))
                        .flatten()
                    {
                        Some(Format::Kif) => Some(&mut plain_kif),
                        Some(Format::Ki2) => Some(&mut plain_ki2),
                        _ => None,
                    };
                    if let Some((plain, taken_too)) = plain {
                        *plain += 1;
                        if taken.is_some() {
                            *taken_too += 1;
                        } else {
                            eprintln!("not taken: {}", path.display());
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{read} reads, {fast} on the Shift_JIS path; plain in CP932 (taken): \
         KIF {plain_kif:?}, KI2 {plain_ki2:?}"
    );
    for (name, (plain, taken), least) in [("KIF", plain_kif, 50), ("KI2", plain_ki2, 10)] {
        assert!(plain > least, "{name}: {plain}");
        assert!(taken * 10 >= plain * 9, "{name}: {taken} of {plain}");
    }
}
