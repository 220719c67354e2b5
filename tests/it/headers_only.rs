//! A record of headers alone (a Kifu for Windows banner, 棋戦, 先手, 後手,
//! 手合割, no move) is a game of no moves whatever its file is named, not
//! "cannot tell the format" or "not a game record".

use crate::util::files::read_as;
use std::path::Path;

#[test]
fn headers_alone_are_a_game_of_no_moves() {
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/kif/kifconv-headers-only.kif"),
    )
    .unwrap();
    for name in ["game.kif", "game.txt", "game"] {
        let read = read_as(&bytes, name).unwrap_or_else(|e| panic!("{name}: {}", e.render(name)));
        let [record] = read.records.as_slice() else {
            panic!("{name}: {} games", read.records.len());
        };
        assert!(record.tree.is_empty(), "{name}");
        assert_eq!(record.header("棋戦"), Some("研究会"), "{name}");
        assert!(record.warnings.is_empty(), "{name}: {:?}", record.warnings);
    }
    // A text of `#` lines alone: the format's comments, an empty game.
    let read = read_as(
        "# ---- Kifu for Windows ----\n# a note\n".as_bytes(),
        "notes.kifu",
    )
    .unwrap();
    assert!(read.records[0].tree.is_empty());
}
