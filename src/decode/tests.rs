//! The decoder's tests: detection, decoding, damage reports, random bytes and the corpus.

use super::sniff::{
    ascii_prefix_len, count_malformed, declared_encoding, looks_like_euc_jp, DECLARATION_BYTES,
};
use super::*;
use crate::test_util::write::utf16;
use Encoding::{Cp932, EucJp, Utf16Be, Utf16Le, Utf8, Utf8Bom};

#[test]
fn ascii_prefix_len_finds_the_first_high_byte() {
    for len in 0..20 {
        let mut bytes = vec![b'a'; 20];
        assert_eq!(ascii_prefix_len(&bytes[..len]), len);
        if len < 20 {
            bytes[len] = 0xA4;
            assert_eq!(ascii_prefix_len(&bytes), len, "high byte at {len}");
        }
    }
}

const KIFU: &str = "先手：羽生善治\n後手：谷川浩司\n▲７六歩　△３四歩\n";

fn auto(bytes: &[u8]) -> Decoded<'_> {
    decode(bytes, EncodingChoice::Auto, ExtensionHint::None)
}

fn forced(encoding: Encoding, bytes: &[u8]) -> Decoded<'_> {
    decode(bytes, EncodingChoice::Forced(encoding), ExtensionHint::None)
}

/// Asserts, in one comparison, what `decoded` holds: its encoding, its text and the
/// undecodable sequences found. `case` names the case in the failure message.
#[track_caller]
fn check(
    case: impl std::fmt::Debug,
    decoded: &Decoded<'_>,
    expected: (Encoding, &str, &[Malformed]),
) {
    let seen = (
        decoded.encoding,
        decoded.text.as_ref(),
        decoded.malformed.as_slice(),
    );
    assert_eq!(seen, expected, "{case:?}");
}

fn encode(text: &str, encoding: &'static encoding_rs::Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text:?} is not all in {}", encoding.name());
    bytes.into_owned()
}

fn cp932(text: &str) -> Vec<u8> {
    encode(text, encoding_rs::SHIFT_JIS)
}

fn euc_jp(text: &str) -> Vec<u8> {
    encode(text, encoding_rs::EUC_JP)
}

fn at(offset: usize, line: u32, column: u32) -> Malformed {
    Malformed {
        offset,
        line,
        column,
    }
}

fn is_borrowed(decoded: &Decoded<'_>) -> bool {
    matches!(decoded.text, Cow::Borrowed(_))
}

/// Every way to choose an encoding: detection, then each one forced, UTF-16 last.
pub(super) const CHOICES: [EncodingChoice; 7] = [
    EncodingChoice::Auto,
    EncodingChoice::Forced(Utf8),
    EncodingChoice::Forced(Utf8Bom),
    EncodingChoice::Forced(Cp932),
    EncodingChoice::Forced(EucJp),
    EncodingChoice::Forced(Utf16Le),
    EncodingChoice::Forced(Utf16Be),
];

/// [`CHOICES`] but UTF-16: those whose text keeps the input's ASCII bytes.
const ASCII_CHOICES: &[EncodingChoice] = CHOICES.split_at(5).0;

const ALL_HINTS: [ExtensionHint; 3] = [
    ExtensionHint::None,
    ExtensionHint::Utf8,
    ExtensionHint::Legacy,
];

#[test]
fn empty_input_is_empty_text() {
    for &choice in ASCII_CHOICES {
        let decoded = decode(b"", choice, ExtensionHint::Legacy);
        assert_eq!(decoded.text, "");
        assert!(decoded.malformed.is_empty());
        assert!(is_borrowed(&decoded));
    }
    assert_eq!(auto(b"").encoding, Utf8);
}

