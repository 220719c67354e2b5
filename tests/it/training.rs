//! Training data bit for bit as cshogi writes it: every line of
//! fixtures/training/vectors.tsv (made by scripts/training-vectors.py with
//! cshogi from positions of the bench games) gives the same packed
//! position in both dialects and the same 16-bit move in both layouts.

use kifconv::training::move16::{self, Layout};
use kifconv::training::packed::{pack, Dialect};
use kifconv::{Move, Position};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn packed_positions_and_moves_match_cshogi() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/training/vectors.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut lines, mut drops, mut promotions) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let [sfen, hcp, psfen, usi, apery, yaneuraou] = f[..] else {
            panic!("not six fields: {line}");
        };
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(hex(&pack(&pos, Dialect::Hcp).unwrap()), hcp, "{sfen}");
        assert_eq!(
            hex(&pack(&pos, Dialect::PackedSfen).unwrap()),
            psfen,
            "{sfen}"
        );
        let mv = Move::from_usi(usi).unwrap();
        assert!(pos.legal_moves().contains(&mv), "{sfen} {usi}");
        let code = |layout| format!("{:04x}", move16::encode(mv, layout));
        assert_eq!(code(Layout::Apery), apery, "{sfen} {usi}");
        assert_eq!(code(Layout::YaneuraOu), yaneuraou, "{sfen} {usi}");
        lines += 1;
        drops += usize::from(mv.is_drop());
        promotions += usize::from(mv.is_promotion());
    }
    // The file covers what the codes distinguish.
    assert!(lines > 2000, "{lines} vectors");
    assert!(
        drops > 100 && promotions > 50,
        "{drops} drops, {promotions} promotions"
    );
}
