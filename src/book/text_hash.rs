//! The hash of a sorter's text keys: eight bytes a step, multiplied in,
//! seeded once a process. std's default hash reads a byte at a time
//! through SipHash, built to resist keys chosen to collide; these keys are
//! positions and moves, and the seed still keeps a colliding set from
//! working on every run.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// Builds [`TextHasher`]s with the process's seed.
#[derive(Clone, Copy)]
pub struct TextHash {
    seed: u64,
}

impl Default for TextHash {
    fn default() -> TextHash {
        static SEED: OnceLock<u64> = OnceLock::new();
        let seed = *SEED.get_or_init(|| RandomState::new().hash_one(0u64) | 1);
        TextHash { seed }
    }
}

impl BuildHasher for TextHash {
    type Hasher = TextHasher;

    fn build_hasher(&self) -> TextHasher {
        TextHasher(self.seed)
    }
}

/// A text's hash, eight bytes a step.
pub struct TextHasher(u64);

/// An odd constant with its bits well mixed (the fractional part of the
/// golden ratio).
const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

impl TextHasher {
    fn step(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(MIX);
    }
}

impl Hasher for TextHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut le = [0; 8];
            le.copy_from_slice(word);
            self.step(u64::from_le_bytes(le));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut le = [0; 8];
            le[..rest.len()].copy_from_slice(rest);
            self.step(u64::from_le_bytes(le) ^ (rest.len() as u64) << 59);
        }
    }

    fn finish(&self) -> u64 {
        // The high bits, which the multiplications mixed most, folded down:
        // the map takes its bucket from the low ones.
        self.0 ^ self.0 >> 29
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(text: &str) -> u64 {
        TextHash::default().hash_one(text)
    }

    #[test]
    fn equal_texts_hash_alike_and_near_ones_apart() {
        assert_eq!(
            hash("lnsgkgsnl/9 b - 1\t7g7f"),
            hash("lnsgkgsnl/9 b - 1\t7g7f")
        );
        let texts = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
            "7g7f",
            "7g7f+",
        ];
        let hashes: std::collections::HashSet<u64> = texts.iter().map(|t| hash(t)).collect();
        assert_eq!(hashes.len(), texts.len());
    }

    #[test]
    fn the_low_bits_spread_over_many_near_keys() {
        // Keys that differ in one character fall in many of 1,024 buckets.
        let buckets: std::collections::HashSet<u64> = (0..4096)
            .map(|i| {
                hash(&format!(
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - {i}"
                )) & 1023
            })
            .collect();
        assert!(buckets.len() > 900, "{} buckets", buckets.len());
    }
}