#[test]
fn utf16_with_or_without_a_bom_is_decoded() {
    for (bom, big_endian, encoding) in [
        (BOM_UTF16_LE, false, Utf16Le),
        (BOM_UTF16_BE, true, Utf16Be),
    ] {
        let bare = utf16(KIFU, big_endian);
        let bytes = [bom, &bare].concat();
        for input in [&bytes, &bare] {
            for hint in ALL_HINTS {
                let decoded = decode(input, EncodingChoice::Auto, hint);
                check(hint, &decoded, (encoding, KIFU, &[]));
                assert_eq!(not_a_record(input, &decoded), None);
            }
            // Forced, with or without its mark.
            assert_eq!(forced(encoding, input).text, KIFU);
        }
        // A final odd byte is damage, located after the BOM and the text.
        let cut = [bytes.as_slice(), b"\x41"].concat();
        let (text, damage) = (format!("{KIFU}\u{FFFD}"), [at(cut.len() - 1, 4, 1)]);
        check(encoding, &auto(&cut), (encoding, &text, &damage));
    }
    // Text holding a NUL character is no UTF-16 record, marked or not.
    let nul = utf16("PI\n\0+\n", false);
    assert_ne!(auto(&nul).encoding, Utf16Le);
}

#[test]
fn what_is_not_a_record() {
    let reason = |bytes: &[u8]| not_a_record(bytes, &auto(bytes)).map(|n| (n.offset, n.reason));
    assert_eq!(reason(b""), Some((0, "the input is empty".into())));
    assert_eq!(
        reason("\r\n \u{3000}\n".as_bytes()),
        Some((
            0,
            "the input holds nothing but white space (7 bytes)".into()
        ))
    );
    assert_eq!(
        reason([BOM, b"\n"].concat().as_slice()).map(|r| r.0),
        Some(0)
    );
    // UTF-16 without its mark is read (see utf16_with_or_without_a_bom_is_decoded);
    // bytes that look like it but do not decode as it (a final odd byte)
    // are NUL characters, with a guess.
    assert_eq!(reason(&utf16("PI\n+\n", false)), None);
    let damaged = |big_endian| [utf16("PI\n+\n", big_endian), b"A".to_vec()].concat();
    let (offset, why) = reason(&damaged(false)).unwrap();
    assert_eq!(offset, 1);
    assert!(why.contains("UTF-16 LE without a byte-order mark"), "{why}");
    let (offset, why) = reason(&damaged(true)).unwrap();
    assert_eq!(offset, 0);
    assert!(why.contains("UTF-16 BE"), "{why}");
    let (_, why) = reason(&[0; 100]).unwrap();
    assert_eq!(why, "a NUL character: binary data, not text");
    // Binary data: control characters and undecodable bytes.
    let (offset, why) = reason(b"ab\x01\x02\x03\x04\x05\x06\x07\x08cd").unwrap();
    assert_eq!(offset, 2);
    assert!(
        why.starts_with("binary data (8 of the first 12 characters"),
        "{why}"
    );
    assert!(reason(&[0xFF; 64]).unwrap().1.starts_with("binary data"));
    // A few control characters in text are not binary data.
    assert_eq!(reason(b"PI\n+\n+7776FU\x1b[31m\n\x0c\x1a"), None);
    assert_eq!(reason(KIFU.as_bytes()), None);
}

#[test]
fn forcing_utf8_still_removes_a_bom() {
    let bytes = [BOM, b"abc"].concat();
    for encoding in [Utf8, Utf8Bom] {
        check(encoding, &forced(encoding, &bytes), (Utf8Bom, "abc", &[]));
        check(encoding, &forced(encoding, b"abc"), (Utf8, "abc", &[]));
    }
}

