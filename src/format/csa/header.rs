//! CSA's header lines: the version (`V2.2`), the players (`N+…`, `N-…`)
//! and the `$KEY:value` lines; and the CSA key the writer writes a header
//! under, by the one table of header keys ([`crate::record::headers`]).
//!
//! The reader keeps every key as written (`N+`, `$EVENT`, `$X_NEW`); the
//! writer writes a header under its CSA key: a field's key under CSA's
//! spelling of it (先手, 下手, `Sente` and `N+` are all `N+`; `$TIME`
//! stays `$TIME`), any other `$KEY` as it is, and nothing else (the writer
//! keeps those as comments).

use super::error;
use crate::error::Error;
use crate::record::headers::{written_key, Field, KeyStyle};
use crate::record::raw::{RawGame, RawHeader, Span};

/// The CSA header key for a header (of CSA or another format), if CSA has
/// one: the writer writes the header under this key. Every `$KEY` of no
/// field is its own (`$MAX_MOVES`, `$JISHOGI`, `$NOTE`, and keys of later
/// versions).
pub fn csa_key(key: &str) -> Option<&str> {
    match Field::of_key(key) {
        Some(field) if !field.keys(KeyStyle::Csa).is_empty() => written_key(key, KeyStyle::Csa),
        _ if is_dollar_key(key) => Some(key),
        _ => None,
    }
}

/// `$` and upper-case letters, digits or `_`: a key a CSA header line can
/// hold and the reader reads back as the same key.
fn is_dollar_key(key: &str) -> bool {
    key.strip_prefix('$').is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    })
}

/// Reads `s`, a statement of line `n`, into `raw` if it is a header line:
/// the game's version line (a second one, or a `V` that is no version, is
/// a warning), `N+` or `N-` and a name, or `$KEY:value`. `Ok(false)` when
/// it is none of these; an error for a `$` line with no colon.
pub(super) fn statement<'a>(
    n: u32,
    line: &'a str,
    s: &'a str,
    raw: &mut RawGame<'a>,
) -> Result<bool, Error> {
    let header = |key, value| RawHeader {
        span: Span::of(n, line, s),
        key,
        value,
    };
    match s.as_bytes().first() {
        Some(b'V') if is_version(&s[1..]) && !raw.headers.iter().any(|h| h.key == "V") => {
            raw.headers.push(header("V", &s[1..]))
        }
        Some(b'V') => raw.warnings.push(Span::of(n, line, s).warning(
            "a `V` line that is not the version line (expected one V2, V2.1, V2.2 or V3.0 before the game); ignored",
        )),
        Some(b'N') if s.starts_with("N+") || s.starts_with("N-") => {
            raw.headers.push(header(&s[..2], &s[2..]))
        }
        Some(b'$') => {
            // A plain scan: a key is a few bytes long, and a `char`
            // search costs more to set up than it saves.
            let colon = s
                .bytes()
                .position(|b| b == b':')
                .ok_or_else(|| error(n, line, s, "expected `$KEY:value`"))?;
            let (key, value) = (&s[..colon], &s[colon + 1..]);
            raw.headers.push(header(key, value));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `V2`, `V2.2`, `V3.0`: a version number.
fn is_version(text: &str) -> bool {
    let (major, minor) = text.split_once('.').unwrap_or((text, "0"));
    matches!(major, "2" | "3") && !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::csa::write::{write, Version};
    use crate::read::{read_text, Format};
    use crate::record::{Header, Record};

    /// A record of one move with this one header, written as CSA and read
    /// back.
    fn through_csa(key: &str, value: &str) -> (String, Record) {
        let mut record = read_text("PI\n+\n+7776FU\n", Format::Csa)
            .unwrap()
            .remove(0);
        record.headers = vec![Header {
            key: key.to_string(),
            value: value.to_string(),
        }];
        let written = write(&record, Version::V3_0);
        let back = read_text(&written, Format::Csa).unwrap().remove(0);
        (written, back)
    }

    #[test]
    fn every_key_of_a_field_is_written_under_its_csa_key_and_read_back() {
        for field in Field::ALL {
            let csa = field.keys(KeyStyle::Csa);
            for key in field.all_keys() {
                let Some(&first) = csa.first() else {
                    assert_eq!(csa_key(key), None, "{key}");
                    continue;
                };
                let expected_key = if csa.contains(&key) { key } else { first };
                assert_eq!(csa_key(key), Some(expected_key), "{key}");
                // A value in CSA's form where CSA gives the field one.
                let value = match field {
                    Field::StartTime | Field::EndTime => "2024/01/05 10:00:00",
                    Field::TimeControl => "00:10+30",
                    _ => "a value, with: commas",
                };
                let (written, back) = through_csa(key, value);
                let expected = if expected_key.starts_with('N') {
                    format!("\n{expected_key}{value}\n")
                } else {
                    format!("\n{expected_key}:{value}\n")
                };
                assert!(written.contains(&expected), "{key}: {written}");
                // Read back under the CSA key, which names the field again.
                let [header] = &back.headers[1..] else {
                    panic!("{key}: {:?}", back.headers)
                };
                assert_eq!(header.key, expected_key, "{key}");
                assert_eq!(header.value, value, "{key}");
                assert_eq!(Field::of_key(&header.key), Some(field));
                assert_eq!(back.tree.root().comments(), Vec::<String>::new(), "{key}");
            }
        }
    }

    #[test]
    fn other_dollar_keys_are_their_own_and_the_rest_have_none() {
        for key in ["$MAX_MOVES", "$JISHOGI", "$X_NEW_2"] {
            assert_eq!(csa_key(key), Some(key));
            let (_, back) = through_csa(key, "v");
            let header = &back.headers[1];
            assert_eq!((header.key.as_str(), header.value.as_str()), (key, "v"));
            assert_eq!(Field::of_key(key), None);
        }
        for key in [
            "$",
            "$lower",
            "$A:B",
            "V",
            "備考",
            "Result",
            "N",
            "手合割",
            "作者",
        ] {
            assert_eq!(csa_key(key), None, "{key}");
        }
    }

    #[test]
    fn header_statements() {
        let mut raw = RawGame::default();
        for s in ["V2.2", "N+a b", "N-", "$EVENT:x:y", "V3.0", "VX"] {
            assert!(statement(1, s, s, &mut raw).unwrap(), "{s}");
        }
        let pairs: Vec<_> = raw.headers.iter().map(|h| (h.key, h.value)).collect();
        assert_eq!(
            pairs,
            [("V", "2.2"), ("N+", "a b"), ("N-", ""), ("$EVENT", "x:y")]
        );
        assert_eq!(raw.warnings.len(), 2);
        for s in ["N", "NX", "PI", "+7776FU", "T1"] {
            assert!(!statement(1, s, s, &mut raw).unwrap(), "{s}");
        }
        let error = statement(3, "$EVENT", "$EVENT", &mut raw).unwrap_err();
        assert_eq!((error.location.line, error.location.column), (3, 1));
        assert_eq!(error.message, "expected `$KEY:value`");
    }
}
