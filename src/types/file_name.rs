//! The extension of a file's name, found from the end of the path's bytes:
//! the one rule every reader and the batch use to tell a file's kind.

use std::path::Path;

/// The bytes of `path`'s extension, as [`Path::extension`] finds it, read
/// from the end of the path without taking it apart into components: after
/// the last dot of the last segment, when that segment is a plain name and
/// the dot does not start it. Any other path (`.`, `..`, a path ending in
/// `/`, and every path on Windows) asks `Path::extension`. The tables the
/// result is compared with are ASCII, so no lowercase copy is made.
pub fn extension(path: &Path) -> Option<&[u8]> {
    if cfg!(windows) {
        // Other separators, and drive prefixes.
        return path.extension().map(|ext| ext.as_encoded_bytes());
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    let name = match memchr::memrchr(b'/', bytes) {
        Some(slash) => &bytes[slash + 1..],
        None => bytes,
    };
    if name.is_empty() || name == b"." || name == b".." {
        return path.extension().map(|ext| ext.as_encoded_bytes());
    }
    match memchr::memrchr(b'.', name) {
        Some(dot) if dot > 0 => Some(&name[dot + 1..]),
        _ => None,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn the_extension_is_the_one_path_finds() {
        let names = [
            "a.csa",
            "A.CSA",
            ".csa",
            "..csa",
            "a..csa",
            "a.",
            "a",
            "...",
            ".a.b",
            "..",
            ".",
            "",
            "a.kif.csa",
            "棋譜.kif",
            "ｘ.ｃｓａ",
            "a.ki2u",
            "x.tar.gz",
            "a.b.",
        ];
        let dirs = [
            "", "/", "d/", "/tmp/d/", "./", "../", "d.x/", "d//", "/a/./", "d/../", "a.b/c.d/",
        ];
        let tails = ["", "/", "/.", "//", "/..", "/./"];
        for dir in dirs {
            for name in names {
                for tail in tails {
                    let text = format!("{dir}{name}{tail}");
                    let path = Path::new(&text);
                    let std = path.extension().map(|e| e.as_encoded_bytes());
                    assert_eq!(extension(path), std, "{text:?}");
                }
            }
        }
        // Bytes that are no UTF-8 are kept as they are.
        let path = Path::new(OsStr::from_bytes(b"d/a.\xff"));
        assert_eq!(extension(path), Some(&b"\xff"[..]));
    }
}
