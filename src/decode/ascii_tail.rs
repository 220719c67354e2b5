//! The ASCII tail of a file in a legacy encoding: most Shift_JIS and
//! EUC-JP records are Japanese only in their first lines (players, event)
//! and plain ASCII after them (CSA moves and times). Past the first line
//! break after the last non-ASCII byte, nothing can be part of a multi-byte
//! character, in CP932 or EUC-JP, so those bytes are the same text in
//! every encoding: the decoder and the EUC-JP test need not read them.
//!
//! The cut is after a line break, not just after the last non-ASCII byte,
//! because a CP932 lead byte takes an ASCII trail byte (`0x40`–`0x7E`):
//! only a byte that is no trail byte in either encoding (`\n`) ends every
//! character for sure, so that what comes before the cut decodes, and is
//! judged, exactly as it does within the whole input.

/// Where the ASCII tail of `bytes` starts: just past the first `\n` after
/// the last non-ASCII byte; 0 when every byte is ASCII, and the length
/// when no `\n` follows the last non-ASCII byte (no tail).
pub(super) fn ascii_tail_start(bytes: &[u8]) -> usize {
    let Some(last) = last_non_ascii(bytes) else {
        return 0;
    };
    let after = last + 1;
    match memchr::memchr(b'\n', bytes.get(after..).unwrap_or_default()) {
        Some(newline) => after + newline + 1,
        None => bytes.len(),
    }
}

/// The index of the last byte that is not ASCII, if any: read from the
/// end 32 bytes at a time (four words whose high bits are tested at once),
/// then byte by byte within the block that has one.
fn last_non_ascii(bytes: &[u8]) -> Option<usize> {
    const BLOCK: usize = 32;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut end = bytes.len();
    while end >= BLOCK {
        let block = bytes.get(end - BLOCK..end).unwrap_or_default();
        let any = block
            .chunks_exact(8)
            .map(|word| u64::from_le_bytes(word.try_into().unwrap_or_default()))
            .fold(0, |acc, word| acc | word);
        if any & HIGH != 0 {
            break;
        }
        end -= BLOCK;
    }
    bytes.get(..end)?.iter().rposition(|b| !b.is_ascii())
}

/// Where the ASCII tail of some bytes starts, once found, or that it is
/// not found yet: what the EUC-JP test found, handed on so that the
/// decoder need not look again. Only this module makes one that is found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AsciiTail(Option<usize>);

impl AsciiTail {
    /// The tail of `bytes`, found.
    pub(super) fn of(bytes: &[u8]) -> AsciiTail {
        AsciiTail(Some(ascii_tail_start(bytes)))
    }

    /// Where the tail of `bytes` starts: as found, else found now. `bytes`
    /// must be the bytes it was found in.
    pub(super) fn start(self, bytes: &[u8]) -> usize {
        self.0
            .unwrap_or_else(|| ascii_tail_start(bytes))
            .min(bytes.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_starts_after_the_line_of_the_last_non_ascii_byte() {
        assert_eq!(ascii_tail_start(b""), 0);
        assert_eq!(ascii_tail_start(b"+7776FU\nT1\n"), 0);
        assert_eq!(ascii_tail_start(b"N+\x82\xa0\n+7776FU\n"), 5);
        assert_eq!(ascii_tail_start(b"N+\x82\xa0"), 4);
        assert_eq!(ascii_tail_start(b"N+\x82A\r\nT1"), 6);
        // Against a plain search, for non-ASCII bytes at every place of
        // inputs longer than a block.
        for len in [0, 1, 31, 32, 33, 64, 100] {
            for at in 0..len {
                let mut bytes = vec![b'a'; len];
                for (k, byte) in bytes.iter_mut().enumerate() {
                    if k % 7 == 3 {
                        *byte = b'\n';
                    }
                }
                bytes[at] = 0x93;
                let plain = bytes[at + 1..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(len, |k| at + 1 + k + 1);
                assert_eq!(ascii_tail_start(&bytes), plain, "{len} {at}");
            }
        }
    }
}
