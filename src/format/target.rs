//! The formats kifconv writes, as a user names them: each with its name in
//! messages, the extension of its output files and the encoding it is
//! written in unless another is asked for.

/// The character encodings kifconv writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutputEncoding {
    /// UTF-8, without a byte-order mark.
    Utf8,
    /// Shift_JIS as Windows has it: code page 932 (CP932). A character it
    /// cannot hold is an error, never a `&#…;` or a `?` (unless a lossy
    /// write is asked for: see `write::Options::lossy`).
    ShiftJis,
}

impl OutputEncoding {
    /// Whether the encoding can hold `c`.
    pub fn holds(self, c: char) -> bool {
        match self {
            OutputEncoding::Utf8 => true,
            OutputEncoding::ShiftJis => {
                let mut buf = [0u8; 4];
                !encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2
            }
        }
    }

    /// The name a KIF, KI2 or CSA header declares (`#KIF version=2.0
    /// encoding=Shift_JIS`).
    pub fn declared(self) -> &'static str {
        match self {
            OutputEncoding::ShiftJis => "Shift_JIS",
            OutputEncoding::Utf8 => "UTF-8",
        }
    }
}

/// A format to write, with its encoding where the format has two usual ones
/// (KIF and KI2 in Shift_JIS or UTF-8).
///
/// Users name them as [`super::names::TARGETS`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// USI position lines, one game a line.
    Usi,
    /// SFEN (the final position, --ply N, or --all-plies).
    Sfen,
    /// KIF in Shift_JIS (CP932).
    Kif,
    /// KIF in UTF-8.
    Kifu,
    /// KI2 in Shift_JIS (CP932).
    Ki2,
    /// KI2 in UTF-8.
    Ki2u,
    /// CSA (V3.0 by default; several games separated by `/`).
    Csa,
    /// JSON Kifu Format (a pretty document for a file of one game; NDJSON,
    /// one game a line, for several games and for standard output).
    Jkf,
    /// Western (Hodges) notation with tags.
    Western,
    /// HCPE training data (cshogi's HuffmanCodedPosAndEval, binary): 38
    /// bytes a mainline position.
    Hcpe,
    /// hcpe3 training data (dlshogi's, binary): a block a game.
    Hcpe3,
    /// PackedSfenValue training data (YaneuraOu's, binary): 40 bytes a
    /// mainline position.
    Psv,
}

impl Target {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Target::Usi => "USI",
            Target::Sfen => "SFEN",
            Target::Kif | Target::Kifu => "KIF",
            Target::Ki2 | Target::Ki2u => "KI2",
            Target::Csa => "CSA",
            Target::Jkf => "JKF",
            Target::Western => "Western notation",
            Target::Hcpe => "HCPE",
            Target::Hcpe3 => "hcpe3",
            Target::Psv => "PackedSfenValue",
        }
    }

    /// The extension an output file of this format gets.
    pub fn extension(self) -> &'static str {
        match self {
            Target::Usi => "usi",
            Target::Sfen => "sfen",
            Target::Kif => "kif",
            Target::Kifu => "kifu",
            Target::Ki2 => "ki2",
            Target::Ki2u => "ki2u",
            Target::Csa => "csa",
            Target::Jkf => "jkf",
            Target::Western => "psn",
            Target::Hcpe => "hcpe",
            Target::Hcpe3 => "hcpe3",
            Target::Psv => "psv",
        }
    }

    /// Whether the format is binary training data ([`crate::training`]),
    /// not text: one entry (or block) per mainline position (or game),
    /// with no encoding.
    pub fn is_training(self) -> bool {
        matches!(self, Target::Hcpe | Target::Hcpe3 | Target::Psv)
    }

    /// The encoding the format is written in unless another is asked for:
    /// Shift_JIS for `Kif` and `Ki2`, UTF-8 for everything else (binary
    /// training data has none).
    pub fn encoding(self) -> OutputEncoding {
        match self {
            Target::Kif | Target::Ki2 => OutputEncoding::ShiftJis,
            _ => OutputEncoding::Utf8,
        }
    }

    /// Whether the format may be written in `encoding`; why not, when not:
    /// JSON (JKF) is UTF-8 by definition.
    pub fn allows(self, encoding: OutputEncoding) -> Result<(), String> {
        if self == Target::Jkf && encoding != OutputEncoding::Utf8 {
            return Err(
                "the output encoding does not apply to JKF: JSON is UTF-8 by definition".into(),
            );
        }
        Ok(())
    }
}
