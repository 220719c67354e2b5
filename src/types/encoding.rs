//! Which text encoding a record was read from: its name in messages and
//! the labels a user or a file's declaration gives it. The decoding itself
//! is `crate::decode`'s.

/// Which encoding the text was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 that started with a byte-order mark (not part of the decoded text).
    Utf8Bom,
    /// Shift_JIS as Windows writes it: code page 932, with the NEC and IBM extensions.
    Cp932,
    /// EUC-JP.
    EucJp,
    /// UTF-16 little-endian, read after its byte-order mark `FF FE` when it has one (the
    /// mark is not part of the text).
    Utf16Le,
    /// UTF-16 big-endian, read after its byte-order mark `FE FF` when it has one.
    Utf16Be,
}

impl Encoding {
    /// A name for messages: `"UTF-8"`, `"UTF-8 (BOM)"`, `"Shift_JIS (CP932)"`, `"EUC-JP"`,
    /// `"UTF-16LE"` or `"UTF-16BE"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 (BOM)",
            Encoding::Cp932 => "Shift_JIS (CP932)",
            Encoding::EucJp => "EUC-JP",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
        }
    }

    /// Parses a user-supplied name for `--encoding`, or the name in a `#KIF … encoding=`
    /// declaration. Recognises `utf-8`, `utf8`, `sjis`, `shift_jis`, `shift-jis`, `cp932`,
    /// `ms932`, `windows-31j`, `euc-jp` and `eucjp`, ignoring ASCII case, surrounding
    /// whitespace and quotes, and treating `_` and `-` as the same.
    #[must_use]
    pub fn from_label(label: &str) -> Option<Encoding> {
        const LABELS: [(&str, Encoding); 10] = [
            ("utf-8", Encoding::Utf8),
            ("utf8", Encoding::Utf8),
            ("sjis", Encoding::Cp932),
            ("shift-jis", Encoding::Cp932),
            ("shiftjis", Encoding::Cp932),
            ("cp932", Encoding::Cp932),
            ("ms932", Encoding::Cp932),
            ("windows-31j", Encoding::Cp932),
            ("euc-jp", Encoding::EucJp),
            ("eucjp", Encoding::EucJp),
        ];
        let label = label.trim().trim_matches(|c| c == '"' || c == '\'');
        LABELS
            .iter()
            .find(|(known, _)| label_matches(label, known))
            .map(|&(_, encoding)| encoding)
    }
}

/// Whether `label` spells `known` (lowercase, with `-`), ignoring ASCII case and `_`/`-`.
fn label_matches(label: &str, known: &str) -> bool {
    let normalise = |b: u8| match b {
        b'_' => b'-',
        _ => b.to_ascii_lowercase(),
    };
    label.len() == known.len() && label.bytes().map(normalise).eq(known.bytes())
}
