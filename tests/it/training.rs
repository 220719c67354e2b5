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

/// HCPE bit for bit as cshogi makes it with dlshogi's csa_to_hcpe logic
/// (fixtures/training/hcpe-corpus.tsv, made by
/// scripts/training-hcpe-vectors.py): every game of every corpus CSA file
/// with `'**` evaluations — positions, moves, evaluations and results.
#[test]
fn hcpe_of_corpus_games_with_evaluations_matches_cshogi() {
    let Some(corpus) = crate::util::shared::shared("corpus") else {
        return;
    };
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/training/hcpe-corpus.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut games = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let [file, game, expected] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("not three fields: {line}");
        };
        let file_path = corpus.join(file);
        let records = kifconv::read(&file_path).unwrap();
        let record = &records[game.parse::<usize>().unwrap()];
        let (entries, _) = kifconv::training::hcpe::entries(record).unwrap();
        let got: String = entries.iter().map(|e| hex(e)).collect();
        if got != expected {
            // Name the first entry that differs, and the field.
            let at = (0..got.len().min(expected.len()))
                .find(|&i| got.as_bytes()[i] != expected.as_bytes()[i])
                .unwrap_or(got.len().min(expected.len()));
            let entry = at / (2 * kifconv::training::hcpe::SIZE);
            let field = match at % (2 * kifconv::training::hcpe::SIZE) / 2 {
                0..32 => "hcp",
                32..34 => "eval",
                34..36 => "bestMove16",
                36 => "gameResult",
                _ => "pad",
            };
            panic!(
                "{file} game {game}: entry {entry} differs in {field} ({} entries, cshogi {})",
                got.len() / 76,
                expected.len() / 76
            );
        }
        games += 1;
    }
    assert!(games >= 10, "{games} games");
}
