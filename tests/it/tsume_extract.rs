//! `tsume extract`: problems mined from the bench games, each one sound by
//! `tsume check`, named after its source, the same with one thread or two.

use crate::util::bin::{assert_exit, run, s, scratch, stderr, stdout};
use crate::util::files::relative;
use crate::util::shared::shared;
use crate::util::zip::{read_all, stored};

/// The first `mates` games of the bench CSA archive that end in 詰み and
/// the first `resigned` that end in 投了, as a stored archive in `dir`
/// (`scripts/tsume-reverse-cshogi.py` picks the same games).
pub(crate) fn bench_subset(
    dir: &std::path::Path,
    mates: usize,
    resigned: usize,
) -> Option<std::path::PathBuf> {
    let bench = shared("bench")?;
    let entries = read_all(&bench.join("csa.zip"));
    let pick = |word: &str, n: usize| {
        entries
            .iter()
            .filter(|(_, bytes)| bytes.windows(word.len()).any(|w| w == word.as_bytes()))
            .take(n)
            .cloned()
            .collect::<Vec<_>>()
    };
    let mut chosen = pick("%TSUMI", mates);
    chosen.extend(pick("%TORYO", resigned));
    chosen.sort();
    let list: Vec<(&[u8], &[u8])> = chosen
        .iter()
        .map(|(name, bytes)| (name.as_bytes(), bytes.as_slice()))
        .collect();
    let path = dir.join("bench.zip");
    std::fs::write(&path, stored(&list)).unwrap();
    Some(path)
}

#[test]
fn problems_mined_from_the_bench_games_are_sound() {
    let dir = scratch("tsume-extract");
    let Some(zip) = bench_subset(&dir, 6, 6) else {
        return;
    };
    let out = dir.join("out");
    let limits = ["--last", "2", "--depth", "9", "--nodes", "300000"];
    let mut args = vec!["tsume", "extract", s(&zip), "-o", s(&out), "-j", "2"];
    args.extend(limits);
    let done = run(&args);
    assert_exit(&done, 0);
    let said = stderr(&done);
    assert!(said.contains("12 games read"), "{said}");
    let files = relative(&out);
    assert!(!files.is_empty(), "no problem found: {said}");
    assert!(
        said.contains(&format!("{} problems written", files.len())),
        "{said}"
    );
    // Each names its source game, and is sound.
    for name in &files {
        let text = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(text.contains("bench.zip:2015/01/game-"), "{name}: {text}");
        assert!(text.contains("*出典："), "{name}: {text}");
        assert!(text.contains("先手：詰方"), "{name}: {text}");
    }
    let checked = run(&["tsume", "check", s(&out), "--depth", "31"]);
    let report = stdout(&checked);
    assert_exit(&checked, 0);
    // Sound, some with flaws a composer would note (変同, …); none unsound.
    let sound =
        report.matches(": sound\n").count() + report.matches(": sound with flaws\n").count();
    assert_eq!(sound, files.len(), "{report}");
    // One thread writes the same files.
    let again = dir.join("again");
    let mut args = vec!["tsume", "extract", s(&zip), "-o", s(&again), "-j", "1"];
    args.extend(limits);
    assert_exit(&run(&args), 0);
    assert_eq!(relative(&again), files);
    for name in &files {
        assert_eq!(
            std::fs::read(out.join(name)).unwrap(),
            std::fs::read(again.join(name)).unwrap(),
            "{name}"
        );
    }
}