#[test]
fn clean_text_is_detected_whatever_the_file_name() {
    // A BOM means UTF-8, over a declaration, and is not part of the text;
    // valid UTF-8 is UTF-8 even in a `.kif` file. Both are borrowed, not
    // copied.
    let declared = format!("#KIF version=2.0 encoding=Shift_JIS\n{KIFU}");
    let cases = [
        ([BOM, KIFU.as_bytes()].concat(), Utf8Bom, KIFU, true),
        (
            [BOM, declared.as_bytes()].concat(),
            Utf8Bom,
            &declared,
            true,
        ),
        (KIFU.as_bytes().to_vec(), Utf8, KIFU, true),
        (cp932(KIFU), Cp932, KIFU, false),
        (euc_jp(KIFU), EucJp, KIFU, false),
    ];
    for (bytes, encoding, text, borrowed) in cases {
        for hint in ALL_HINTS {
            let decoded = decode(&bytes, EncodingChoice::Auto, hint);
            check((encoding, hint), &decoded, (encoding, text, &[]));
            assert_eq!(is_borrowed(&decoded), borrowed, "{encoding:?} {hint:?}");
        }
    }
    // Half-width katakana (single shift 2) and JIS X 0212 (single shift 3) are EUC-JP too.
    // (encoding_rs encodes no JIS X 0212, so 丂 is written out: 8F B0 A1.)
    let bytes = [euc_jp("先手：ﾊﾌﾞ ").as_slice(), b"\x8F\xB0\xA1"].concat();
    check("SS2 and SS3", &auto(&bytes), (EucJp, "先手：ﾊﾌﾞ 丂", &[]));
}

#[test]
fn cp932_extensions_decode() {
    // NEC row 13 (①), an IBM extension (髙), and 0x8160 as Windows reads it (U+FF5E, not
    // the U+301C of JIS X 0208).
    let cases: [(&[u8], &str); 3] = [
        (b"\x87\x40", "①"),
        (b"\xFB\xFC", "髙"),
        (b"\x81\x60", "\u{FF5E}"),
    ];
    for (bytes, expected) in cases {
        check(bytes, &forced(Cp932, bytes), (Cp932, expected, &[]));
        // Detected in context. (FB FC alone is also a valid EUC-JP pair: two bytes are too
        // few to tell the encodings apart.)
        let line = [cp932("先手：").as_slice(), bytes].concat();
        let text = format!("先手：{expected}");
        check(bytes, &auto(&line), (Cp932, &text, &[]));
    }
    let name = [
        b"\x8E\xE8\x8D\x87\x81\x46".as_slice(),
        b"\x87\x40\x8D\xB2\x8B\xB4\xFB\xFC\x81\x60",
    ]
    .concat();
    assert_eq!(auto(&name).text, "手合：①佐橋髙～");
}

#[test]
fn euc_jp_is_told_from_cp932() {
    // The same answer whether the ASCII tail is found by the test or
    // handed to it.
    let euc = |bytes: &[u8]| {
        let found = looks_like_euc_jp(bytes, AsciiTail::of(bytes));
        assert_eq!(found, looks_like_euc_jp(bytes, AsciiTail::default()));
        found
    };
    // EUC-JP is also well-formed CP932, which is why it is tested first.
    let bytes = euc_jp("後手：谷川浩司\n+7776FU\n");
    assert_eq!(count_malformed(&bytes, Cp932), 0);
    assert!(euc(&bytes));
    // CP932 is not mistaken for EUC-JP.
    for text in [
        KIFU,
        "N+羽生善治\nN-谷川浩司\n+7776FU\n",
        "同　歩",
        "▲",
        "７六",
    ] {
        assert!(!euc(&cp932(text)), "{text}");
    }
    assert!(!euc(b"plain ASCII"));
}

#[test]
fn declared_encoding_wins_over_valid_utf8() {
    // C3 A9 is "é" in UTF-8 and "ﾃｩ" (two half-width katakana) in CP932.
    let header = "#KIF version=2.0 encoding=Shift_JIS\r\n";
    let bytes = [header.as_bytes(), b"\xC3\xA9\r\n"].concat();
    let text = format!("{header}ﾃｩ\r\n");
    check("declared", &auto(&bytes), (Cp932, &text, &[]));
    check("undeclared", &auto(b"\xC3\xA9\r\n"), (Utf8, "é\r\n", &[]));
}

