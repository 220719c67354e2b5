//! The Shift_JIS reading path's part of decoding (see
//! `format::kakinoki_sjis`): whether [`decode`](super::decode) would choose
//! CP932 for some bytes, if they decode cleanly, without decoding them; and
//! decoding a piece of them (some lines) with the same decoder, cleanly or
//! not at all.
//!
//! The path reads most lines from the bytes and decodes only the others,
//! so it can stand for [`decode`](super::decode) only when the bytes
//! decode cleanly as CP932 and the whole-file decoder would choose CP932:
//! [`cp932_if_clean`] is the first half of that, and every line the path
//! decodes with [`decode_cp932_cleanly`] (or reads with
//! `japanese::sjis::next_char`, which reads only what decodes cleanly) the
//! second.

use super::binary::is_suspicious;
use super::sniff::{declared_encoding, looks_like_euc_jp};
use super::{Encoding, EncodingChoice, BOM, BOM_UTF16_BE, BOM_UTF16_LE};
use encoding_rs::DecoderResult;

/// Whether [`decode`](super::decode) would decode `bytes` as CP932
/// ([`Encoding::Cp932`]) **if they decode cleanly as CP932**: CP932 is
/// forced, or it is detected, its rules (the [module](super)
/// documentation) read in order: no byte-order mark; no `encoding=`
/// declaration in the first two lines naming another encoding (one naming
/// CP932 changes nothing when the bytes are clean CP932); not valid UTF-8
/// (pure ASCII is valid UTF-8, so it is not CP932 here); not clearly
/// EUC-JP. Then, clean, CP932 is what rule 5 chooses. Whether the bytes
/// are clean is the caller's to check (see [`decode_cp932_cleanly`]).
#[must_use]
pub fn cp932_if_clean(bytes: &[u8], choice: EncodingChoice) -> bool {
    match choice {
        EncodingChoice::Forced(encoding) => encoding == Encoding::Cp932,
        EncodingChoice::Auto => {
            !(bytes.starts_with(BOM)
                || bytes.starts_with(BOM_UTF16_LE)
                || bytes.starts_with(BOM_UTF16_BE))
                && declared_encoding(bytes).is_none_or(|e| e == Encoding::Cp932)
                && std::str::from_utf8(bytes).is_err()
                && !looks_like_euc_jp(bytes)
        }
    }
}

/// Decodes `bytes` (whole lines of CP932 input, line endings included)
/// with the decoder [`decode`](super::decode) uses for CP932, appending the
/// text to `text`, and says whether that was clean and plain: nothing
/// undecodable, and no character the binary test of
/// [`not_a_record`](super::not_a_record) counts (a control character but
/// tab, line feed, carriage return, form feed and `^Z`; U+FFFD). On
/// `false`, `text` may hold part of the text: the caller gives up.
///
/// CP932 is stateless and a line ending is never the second byte of a
/// pair, so whole lines decode to the text the whole input decodes to for
/// them.
#[must_use]
pub fn decode_cp932_cleanly(bytes: &[u8], text: &mut String) -> bool {
    let mut decoder = encoding_rs::SHIFT_JIS.new_decoder_without_bom_handling();
    let Some(room) = decoder.max_utf8_buffer_length_without_replacement(bytes.len()) else {
        return false;
    };
    text.reserve(room);
    let start = text.len();
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, text, true);
    result == DecoderResult::InputEmpty && read == bytes.len() && !holds_binary(&text[start..])
}

/// Whether `text` holds a character the binary test of
/// [`not_a_record`](super::not_a_record) counts: a control character but
/// tab, line feed, carriage return, form feed and `^Z` (C0 and DEL are
/// single bytes in UTF-8; C1, U+0080 to U+009F, is `C2 80` to `C2 9F`);
/// U+FFFD, which a clean CP932 decoding never gives (no code maps to it,
/// and nothing was replaced), is not looked for. The bytes are first looked at in blocks for any byte under
/// `0x20` but the usual tab, LF and CR, or DEL, or `C2`, with no branch
/// (so the compiler checks many at once); only a block with one is read
/// character by character.
fn holds_binary(text: &str) -> bool {
    const BLOCK: usize = 64;
    text.as_bytes().chunks(BLOCK).enumerate().any(|(i, block)| {
        let odd = block.iter().fold(false, |odd, &b| {
            odd | ((b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r'))
                | (b == 0x7f)
                | (b == 0xc2)
        });
        odd && {
            // The block's characters, from the first that starts in it.
            let from = (i * BLOCK..text.len())
                .find(|&at| text.is_char_boundary(at))
                .unwrap_or(text.len());
            let to = ((i + 1) * BLOCK + 1..=text.len())
                .find(|&at| text.is_char_boundary(at))
                .unwrap_or(text.len());
            text[from..to].chars().any(is_suspicious)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp932_is_chosen_as_decode_chooses_it() {
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("手合割：平手\n   1 ７六歩(77)\n");
        let euc = encoding_rs::EUC_JP.encode("手合割：平手\n").0;
        let declared_utf8 = [b"#KIF version=2.0 encoding=UTF-8\n".as_slice(), &sjis].concat();
        let declared_sjis = [b"#KIF version=2.0 encoding=Shift_JIS\n".as_slice(), &sjis].concat();
        let bom = [BOM, &sjis].concat();
        for bytes in [
            &sjis[..],
            &euc,
            b"ascii",
            &declared_utf8,
            &declared_sjis,
            &bom,
            "７六歩".as_bytes(),
        ] {
            let decoded = super::super::decode(
                bytes,
                EncodingChoice::Auto,
                super::super::ExtensionHint::None,
            );
            if cp932_if_clean(bytes, EncodingChoice::Auto) {
                assert_eq!(decoded.encoding, Encoding::Cp932, "{bytes:?}");
            }
        }
        assert!(cp932_if_clean(&sjis, EncodingChoice::Auto));
        assert!(cp932_if_clean(&declared_sjis, EncodingChoice::Auto));
        assert!(!cp932_if_clean(&declared_utf8, EncodingChoice::Auto));
        assert!(!cp932_if_clean(&euc, EncodingChoice::Auto));
        assert!(cp932_if_clean(
            b"ascii",
            EncodingChoice::Forced(Encoding::Cp932)
        ));
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
        // Every character, at every place in a block and across blocks.
        for c in (0..0x3000).filter_map(char::from_u32) {
            for at in [0, 1, 62, 63, 64, 65, 127] {
                let text = format!("{}{c}{}", "a".repeat(at), "b".repeat(70));
                assert_eq!(holds_binary(&text), is_suspicious(c), "{c:?} at {at}");
            }
        }
    }
}
