//! Scratch folders for the tests to write into, fresh and never shared.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

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

#[test]
fn scratch_folders_are_fresh_and_distinct() {
    let (a, b) = (scratch("same"), scratch("same"));
    assert_ne!(a, b);
    assert!(a.is_dir() && b.is_dir());
    assert_eq!(std::fs::read_dir(&a).unwrap().count(), 0);
    std::fs::remove_dir_all(a).unwrap();
    std::fs::remove_dir_all(b).unwrap();
}
