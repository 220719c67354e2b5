//! Decoding some whole lines of the input cleanly or not at all, for the
//! Kakinoki reader of UTF-8 and CP932 bytes (`format::kakinoki`): clean is
//! valid in its encoding, with no character the binary test of
//! [`not_a_record`](super::not_a_record) counts.

use super::binary::fewer_suspicious_than;
use encoding_rs::DecoderResult;

/// Decodes `bytes` (whole lines of CP932 input, line endings included)
/// as [`decode`](super::decode) decodes CP932, appending the text to
/// `text`, and says whether that was clean. On `false`, `text` may hold
/// part of the text: the caller gives up.
#[must_use]
pub fn decode_cp932_cleanly(bytes: &[u8], text: &mut String) -> bool {
    let mut decoder = encoding_rs::SHIFT_JIS.new_decoder_without_bom_handling();
    let Some(room) = decoder.max_utf8_buffer_length_without_replacement(bytes.len()) else {
        return false;
    };
    text.reserve(room);
    let start = text.len();
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, text, true);
    result == DecoderResult::InputEmpty
        && read == bytes.len()
        && fewer_suspicious_than(&text[start..], 1)
}

/// `bytes` (whole lines of input that may be UTF-8) as text, if they are
/// valid UTF-8 and hold no character the binary test of
/// [`not_a_record`](super::not_a_record) counts.
#[must_use]
pub fn decode_utf8_cleanly(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    fewer_suspicious_than(text, 1).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp932_is_detected_as_decode_chooses_it() {
        use super::super::{
            decode, detect, detect_utf8, Detected, Encoding, EncodingChoice, ExtensionHint, BOM,
        };
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("手合割：平手\n   1 ７六歩(77)\n");
        let euc = encoding_rs::EUC_JP.encode("手合割：平手\n").0;
        let declared_utf8 = [b"#KIF version=2.0 encoding=UTF-8\n".as_slice(), &sjis].concat();
        let declared_sjis = [b"#KIF version=2.0 encoding=Shift_JIS\n".as_slice(), &sjis].concat();
        let bom = [BOM, &sjis].concat();
        let damaged = [&sjis[..], b"\x82\n"].concat();
        let inputs: [&[u8]; 8] = [
            &sjis,
            &euc,
            b"ascii",
            &declared_utf8,
            &declared_sjis,
            &bom,
            "７六歩".as_bytes(),
            &damaged,
        ];
        // What detect finds, UTF-8 settled as `decode` settles it.
        let settled = |bytes, choice| match detect(bytes, choice) {
            Detected::Utf8 => detect_utf8(bytes),
            other => other,
        };
        let mut cp932 = 0;
        for bytes in inputs {
            for choice in [
                EncodingChoice::Auto,
                EncodingChoice::Forced(Encoding::Cp932),
            ] {
                let decoded = decode(bytes, choice, ExtensionHint::None);
                match settled(bytes, choice) {
                    Detected::Decoded(early) => assert_eq!(early, decoded, "{bytes:?}"),
                    Detected::Utf8 => panic!("detect_utf8 settles UTF-8: {bytes:?}"),
                    Detected::Cp932(_) if decoded.malformed.is_empty() => {
                        assert_eq!(decoded.encoding, Encoding::Cp932, "{bytes:?}");
                        cp932 += 1;
                    }
                    Detected::Cp932(_) => {}
                }
            }
        }
        assert!(cp932 > 3, "{cp932}");
        for bytes in [&sjis[..], &declared_sjis, &declared_utf8] {
            assert!(matches!(
                settled(bytes, EncodingChoice::Auto),
                Detected::Cp932(_)
            ));
        }
        for bytes in [&euc[..], b"ascii", &bom, "７六歩".as_bytes()] {
            assert!(!matches!(
                settled(bytes, EncodingChoice::Auto),
                Detected::Cp932(_)
            ));
        }
        // Undeclared input is left to UTF-8 unchecked.
        assert_eq!(detect(&sjis, EncodingChoice::Auto), Detected::Utf8);
    }

    #[test]
    fn utf8_lines_are_clean_without_binary_or_replaced_characters() {
        assert_eq!(decode_utf8_cleanly("手合\r\n".as_bytes()), Some("手合\r\n"));
        assert_eq!(decode_utf8_cleanly(b"\t\x0c\x1a"), Some("\t\x0c\x1a"));
        for bad in [
            &b"\x82\n"[..],
            b"a\x01",
            b"\x00",
            "\u{fffd}".as_bytes(),
            "\u{85}".as_bytes(),
        ] {
            assert_eq!(decode_utf8_cleanly(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn lines_decode_cleanly_or_not_at_all() {
        let mut text = String::new();
        assert!(decode_cp932_cleanly(b"\x8e\xe8\x8d\x87\r\n", &mut text));
        assert_eq!(text, "手合\r\n");
        for bad in [
            &b"\x82\n"[..],
            b"\x80",
            b"a\x01",
            b"\x00",
            b"\xfd",
            b"\x82\x7f",
        ] {
            assert!(!decode_cp932_cleanly(bad, &mut String::new()), "{bad:?}");
        }
        assert!(decode_cp932_cleanly(b"\t\x0c\x1a\xb1", &mut String::new()));
    }
}
