//! SplitMix64: a small, fast generator whose sequence depends only on the
//! seed, so the same seed gives the same tsume problems and the same
//! shuffled training file on every machine.

/// The generator; see the module documentation.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (which must not be 0): the high half of the
    /// 64 bits times `n`.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_seeded_and_below_stays_below() {
        let run = |seed| -> Vec<u64> {
            let mut r = SplitMix::new(seed);
            (0..5).map(|_| r.next_u64()).collect()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        let mut rng = SplitMix::new(1);
        let mut seen = [0usize; 3];
        for _ in 0..3000 {
            seen[rng.below(3)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }
}
