//! Helpers shared by the test modules, each defined once: running the
//! binary, scratch folders, the real records beside the checkout, a seeded
//! random generator, random games, file walks, hand-made zip archives and
//! records written as text.

pub mod bin;
pub mod edits;
pub mod files;
pub mod games;
pub mod rng;
pub mod shared;
pub mod write;
pub mod zip;

/// The first three lines that differ between what was written and what was
/// read back, for a round trip's failure message.
pub fn first_differences(wrote: &str, read: &str) -> String {
    wrote
        .lines()
        .zip(read.lines())
        .filter(|(x, y)| x != y)
        .take(3)
        .map(|(x, y)| format!("  wrote {x}\n  read  {y}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn first_differences_pairs_the_lines_that_differ() {
    assert_eq!(
        first_differences("a\nb\nc\n", "a\nB\nc\n"),
        "  wrote b\n  read  B"
    );
    assert_eq!(first_differences("a\n", "a\n"), "");
}
