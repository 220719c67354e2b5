//! Entry names: decoded from the archive's bytes, and made into a relative
//! path that cannot leave the output folder.

use std::path::PathBuf;

/// The name of one archive entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryName {
    /// The name as the archive has it, decoded; for messages (it may hold
    /// control characters).
    pub name: String,
    /// Its normal path components only: no `..`, `.`, root or drive prefix,
    /// `/` and `\` both separating. Empty when nothing is left (a name such
    /// as `..`); such an entry is reported as an error, never yielded.
    pub relative: PathBuf,
}

impl EntryName {
    /// A name stored as bytes: UTF-8 when `utf8` is flagged (invalid
    /// sequences replaced) or the bytes are valid UTF-8, else CP932.
    pub fn decode(raw: &[u8], utf8: bool) -> EntryName {
        let name = match std::str::from_utf8(raw) {
            Ok(text) => text.to_owned(),
            Err(_) if utf8 => String::from_utf8_lossy(raw).into_owned(),
            Err(_) => encoding_rs::SHIFT_JIS
                .decode_without_bom_handling(raw)
                .0
                .into_owned(),
        };
        EntryName::from_text(name)
    }

    /// A name the archive stores as text already (7z: UTF-16).
    pub fn from_text(name: String) -> EntryName {
        let relative = safe_relative(&name);
        EntryName { name, relative }
    }

    /// Whether the entry is macOS's metadata, not a file someone packed: a
    /// zip made on a Mac holds a `__MACOSX/` folder of AppleDouble files,
    /// each named `._` and the name of the file it describes.
    pub fn is_macos_metadata(&self) -> bool {
        self.relative
            .components()
            .any(|c| c.as_os_str() == "__MACOSX")
            || self
                .relative
                .file_name()
                .is_some_and(|n| n.as_encoded_bytes().starts_with(b"._"))
    }
}

fn safe_relative(name: &str) -> PathBuf {
    let mut relative = PathBuf::new();
    for (i, part) in name.split(['/', '\\']).enumerate() {
        // A drive prefix (`C:`, or `C:name`, which is drive-relative).
        let part = match part.as_bytes() {
            [letter, b':', ..] if i == 0 && letter.is_ascii_alphabetic() => &part[2..],
            _ => part,
        };
        if !matches!(part, "" | "." | "..") {
            relative.push(part);
        }
    }
    relative
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relative(name: &str) -> String {
        EntryName::from_text(name.into())
            .relative
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn only_normal_components_are_kept() {
        let cases = [
            ("a/b.kif", "a/b.kif"),
            ("../../etc/passwd", "etc/passwd"),
            ("/abs/x.csa", "abs/x.csa"),
            ("C:\\games\\x.kif", "games/x.kif"),
            ("C:x.kif", "x.kif"),
            ("a/./b/../c.kif", "a/b/c.kif"),
            ("dir\\sub\\x.ki2", "dir/sub/x.ki2"),
            ("..", ""),
            ("/", ""),
            ("...", "..."),
            ("a\u{1}b.kif", "a\u{1}b.kif"),
        ];
        for (name, want) in cases {
            assert_eq!(relative(name), want, "{name:?}");
        }
    }

    #[test]
    fn names_are_utf8_when_valid_or_flagged_else_cp932() {
        // 棋譜.kif in CP932.
        let cp932 = b"\x8a\xfb\x95\x88.kif";
        assert_eq!(EntryName::decode(cp932, false).name, "棋譜.kif");
        assert_eq!(
            EntryName::decode("棋譜.kif".as_bytes(), false).name,
            "棋譜.kif"
        );
        // Flagged UTF-8 that is not: replaced, not read as CP932.
        assert_eq!(
            EntryName::decode(cp932, true).name,
            "\u{fffd}\u{fffd}\u{fffd}\u{fffd}.kif"
        );
    }
}
