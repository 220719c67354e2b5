//! The names a user gives formats and encodings, in one table each: the
//! command's `--to`, `--from`, `--encoding` and `--out-encoding` values
//! and the Python package's keywords are read from these.

use super::target::{OutputEncoding, Target};
use super::training::Data::{self, Hcpe, Hcpe3, Psv};
use super::Format;
use crate::decode::Encoding::{Cp932, EucJp, Utf16Be, Utf16Le, Utf8};
use crate::decode::EncodingChoice::{self, Auto, Forced};
use Format::{Csa, Jkf, Ki2, Kif, Usi, Western};
use Source::{Record, Training};

/// What an input is read as: a record format, or training data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A game record format.
    Record(Format),
    /// Training data, whatever the file's name.
    Training(Data),
}

/// One name: the name, what it stands for, and a line of help (empty for
/// an alias, which help does not list).
pub type Name<T> = (&'static str, T, &'static str);

/// Every format written, by name.
pub const TARGETS: [Name<Target>; 12] = [
    ("usi", Target::Usi, "USI position lines, one game a line"),
    (
        "sfen",
        Target::Sfen,
        "SFEN (the final position, --ply N, or --all-plies)",
    ),
    ("kif", Target::Kif, "KIF in Shift_JIS (CP932)"),
    ("kifu", Target::Kifu, "KIF in UTF-8"),
    ("ki2", Target::Ki2, "KI2 in Shift_JIS (CP932)"),
    ("ki2u", Target::Ki2u, "KI2 in UTF-8"),
    (
        "csa",
        Target::Csa,
        "CSA (V3.0 by default; several games separated by `/`)",
    ),
    (
        "jkf",
        Target::Jkf,
        "JSON Kifu Format (a document for one game; NDJSON for several)",
    ),
    (
        "western",
        Target::Western,
        "Western (Hodges) notation with tags",
    ),
    (
        "hcpe",
        Target::Hcpe,
        "HCPE training data (cshogi's HuffmanCodedPosAndEval): 38 bytes a position",
    ),
    (
        "hcpe3",
        Target::Hcpe3,
        "hcpe3 training data (dlshogi's): a block a game",
    ),
    (
        "psv",
        Target::Psv,
        "PackedSfenValue training data (YaneuraOu's): 40 bytes a position",
    ),
];

/// Every format read, by name.
pub const SOURCES: [Name<Source>; 9] = [
    ("kif", Record(Kif), "Kakinoki KIF"),
    ("ki2", Record(Ki2), "Kakinoki KI2"),
    ("csa", Record(Csa), "CSA"),
    ("usi", Record(Usi), "USI position lines or SFEN"),
    ("jkf", Record(Jkf), "JSON Kifu Format"),
    ("western", Record(Western), "Western (Hodges) notation"),
    (
        "hcpe",
        Training(Hcpe),
        "HCPE training data, whatever the file's name",
    ),
    (
        "hcpe3",
        Training(Hcpe3),
        "hcpe3 training data, whatever the file's name",
    ),
    (
        "psv",
        Training(Psv),
        "PackedSfenValue training data (YaneuraOu's `.bin`), whatever the file's name",
    ),
];

/// Every input encoding, by name; `auto` tells it from the bytes.
pub const INPUT_ENCODINGS: [Name<EncodingChoice>; 10] = [
    ("auto", Auto, "told from the bytes (then the file name)"),
    ("utf-8", Forced(Utf8), "UTF-8"),
    ("utf8", Forced(Utf8), ""),
    ("sjis", Forced(Cp932), "Shift_JIS as Windows has it (CP932)"),
    ("shift_jis", Forced(Cp932), ""),
    ("cp932", Forced(Cp932), ""),
    ("euc-jp", Forced(EucJp), "EUC-JP"),
    ("eucjp", Forced(EucJp), ""),
    (
        "utf-16le",
        Forced(Utf16Le),
        "UTF-16, little-endian (a byte-order mark is removed)",
    ),
    (
        "utf-16be",
        Forced(Utf16Be),
        "UTF-16, big-endian (a byte-order mark is removed)",
    ),
];

/// Every output encoding, by name.
pub const OUTPUT_ENCODINGS: [Name<OutputEncoding>; 5] = [
    ("utf-8", OutputEncoding::Utf8, "UTF-8"),
    ("utf8", OutputEncoding::Utf8, ""),
    (
        "sjis",
        OutputEncoding::ShiftJis,
        "Shift_JIS as Windows has it (CP932)",
    ),
    ("shift_jis", OutputEncoding::ShiftJis, ""),
    ("cp932", OutputEncoding::ShiftJis, ""),
];

/// What `name` stands for in `table`, compared ASCII case-insensitively;
/// `Err` says what `what` is called and lists the names there are.
pub fn find<T: Copy>(table: &[Name<T>], what: &str, name: &str) -> Result<T, String> {
    table
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, value, _)| value)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(n, _, _)| *n).collect();
            format!(
                "{what} {name:?}: no such name; the names are {}",
                names.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_one_name_and_it_is_its_extension_or_kind() {
        for (name, target, help) in TARGETS {
            assert_eq!(find(&TARGETS, "format", name), Ok(target));
            assert!(!help.is_empty());
            let extension = if target == Target::Western {
                "psn"
            } else {
                name
            };
            assert_eq!(target.extension(), extension);
        }
        assert!(find(&TARGETS, "format", "docx")
            .unwrap_err()
            .contains("usi, sfen, kif"));
        assert_eq!(
            find(&INPUT_ENCODINGS, "encoding", "Shift_JIS"),
            Ok(Forced(Cp932))
        );
        assert_eq!(
            find(&OUTPUT_ENCODINGS, "encoding", "UTF8"),
            Ok(OutputEncoding::Utf8)
        );
        assert_eq!(find(&SOURCES, "format", "psv"), Ok(Training(Psv)));
    }
}
