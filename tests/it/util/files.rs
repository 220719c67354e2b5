//! Walking folders of fixtures, records and outputs; the fixtures' records.

use kifconv::decode::EncodingChoice;
use kifconv::error::Error;
use kifconv::read::{read_bytes, Read};
use kifconv::record::Record;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fixtures folder of the checkout.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every file under `dir` (links to folders followed), each folder's
/// entries in name order, leaving out the folders named in `skip`.
pub fn under(dir: &Path, skip: &[&str]) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let mut out = Vec::new();
    for path in entries {
        if path.is_dir() {
            if !path
                .file_name()
                .is_some_and(|n| skip.iter().any(|s| n == *s))
            {
                out.extend(under(&path, skip));
            }
        } else {
            out.push(path);
        }
    }
    out
}

/// `bytes` read as a file named `name` is read: the format and the
/// encoding told from the bytes, else from the name.
pub fn read_as(bytes: &[u8], name: &str) -> Result<Read, Error> {
    read_bytes(bytes, Path::new(name), None, EncodingChoice::Auto)
}

/// The records of every fixture kifconv reads, each with its file's name.
pub fn fixture_records() -> Vec<(String, Record)> {
    let mut paths = under(&fixtures(), &["bad"]);
    paths.retain(|p| p.extension().is_none_or(|e| e != "md"));
    let mut out = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        if let Ok(read) = kifconv::read::read_bytes(&bytes, &path, None, Default::default()) {
            let name = path.display().to_string();
            out.extend(read.records.into_iter().map(|r| (name.clone(), r)));
        }
    }
    out
}

/// Every file under `dir`, by its path relative to `dir`, in name order.
pub fn relative(dir: &Path) -> Vec<String> {
    contents(dir)
        .into_keys()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

/// Every file under `dir` with its bytes, by path relative to `dir`.
pub fn contents(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    under(dir, &[])
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path.strip_prefix(dir).unwrap().to_path_buf(), bytes)
        })
        .collect()
}

#[test]
fn under_walks_in_name_order_and_skips_folders() {
    let all = under(&fixtures(), &[]);
    let skipped = under(&fixtures(), &["bad"]);
    let bad = fixtures().join("bad");
    assert!(all.iter().any(|p| p.starts_with(&bad)));
    assert!(!skipped.iter().any(|p| p.starts_with(&bad)));
    assert!(skipped.len() < all.len() && skipped.len() > 50);
    let kif: Vec<&PathBuf> = all
        .iter()
        .filter(|p| p.parent() == Some(&fixtures().join("kif")))
        .collect();
    assert!(kif.windows(2).all(|w| w[0] < w[1]), "{kif:?}");
}
