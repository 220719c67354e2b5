//! The KI2 we write, compared with the KI2 another program (tsshogi 2.2.0)
//! wrote for the same 10,000 games (../shared/bench/ki2-sjis.zip): we read
//! each file, write it again, and compare line by line. Every move line must
//! be identical. The one kind of line that may differ is the `まで…`
//! summary of a handicap game: Kifu for Windows (whose style we follow)
//! names the players 下手/上手 there, tsshogi 先手/後手; the test checks that
//! this is the only difference. Skipped when ../shared/bench is absent (a
//! failure with `KIFCONV_REQUIRE_SHARED=1`).

use crate::util::shared::shared;
use crate::util::write::text;
use crate::util::zip::read_all;
use kifconv::read::{read_text, Format};
use kifconv::Target;

#[test]
fn our_ki2_is_tsshogis_ki2_move_for_move() {
    let Some(bench) = shared("bench") else { return };
    let (mut games, mut move_lines, mut summary_differences) = (0, 0, 0);
    for (name, bytes) in read_all(&bench.join("ki2-sjis.zip")) {
        let theirs = encoding_rs::SHIFT_JIS
            .decode(&bytes)
            .0
            .replace("\r\n", "\n");
        let record = &read_text(&theirs, Format::Ki2).unwrap()[0];
        // Our KI2 starts with the `#KI2` line that tells one game from the
        // next; tsshogi writes none. The rest is compared line by line.
        let written = text(record, Target::Ki2u);
        let ours = written
            .strip_prefix("#KI2 version=2.0 encoding=UTF-8\n")
            .unwrap_or_else(|| panic!("{name}: no #KI2 line first"));
        let (a, b): (Vec<&str>, Vec<&str>) = (theirs.lines().collect(), ours.lines().collect());
        assert_eq!(a.len(), b.len(), "{}", name);
        for (x, y) in a.iter().zip(&b) {
            if x.starts_with(['▲', '△']) {
                move_lines += 1;
                assert_eq!(x, y, "{}", name);
            } else if x != y {
                // Only a handicap game's summary may differ, and only in
                // how the players are named.
                assert!(
                    x.starts_with("まで") && record.handicap != Some(kifconv::Handicap::Even),
                    "{}: {x} / {y}",
                    name
                );
                let named = x.replace("先手", "下手").replace("後手", "上手");
                assert_eq!(&named, y, "{}", name);
                summary_differences += 1;
            }
        }
        games += 1;
    }
    eprintln!("{games} games, {move_lines} move lines identical, {summary_differences} handicap summaries named 下手/上手");
    assert_eq!(games, 10_000);
}
