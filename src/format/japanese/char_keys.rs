//! Characters of Japanese notation matched without decoding them, for the
//! readers' hot paths (a move's digits, piece name and markers are read
//! once per move).
//!
//! Every kanji, kana, full-width form and mark that notation uses takes
//! three bytes in UTF-8; [`key`] is those three bytes as one number, and
//! [`first_key`] reads it from a text. A [`KeyIndex`] finds a key among a
//! few in one step: a table indexed by the key modulo the smallest number
//! of slots that gives each of the few a slot of its own ([`slots_for`],
//! found when compiling). The vocabulary tables (kanji digits, piece names)
//! stay the one place their characters are listed: each index is built
//! from one, and a list that no table of up to 256 slots separates, or a
//! character that is not three bytes long, fails to compile.

/// The three bytes of `c` in UTF-8 as one number (the first byte highest):
/// its key. `c` must take three bytes (U+0800 to U+FFFF); anything else
/// panics, when compiling for a constant.
pub const fn key(c: char) -> u32 {
    let code = c as u32;
    assert!(
        code >= 0x800 && code <= 0xffff,
        "a key is made of three bytes"
    );
    (0xe0 | code >> 12) << 16 | (0x80 | (code >> 6 & 0x3f)) << 8 | (0x80 | (code & 0x3f))
}

/// The key of the character `text` starts with, when it takes three bytes.
#[inline]
pub fn first_key(text: &str) -> Option<u32> {
    match *text.as_bytes() {
        [a @ 0xe0..=0xef, b, c, ..] => Some(key_of(a, b, c)),
        _ => None,
    }
}

/// Three bytes as a key. Only the bytes of a three-byte character make the
/// key of a character; any others make a number that is no character's key.
#[inline]
pub fn key_of(a: u8, b: u8, c: u8) -> u32 {
    u32::from(a) << 16 | u32::from(b) << 8 | u32::from(c)
}

/// The characters of a table of `(character, meaning)` pairs, in its order:
/// the list a [`KeyIndex`] over the table is built from.
pub const fn chars_of<T: Copy, const N: usize>(table: &[(char, T); N]) -> [char; N] {
    let mut out = ['\0'; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].0;
        i += 1;
    }
    out
}

/// The meaning of `c` in a table of `(character, meaning)` pairs.
pub fn meaning<T: Copy>(table: &[(char, T)], c: char) -> Option<T> {
    table.iter().find(|&&(key, _)| key == c).map(|&(_, m)| m)
}

/// Where each character of a list stands in it, found from its key with
/// one division and one comparison. `M` is the number of slots:
/// [`slots_for`] the list.
#[derive(Clone, Copy, Debug)]
pub struct KeyIndex<const M: usize> {
    /// For each slot, the key it holds and that character's place in the
    /// list. A slot that holds none holds a number that falls into another
    /// slot (its own index plus one), which no number looked up can match.
    slots: [(u32, u8); M],
}

/// Whether no two of `chars` fall into the same slot of a table of `slots`
/// slots (two equal characters always do).
const fn separates(chars: &[char], slots: u32) -> bool {
    let mut i = 0;
    while i < chars.len() {
        let mut j = i + 1;
        while j < chars.len() {
            if key(chars[i]) % slots == key(chars[j]) % slots {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

/// The smallest number of slots (up to 256) that gives each of `chars` a
/// slot of its own; compiling fails if there is none (if a character is
/// listed twice, say).
pub const fn slots_for(chars: &[char]) -> usize {
    let mut slots = if chars.is_empty() { 1 } else { chars.len() };
    while slots <= 256 {
        if separates(chars, slots as u32) {
            return slots;
        }
        slots += 1;
    }
    panic!("no table of up to 256 slots separates these characters")
}

impl<const M: usize> KeyIndex<M> {
    /// The index of `chars`, whose number of slots `M` must be
    /// [`slots_for`] `chars` (or another number that separates them).
    pub const fn new(chars: &[char]) -> KeyIndex<M> {
        assert!(!chars.is_empty(), "an index of nothing finds nothing");
        assert!(chars.len() <= 256, "places are kept in a byte");
        assert!(
            separates(chars, M as u32),
            "each character needs a slot of its own"
        );
        let mut slots = [(0, 0u8); M];
        let mut i = 0;
        while i < M {
            // With M = 1 the one slot is never empty (a list has a character).
            slots[i] = ((i + 1) as u32, 0);
            i += 1;
        }
        let mut i = 0;
        while i < chars.len() {
            let key = key(chars[i]);
            slots[(key % M as u32) as usize] = (key, i as u8);
            i += 1;
        }
        KeyIndex { slots }
    }

    /// The place in the list of the character whose key is `key`, if it is
    /// one of them.
    #[inline]
    pub fn find(&self, key: u32) -> Option<usize> {
        let (held, place) = self.slots[(key % M as u32) as usize];
        (held == key).then_some(usize::from(place))
    }

    /// The place in the list of the character `text` starts with, and the
    /// rest of `text`, if it is one of them.
    #[inline]
    pub fn find_first<'a>(&self, text: &'a str) -> Option<(usize, &'a str)> {
        let place = self.find(first_key(text)?)?;
        // A key is three bytes of a character: the rest starts after them.
        Some((place, &text[3..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_the_three_bytes() {
        for c in ['歩', 'ࠀ', '\u{ffff}', '　', '▲', '７'] {
            let mut bytes = [0; 4];
            assert_eq!(c.encode_utf8(&mut bytes).len(), 3);
            let text = c.to_string();
            assert_eq!(first_key(&text), Some(key(c)), "{c}");
            assert_eq!(
                key(c),
                u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]])
            );
        }
        assert_eq!(first_key("a歩"), None);
        assert_eq!(first_key("😀"), None);
        assert_eq!(first_key(""), None);
    }

    #[test]
    fn every_character_is_found_at_its_place_and_no_other_is_found() {
        const LIST: [char; 5] = ['歩', '香', '　', 'ࠀ', '龍'];
        const INDEX: KeyIndex<{ slots_for(&LIST) }> = KeyIndex::new(&LIST);
        for (i, &c) in LIST.iter().enumerate() {
            assert_eq!(INDEX.find(key(c)), Some(i), "{c:?}");
            assert_eq!(INDEX.find_first(&format!("{c}x")), Some((i, "x")));
        }
        for c in ('\u{800}'..='\u{ffff}').filter(|c| !LIST.contains(c)) {
            assert_eq!(INDEX.find(key(c)), None, "{c:?}");
        }
        for k in (0..=0x1000).chain(u32::MAX - 0x1000..=u32::MAX) {
            assert_eq!(INDEX.find(k), None, "{k}");
        }
        const ONE: [char; 1] = ['歩'];
        const ONE_INDEX: KeyIndex<{ slots_for(&ONE) }> = KeyIndex::new(&ONE);
        assert_eq!(ONE_INDEX.find(key('歩')), Some(0));
        assert_eq!(ONE_INDEX.find(key('香')), None);
        assert_eq!(INDEX.find_first("a"), None);
        assert_eq!(slots_for(&[]), 1);
        assert!(!separates(&['歩', '歩'], 7));
    }
}
