//! Training data bit for bit as cshogi writes it: every line of
//! fixtures/training/vectors.tsv (made by scripts/training-vectors.py with
//! cshogi from positions of the bench games) gives the same packed
//! position in both dialects and the same 16-bit move in both layouts.

use kifconv::training::move16::{self, Layout};
use kifconv::training::packed::{pack, Dialect};
use kifconv::training::samples::Game;
use kifconv::training::{hcpe, hcpe3, psv};
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
        for (dialect, packed) in [(Dialect::Hcp, hcp), (Dialect::PackedSfen, psfen)] {
            assert_eq!(
                hex(&pack(&pos, dialect).unwrap()),
                packed,
                "{sfen} {dialect:?}"
            );
        }
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

/// Compares kifconv's entries of every game listed in `table` (a file of
/// fixtures/training/ made by scripts/training-hcpe-vectors.py from the
/// corpus CSA files with `'**` evaluations) with cshogi's, naming the
/// first entry and field that differ (`locate` names the byte at an
/// offset). At least 10 games are compared, unless the corpus is missing.
fn compare_corpus_games(
    table: &str,
    locate: impl Fn(usize) -> String,
    entries: impl Fn(&kifconv::record::Record) -> Vec<u8>,
) {
    let Some(corpus) = crate::util::shared::shared("corpus") else {
        return;
    };
    let path = format!("{}/fixtures/training/{table}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut games = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let [file, game, expected] = line.split('\t').collect::<Vec<_>>()[..] else {
            panic!("not three fields: {line}");
        };
        let records = kifconv::read(corpus.join(file)).unwrap();
        let got = hex(&entries(&records[game.parse::<usize>().unwrap()]));
        if got != expected {
            let at = (0..got.len().min(expected.len()))
                .find(|&i| got.as_bytes()[i] != expected.as_bytes()[i])
                .unwrap_or(got.len().min(expected.len()));
            panic!(
                "{table}: {file} game {game}: {} differs ({} bytes, cshogi {})",
                locate(at / 2),
                got.len() / 2,
                expected.len() / 2
            );
        }
        games += 1;
    }
    assert!(games >= 10, "{table}: {games} games");
}

/// Names the byte at an offset of fixed-size entries: the entry and the
/// field.
fn fixed<'a>(
    size: usize,
    fields: &'a [(std::ops::Range<usize>, &str)],
) -> impl Fn(usize) -> String + 'a {
    move |at| {
        let byte = at % size;
        let field = fields
            .iter()
            .find(|(range, _)| range.contains(&byte))
            .map_or("pad", |(_, name)| name);
        format!("entry {}, {field},", at / size)
    }
}

/// HCPE bit for bit as cshogi makes it with dlshogi's csa_to_hcpe logic:
/// every game of every corpus CSA file with `'**` evaluations — positions,
/// moves, evaluations and results.
#[test]
fn hcpe_of_corpus_games_with_evaluations_matches_cshogi() {
    let fields = [
        (0..32, "hcp"),
        (32..34, "eval"),
        (34..36, "bestMove16"),
        (36..37, "gameResult"),
    ];
    compare_corpus_games("hcpe-corpus.tsv", fixed(hcpe::SIZE, &fields), |r| {
        hcpe::entries(r).unwrap().0.concat()
    });
}

/// PackedSfenValue bit for bit as cshogi makes it, for the same games:
/// PackedSfen, score, YaneuraOu's Move16, ply and the result from the side
/// to move.
#[test]
fn psv_of_corpus_games_with_evaluations_matches_cshogi() {
    let fields = [
        (0..32, "sfen"),
        (32..34, "score"),
        (34..36, "move"),
        (36..38, "gamePly"),
        (38..39, "game_result"),
    ];
    compare_corpus_games("psv-corpus.tsv", fixed(psv::SIZE, &fields), |r| {
        psv::entries(r).unwrap().0.concat()
    });
}

/// hcpe3 bit for bit as dlshogi's csa_to_hcpe3 writes it with cshogi (its
/// filters off, no cut at a mate score), for the same games: the header
/// (start, move count, result bits, opponent) and every move's move16,
/// evaluation and one candidate.
#[test]
fn hcpe3_of_corpus_games_with_evaluations_matches_dlshogi() {
    let locate = |at: usize| match at {
        0..32 => "header hcp".to_string(),
        32..34 => "header moveNum".to_string(),
        34 => "header result".to_string(),
        35 => "header opponent".to_string(),
        _ => {
            let field = [
                "move16",
                "move16",
                "eval",
                "eval",
                "candidateNum",
                "candidateNum",
            ]
            .get((at - 36) % 10)
            .unwrap_or(&"candidate");
            format!("move {}, {field},", (at - 36) / 10)
        }
    };
    compare_corpus_games("hcpe3-corpus.tsv", locate, |r| {
        hcpe3::encode(&Game::of(r).unwrap()).unwrap()
    });
}