#[test]
fn declarations_in_every_format_are_read() {
    let cases: [(&[u8], Option<Encoding>); 9] = [
        (b"#KIF version=2.0 encoding=UTF-8\r\n", Some(Utf8)),
        (b"#KIF version=2.0 encoding=Shift_JIS\n", Some(Cp932)),
        (b"#KI2 version=2.0 encoding=EUC-JP", Some(EucJp)),
        (b"'CSA encoding=SHIFT_JIS\nV2.2\n", Some(Cp932)),
        (b"V2.2\r'CSA encoding=UTF-8\r", Some(Utf8)),
        (b"# comment\n\n#KIF encoding=UTF-8\n", None),
        (b"#KIF version=2.0 encoding=ISO-2022-JP\n", None),
        (b"x #KIF encoding=UTF-8\n", None),
        (b"#KIF version=2.0\n", None),
    ];
    for (bytes, expected) in cases {
        let case = String::from_utf8_lossy(bytes);
        assert_eq!(declared_encoding(bytes), expected, "{case:?}");
    }
    let far = [
        [b' '; DECLARATION_BYTES].as_slice(),
        b"\n#KIF encoding=UTF-8\n",
    ]
    .concat();
    assert_eq!(declared_encoding(&far), None);
}

#[test]
fn declared_euc_jp_and_declared_utf8_are_used() {
    let euc = [
        b"#KIF version=2.0 encoding=EUC-JP\n".as_slice(),
        &euc_jp(KIFU),
    ]
    .concat();
    assert_eq!(auto(&euc).encoding, EucJp);
    let utf8 = format!("'CSA encoding=UTF-8\n{KIFU}");
    let decoded = decode(utf8.as_bytes(), EncodingChoice::Auto, ExtensionHint::Legacy);
    check("UTF-8", &decoded, (Utf8, &utf8, &[]));
    assert!(is_borrowed(&decoded));
}

#[test]
fn a_declaration_the_bytes_contradict_is_set_aside() {
    // As in real files: CP932 bytes under a header that still says UTF-8.
    let text = format!("#KIF version=2.0 encoding=UTF-8\r\n{KIFU}");
    let bytes = cp932(&text);
    let decoded = decode(&bytes, EncodingChoice::Auto, ExtensionHint::Legacy);
    check("lying header", &decoded, (Cp932, &text, &[]));
}

#[test]
fn ascii_declared_as_shift_jis_is_still_borrowed() {
    let decoded = auto(b"#KIF version=2.0 encoding=Shift_JIS\n1 7g7f\n");
    assert_eq!(decoded.encoding, Cp932);
    assert!(is_borrowed(&decoded));
}

#[test]
fn a_character_cut_short_at_the_end_is_reported() {
    // CP932 or EUC-JP, cut inside its last character (half of 歩).
    for (whole, encoding) in [
        (cp932(KIFU.trim_end()), Cp932),
        (euc_jp(KIFU.trim_end()), EucJp),
    ] {
        let bytes = &whole[..whole.len() - 1];
        let text = "先手：羽生善治\n後手：谷川浩司\n▲７六歩　△３四\u{FFFD}";
        let damage = [at(bytes.len() - 1, 3, 9)];
        check(encoding, &auto(bytes), (encoding, text, &damage));
    }
}

#[test]
fn malformed_sequences_are_located() {
    // CRLF, LF and a lone CR end one line each.
    let decoded = forced(Utf8, b"a\r\nb\rc\n\r\nd\xFFe\r\xFF");
    let text = "a\r\nb\rc\n\r\nd\u{FFFD}e\r\u{FFFD}";
    let damage = [at(10, 5, 2), at(13, 6, 1)];
    check("line breaks", &decoded, (Utf8, text, &damage));
    // Columns count characters.
    let bytes = [cp932("▲７六歩").as_slice(), b"\xFD", b"\n\x81"].concat();
    let text = "▲７六歩\u{FFFD}\n\u{FFFD}";
    let damage = [at(8, 1, 5), at(10, 2, 1)];
    check("columns", &auto(&bytes), (Cp932, text, &damage));
    // Offsets count the BOM.
    let decoded = auto(b"\xEF\xBB\xBFab\xFF");
    check("BOM", &decoded, (Utf8Bom, "ab\u{FFFD}", &[at(5, 1, 3)]));
    // An ASCII byte after a lead byte is kept.
    let decoded = forced(Cp932, b"\x82\nX");
    check("lead", &decoded, (Cp932, "\u{FFFD}\nX", &[at(0, 1, 1)]));
}

