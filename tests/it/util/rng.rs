//! The tests' seeded generator: the library's SplitMix64, so that random
//! cases reproduce. Each test has its own fixed seed; `KIFCONV_SEED=N`
//! varies every seed at once, and a test that fails says how to rerun it.

use kifconv::types::SplitMix;

/// The library's generator with the test's seed; see the module
/// documentation for the seeds.
pub struct Rng {
    state: SplitMix,
    varied_by: Option<u64>,
}

impl Rng {
    /// The generator for a test whose fixed seed is `seed`, varied by
    /// `KIFCONV_SEED` when that is set.
    pub fn new(seed: u64) -> Rng {
        let varied_by = std::env::var("KIFCONV_SEED")
            .ok()
            .map(|v| parse_seed(&v).unwrap_or_else(|| panic!("KIFCONV_SEED={v} is not a number")));
        Rng {
            state: SplitMix::new(vary(seed, varied_by)),
            varied_by,
        }
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.state.next_u64()
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n.max(1)
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

impl Drop for Rng {
    /// A test that panics while its generator lives says which seed made
    /// its cases.
    fn drop(&mut self) {
        if std::thread::panicking() {
            match self.varied_by {
                Some(v) => eprintln!("note: random cases from KIFCONV_SEED={v}; rerun with it"),
                None => eprintln!("note: random cases from the fixed seed (KIFCONV_SEED unset)"),
            }
        }
    }
}

/// A seed in decimal or `0x` hexadecimal.
fn parse_seed(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The test's own seed, unchanged without a variation; with one, mixed
/// with it by a step of the generator, so that nearby variations give
/// unrelated cases.
fn vary(seed: u64, by: Option<u64>) -> u64 {
    match by {
        Some(by) => SplitMix::new(seed ^ by).next_u64(),
        None => seed,
    }
}

#[test]
fn seeds_parse_and_vary() {
    assert_eq!(parse_seed("42"), Some(42));
    assert_eq!(parse_seed(" 0x2a\n"), Some(42));
    assert_eq!(parse_seed("forty-two"), None);
    assert_eq!(vary(7, None), 7);
    assert_ne!(vary(7, Some(1)), vary(7, Some(2)));
    assert_ne!(vary(7, Some(1)), vary(8, Some(1)));
    assert_ne!(vary(7, Some(0)), 0);
}

#[test]
fn below_stays_below() {
    let mut rng = Rng::new(0x1234_5678);
    assert_eq!(rng.below(0), 0);
    assert!((0..1000).all(|_| rng.below(7) < 7));
    // All seven values come up.
    let mut seen = [false; 7];
    (0..1000).for_each(|_| seen[rng.below(7)] = true);
    assert!(seen.iter().all(|&s| s), "{seen:?}");
}

#[test]
fn one_in_n_comes_up_about_once_in_n() {
    let mut rng = Rng::new(0x0e1e);
    assert!((0..100).all(|_| rng.one_in(1)));
    let hits = (0..4000).filter(|_| rng.one_in(4)).count();
    assert!((800..1200).contains(&hits), "{hits} of 4000");
}
