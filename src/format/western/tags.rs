//! The tag block of a Western game: `[Key "Value"]` (backslash escapes
//! kept as written), and the names a `[Handicap "…"]` tag may give a
//! standard start, Japanese or English.

use super::notation::Bad;
use crate::format::japanese::handicaps::HANDICAP_NAMES;
use crate::Handicap;

/// A tag at the start of `text` (which starts with `[`): key, value, the
/// whole tag, and the rest.
pub(crate) fn tag(text: &str) -> Result<(&str, &str, &str, &str), Bad> {
    let at = |rest: &str| text.len() - rest.len();
    let inner = text[1..].trim_start();
    let key_len = inner
        .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
        .unwrap_or(inner.len());
    if key_len == 0 {
        return Err(Bad {
            offset: at(inner),
            len: inner.chars().next().map_or(0, char::len_utf8),
            message: "a tag name after `[` (as in [Sente \"Name\"])",
        });
    }
    let key = &inner[..key_len];
    let rest = inner[key_len..].trim_start();
    let Some(value_start) = rest.strip_prefix('"') else {
        return Err(Bad {
            offset: at(rest),
            len: rest.chars().next().map_or(0, char::len_utf8),
            message: "a value in double quotes after the tag name (as in [Sente \"Name\"])",
        });
    };
    let value_len = closing_quote(value_start).ok_or(Bad {
        offset: at(rest),
        len: 1,
        message: "a closing `\"` for this tag value on the same line",
    })?;
    let value = &value_start[..value_len];
    let after = value_start[value_len + 1..].trim_start();
    let Some(rest) = after.strip_prefix(']') else {
        return Err(Bad {
            offset: at(after),
            len: after.chars().next().map_or(0, char::len_utf8),
            message: "`]` to close the tag",
        });
    };
    Ok((key, value, &text[..at(rest)], rest))
}

/// The byte index of the `"` that ends a tag value (`\"` and `\\` do not).
pub(super) fn closing_quote(value: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i),
            _ => {}
        }
    }
    None
}

/// The English name of a standard start, as the writer writes it.
pub fn english_name(handicap: Handicap) -> &'static str {
    HANDICAP_NAMES[handicap as usize].2
}

/// The start a `[Handicap "…"]` tag names: a Japanese name (`香落ち`,
/// `平手`) or an English one from [`HANDICAP_NAMES`]. English names are
/// matched ignoring case, spaces, hyphens and a final `handicap`; `Pieces`
/// may stand for `Piece`, number words for digits (`Two Pieces`), and `Left
/// Lance` and `Rook and Lance` are accepted too.
pub fn handicap_by_name(name: &str) -> Option<Handicap> {
    let name = name.trim();
    if let Some(h) = crate::format::japanese::handicaps::handicap_named(name) {
        return Some(h);
    }
    let key = english_key(name);
    if key == "leftlance" {
        return Some(Handicap::Lance);
    }
    HANDICAP_NAMES
        .iter()
        .find(|row| english_key(row.2) == key)
        .map(|row| row.0)
}

/// `Two Pieces Handicap` → `2piece`.
fn english_key(name: &str) -> String {
    let mut key: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if let Some(stem) = key.strip_suffix("handicap") {
        key.truncate(stem.len());
    }
    let words = [
        ("pieces", "piece"),
        ("and", ""),
        ("two", "2"),
        ("three", "3"),
        ("four", "4"),
        ("five", "5"),
        ("six", "6"),
        ("seven", "7"),
        ("eight", "8"),
        ("ten", "10"),
    ];
    for (word, replacement) in words {
        key = key.replace(word, replacement);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags() {
        let (key, value, whole, rest) = tag(r#"[Sente "Habu Yoshiharu"] x"#).unwrap();
        assert_eq!(
            (key, value, whole, rest),
            (
                "Sente",
                "Habu Yoshiharu",
                r#"[Sente "Habu Yoshiharu"]"#,
                " x"
            )
        );
        let (_, value, _, _) = tag(r#"[ Event  "A \"big\" one" ]"#).unwrap();
        assert_eq!(value, r#"A \"big\" one"#);
        assert_eq!(tag(r#"[ "x"]"#).unwrap_err().offset, 2);
        assert_eq!(tag("[Sente x]").unwrap_err().offset, 7);
        assert_eq!(tag(r#"[Sente "x]"#).unwrap_err().offset, 7);
        assert_eq!(tag(r#"[Sente "x""#).unwrap_err().offset, 10);
    }

    #[test]
    fn handicap_names() {
        for (h, japanese, english, _) in HANDICAP_NAMES {
            assert_eq!(english_name(h), english);
            for name in [japanese, english] {
                assert_eq!(handicap_by_name(name), Some(h), "{name}");
            }
        }
        use Handicap::*;
        for (name, expected) in [
            ("two pieces", Some(TwoPieces)),
            ("Left Seven Pieces", Some(LeftSevenPieces)),
            ("Rook and Lance", Some(RookLance)),
            ("Left Lance", Some(Lance)),
            ("Bishop handicap", Some(Bishop)),
            ("Queen", None),
            ("", None),
        ] {
            assert_eq!(handicap_by_name(name), expected, "{name}");
        }
    }
}