#[test]
fn only_the_first_malformed_sequences_are_listed_but_all_are_replaced() {
    let bytes = b"\xFF\n".repeat(40);
    let decoded = auto(&bytes);
    assert_eq!(decoded.malformed.len(), MAX_REPORTED);
    assert_eq!(decoded.malformed[15], at(30, 16, 1));
    assert_eq!(decoded.text, "\u{FFFD}\n".repeat(40));
    // Past the listed ones, CP932 text between them decodes as before.
    let bytes = [cp932("▲７六歩").as_slice(), b"\xFD\xFD"]
        .concat()
        .repeat(40);
    let decoded = forced(Cp932, &bytes);
    assert_eq!(decoded.malformed.len(), MAX_REPORTED);
    assert_eq!(decoded.text, "▲７六歩\u{FFFD}\u{FFFD}".repeat(40));
}

#[test]
fn a_damaged_file_takes_the_least_damaged_encoding() {
    let bytes = [KIFU.as_bytes(), b"\xFF", KIFU.as_bytes()].concat();
    assert!(count_malformed(&bytes, Cp932) > 1);
    let decoded = decode(&bytes, EncodingChoice::Auto, ExtensionHint::Legacy);
    let text = format!("{KIFU}\u{FFFD}{KIFU}");
    check("UTF-8", &decoded, (Utf8, &text, &[at(KIFU.len(), 4, 1)]));

    let bytes = [cp932(KIFU).as_slice(), b"\xFF"].concat();
    let decoded = decode(&bytes, EncodingChoice::Auto, ExtensionHint::Utf8);
    assert_eq!(decoded.encoding, Cp932);
}

#[test]
fn a_stray_byte_in_euc_jp_leaves_it_euc_jp() {
    let long = KIFU.repeat(3);
    let bytes = [euc_jp(&long).as_slice(), b"\x80", &euc_jp(&long)].concat();
    let damage = [at(euc_jp(&long).len(), 10, 1)];
    let text = format!("{long}\u{FFFD}{long}");
    check("stray", &auto(&bytes), (EucJp, &text, &damage));
}

#[test]
fn ties_go_to_the_declaration_then_the_hint_then_cp932() {
    for (hint, encoding) in [
        (ExtensionHint::Utf8, Utf8),
        (ExtensionHint::Legacy, Cp932),
        (ExtensionHint::None, Cp932),
    ] {
        let decoded = decode(b"abc\xFF", EncodingChoice::Auto, hint);
        check(hint, &decoded, (encoding, "abc\u{FFFD}", &[at(3, 1, 4)]));
    }
    let declared = auto(b"#KIF encoding=EUC-JP\nabc\xFF");
    let text = "#KIF encoding=EUC-JP\nabc\u{FFFD}";
    check("declared", &declared, (EucJp, text, &[at(24, 2, 4)]));
}

#[test]
fn forced_encodings_are_obeyed() {
    // Each read as the other is the wrong text, with bytes that cannot be
    // decoded.
    for (bytes, encoding) in [(euc_jp(KIFU), Cp932), (cp932(KIFU), EucJp)] {
        let read = forced(encoding, &bytes);
        assert_eq!(read.encoding, encoding);
        assert_ne!(read.text, KIFU);
        assert!(!read.malformed.is_empty(), "{encoding:?}");
    }
}

