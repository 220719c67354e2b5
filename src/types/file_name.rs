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
    // A name's extension is a few bytes from its end: a plain backward
    // search finds the mark before a vector search would start.
    let mark = bytes.iter().rposition(|&b| b == b'.' || b == b'/');
    let segment_start = |at: usize| at == 0 || bytes.get(at - 1) == Some(&b'/');
    match mark {
        None => None,
        // No dot in the last segment, unless it is empty (a trailing slash).
        Some(slash) if bytes.get(slash) == Some(&b'/') => {
            if slash + 1 == bytes.len() {
                path.extension().map(|ext| ext.as_encoded_bytes())
            } else {
                None
            }
        }
        Some(dot) => {
            let last = dot + 1 == bytes.len();
            if last
                && (segment_start(dot)
                    || (bytes.get(dot - 1) == Some(&b'.') && segment_start(dot - 1)))
            {
                // The segment is `.` or `..`.
                path.extension().map(|ext| ext.as_encoded_bytes())
            } else if segment_start(dot) {
                // A dot that starts the name starts no extension.
                None
            } else {
                bytes.get(dot + 1..)
            }
        }
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
