//! Reading a record from bytes or text: choose the format, decode, parse,
//! resolve. The one entry point the binary and library users need.

use crate::decode::{self, Decoded, EncodingChoice, ExtensionHint};
use crate::error::{Error, Stage};
use crate::parse::{ki2, kif};
use crate::record::{Record, Warning};
use crate::resolve::game;
use std::path::Path;

/// The record formats kifconv reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Kif,
    Ki2,
}

impl Format {
    /// The format a file name suggests, if any.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "kif" | "kifu" => Some(Format::Kif),
            "ki2" | "ki2u" => Some(Format::Ki2),
            _ => None,
        }
    }

    /// The format the text looks like: KIF move lines start with a number,
    /// KI2 move lines with ▲ or △.
    pub fn sniff(text: &str) -> Option<Format> {
        for line in text.lines().take(400) {
            let body = line.trim_start_matches([' ', '\u{3000}', '\t']);
            if body.starts_with("手数----") {
                return Some(Format::Kif);
            }
            let first = body.chars().next();
            if first.is_some_and(|c| crate::parse::common::side_mark(c).is_some()) {
                return Some(Format::Ki2);
            }
            if first.is_some_and(|c| c.is_ascii_digit())
                && crate::parse::common::move_text(
                    body.trim_start_matches(|c: char| c.is_ascii_digit())
                        .trim_start(),
                )
                .is_ok()
            {
                return Some(Format::Kif);
            }
        }
        None
    }
}

/// What was read from one input.
#[derive(Debug)]
pub struct Read {
    pub records: Vec<Record>,
    pub encoding: decode::Encoding,
}

/// Reads a record from text in a known format.
pub fn read_text(text: &str, format: Format) -> Result<Vec<Record>, Error> {
    let raw = match format {
        Format::Kif => kif::parse(text)?,
        Format::Ki2 => ki2::parse(text)?,
    };
    Ok(vec![game::build(raw)?])
}

/// Reads bytes: decodes them (see [`decode`]), picks the format from
/// `format`, else the content, else the file name, and reads the records.
pub fn read_bytes(
    bytes: &[u8],
    path: &Path,
    format: Option<Format>,
    encoding: EncodingChoice,
) -> Result<Read, Error> {
    let Decoded {
        text,
        encoding: used,
        malformed,
    } = decode::decode(bytes, encoding, ExtensionHint::from_path(path));
    let format = format
        .or_else(|| Format::sniff(&text))
        .or_else(|| Format::from_extension(path))
        .ok_or_else(|| {
            Error::at(
                Stage::Parse,
                1,
                text.lines().next().unwrap_or(""),
                0,
                "",
                "cannot tell the format (no KIF or KI2 moves found, and the file name does not say); use --from",
            )
        })?;
    let mut records = read_text(&text, format)?;
    for record in &mut records {
        record.encoding = Some(used);
    }
    for bad in &malformed {
        for record in &mut records {
            record.warnings.push(Warning {
                line: bad.line,
                column: bad.column,
                text: String::new(),
                message: format!(
                    "bytes that are not valid {} were replaced by U+FFFD",
                    used.name()
                ),
            });
        }
    }
    Ok(Read {
        records,
        encoding: used,
    })
}