#[test]
fn line_endings_and_a_missing_final_newline_are_kept() {
    for text in ["a\r\nb", "a\rb\r", "a\nb\n", "▲７六歩\r\n△３四歩"] {
        assert_eq!(auto(text.as_bytes()).text, text);
        assert_eq!(auto(&cp932(text)).text, text);
    }
}

#[test]
fn labels() {
    let cases = [
        (
            Some(Utf8),
            &["utf-8", "UTF-8", "utf8", "Utf_8", " \"UTF-8\" "][..],
        ),
        (
            Some(Cp932),
            &[
                "sjis",
                "SJIS",
                "Shift_JIS",
                "SHIFT_JIS",
                "shift-jis",
                "cp932",
                "CP932",
                "MS932",
                "Windows-31J",
            ],
        ),
        (Some(EucJp), &["euc-jp", "EUC_JP", "eucjp"]),
        (None, &["", "utf-16", "latin1", "utf-8x", "ＵＴＦ-８"]),
    ];
    for (expected, labels) in cases {
        for label in labels {
            assert_eq!(Encoding::from_label(label), expected, "{label:?}");
        }
    }
}

#[test]
fn extension_hints() {
    let cases = [
        (
            ExtensionHint::Utf8,
            &["game.kifu", "game.KI2U", "game.jkf", "game.json"][..],
        ),
        (
            ExtensionHint::Legacy,
            &["game.kif", "dir.x/GAME.KIF", "game.ki2", "game.csa"],
        ),
        (ExtensionHint::None, &["game.txt", "kif", ""]),
    ];
    let hint = |path| ExtensionHint::from_path(Path::new(path));
    for (expected, paths) in cases {
        for path in paths {
            assert_eq!(hint(path), expected, "{path}");
        }
    }
}

use crate::test_util::rng::Rng;

/// Random input shaped like the interesting cases: lead bytes, line breaks, BOMs and
/// declarations appear far more often than in uniform noise.
fn random_input(rng: &mut Rng) -> Vec<u8> {
    const PREFIXES: [&[u8]; 5] = [
        b"",
        BOM,
        b"#KIF version=2.0 encoding=UTF-8\r\n",
        b"#KIF version=2.0 encoding=Shift_JIS\n",
        b"'CSA encoding=EUC-JP\r",
    ];
    const PIECES: [u8; 10] = [b'\r', b'\n', b'a', 0x81, 0x82, 0x8E, 0x8F, 0xA4, 0xE3, 0xFF];
    let mut bytes = PREFIXES[rng.below(PREFIXES.len())].to_vec();
    for _ in 0..rng.below(48) {
        let byte = match rng.below(3) {
            0 => PIECES[rng.below(PIECES.len())],
            _ => rng.next() as u8,
        };
        bytes.push(byte);
    }
    bytes
}

/// Line breaks before `offset`, counted on the raw bytes (CR, LF and CRLF are ASCII and
/// survive every decoding unchanged).
fn line_of(bytes: &[u8], offset: usize) -> u32 {
    let before = &bytes[..offset];
    let breaks = before
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' || (b == b'\n' && (i == 0 || before[i - 1] != b'\r')))
        .count();
    breaks as u32 + 1
}

#[test]
fn random_bytes_never_panic_and_every_report_is_consistent() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let bytes = random_input(&mut rng);
        for &choice in ASCII_CHOICES {
            for hint in ALL_HINTS {
                let decoded = decode(&bytes, choice, hint);
                let context = format!("{bytes:02X?} {choice:?} {hint:?}");
                assert!(decoded.malformed.len() <= MAX_REPORTED, "{context}");
                let replacements = decoded.text.matches(char::REPLACEMENT_CHARACTER).count();
                assert!(replacements >= decoded.malformed.len(), "{context}");
                let in_order = |a: &Malformed, b: &Malformed| a.offset < b.offset;
                assert!(decoded.malformed.is_sorted_by(in_order), "{context}");
                for spot in &decoded.malformed {
                    assert!(spot.offset < bytes.len(), "{context}");
                    assert!(spot.column >= 1, "{context}");
                    assert_eq!(spot.line, line_of(&bytes, spot.offset), "{context}");
                }
                if choice == EncodingChoice::Auto && decoded.encoding == Utf8 {
                    if let Ok(text) = std::str::from_utf8(&bytes) {
                        assert_eq!(decoded.text, text, "{context}");
                        assert!(is_borrowed(&decoded), "{context}");
                    }
                }
            }
        }
    }
}

