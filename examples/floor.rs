//! The floor for the speed comparison: find, read and decode every record
//! file under the given folders, exactly as kifconv does, and parse nothing.
//! `cargo run --release --example floor -- DIR…` prints files and bytes.

use kifconv::decode::{decode, EncodingChoice, ExtensionHint};
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a readable folder")
        .filter_map(|e| e.ok())
        .map(|e| (e.path(), e.file_type().map(|t| t.is_dir()).unwrap_or(false)))
        .collect();
    entries.sort();
    for (path, is_dir) in entries {
        if is_dir {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let mut files = Vec::new();
    for dir in std::env::args().skip(1) {
        walk(Path::new(&dir), &mut files);
    }
    let mut bytes = 0usize;
    let mut chars = 0usize;
    for path in &files {
        let data = std::fs::read(path).expect("a readable file");
        bytes += data.len();
        let decoded = decode(&data, EncodingChoice::Auto, ExtensionHint::from_path(path));
        chars += decoded.text.len();
    }
    println!(
        "{} files, {bytes} bytes read, {chars} bytes of text",
        files.len()
    );
}