/// Reads a file of the shared corpus, or `None` (with a note) when it is
/// absent (the corpus itself is found as every test finds it).
fn corpus_file(path: &str) -> Option<Vec<u8>> {
    let full = crate::test_util::shared::shared("corpus")?.join(path);
    std::fs::read(&full)
        .map_err(|error| eprintln!("skipped: cannot read {}: {error}", full.display()))
        .ok()
}

/// Decodes a corpus file as the converter would, with the hint from its name.
fn decode_corpus_file<'a>(path: &str, bytes: &'a [u8]) -> Decoded<'a> {
    decode(
        bytes,
        EncodingChoice::Auto,
        ExtensionHint::from_path(Path::new(path)),
    )
}

#[test]
fn corpus_pairs_in_cp932_and_utf8_decode_to_the_same_text() {
    let pairs = [
        ("shogihome/encoding/sjis.kif", "shogihome/encoding/utf8.kif"),
        ("shogihome/encoding/sjis.ki2", "shogihome/encoding/utf8.ki2"),
        (
            "maou/tests/maou/app/converter/resources/test_dir/input/test_data_sjis.kif",
            "maou/rust/maou_shogi/tests/fixtures/kifu/kif_gen_test_data_1.kifu",
        ),
    ];
    for (sjis_path, utf8_path) in pairs {
        let (Some(sjis), Some(utf8)) = (corpus_file(sjis_path), corpus_file(utf8_path)) else {
            continue;
        };
        let from_sjis = decode_corpus_file(sjis_path, &sjis);
        let from_utf8 = decode_corpus_file(utf8_path, &utf8);
        // The same text, each from its encoding, cleanly.
        check(sjis_path, &from_sjis, (Cp932, &from_utf8.text, &[]));
        check(utf8_path, &from_utf8, (Utf8, &from_sjis.text, &[]));
        assert!(is_borrowed(&from_utf8));
    }
}

/// Every corpus file decodes cleanly, in the encoding its manifest records.
#[test]
fn corpus_files_decode_as_their_manifest_says() {
    let Some(manifest) = corpus_file("MANIFEST.tsv") else {
        return;
    };
    let manifest = String::from_utf8(manifest).expect("the manifest is UTF-8");
    let mut checked = 0;
    for row in manifest.lines().skip(1) {
        let fields: Vec<&str> = row.split('\t').collect();
        let (Some(path), Some(recorded)) = (fields.first(), fields.get(5)) else {
            continue;
        };
        let Some(bytes) = corpus_file(path) else {
            continue;
        };
        let decoded = decode_corpus_file(path, &bytes);
        assert!(
            decoded.malformed.is_empty(),
            "{path}: {:?}",
            decoded.malformed
        );
        match *recorded {
            // Pure ASCII reads the same in every encoding; a declaration may name any.
            "ascii" => {
                assert!(is_borrowed(&decoded) && decoded.text.as_bytes() == bytes.as_slice())
            }
            "utf-8" => assert_eq!(decoded.encoding, Utf8, "{path}"),
            "utf-8-bom" => assert_eq!(decoded.encoding, Utf8Bom, "{path}"),
            "cp932" => assert_eq!(decoded.encoding, Cp932, "{path}"),
            "euc-jp" => assert_eq!(decoded.encoding, EucJp, "{path}"),
            other => panic!("{path}: unknown encoding {other:?} in the manifest"),
        }
        checked += 1;
    }
    eprintln!("checked {checked} corpus files");
}
