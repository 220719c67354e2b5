//! The SFEN and USI readers answer any string with a value or an error,
//! never a panic.

use kifconv::read::Format;
use kifconv::{KingRule, Move, Position, Setup};
use proptest::prelude::*;

/// Strings made of the characters these formats use, so that the readers get
/// past their first check often, plus anything at all.
fn sfenish() -> impl Strategy<Value = String> {
    prop_oneof![
        "[1-9+/PLNSGBRKplnsgbrkbw\\- ]{0,120}",
        "[1-9+/PLNSGBRKplnsgbrk]{0,80} [bw] [0-9PLNSGBRplnsgbr\\-]{0,12} [0-9]{0,4}",
        ".{0,80}",
    ]
}

fn check_sfen(text: &str) {
    if let Ok(setup) = Setup::from_sfen(text) {
        // A setup that reads back must write out and read in the same.
        let again = Setup::from_sfen(&setup.sfen()).expect("our SFEN reads back");
        assert_eq!(again, setup);
        for rule in [KingRule::BothRequired, KingRule::MayBeMissing] {
            if let Ok(pos) = Position::from_setup(setup.clone(), rule) {
                for mv in pos.legal_moves() {
                    let mut next = pos.clone();
                    next.play(mv).expect("a generated move is legal");
                }
                assert_eq!(pos.flip().flip(), pos);
            }
        }
    }
}

const SEEDS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "l4Ssnl/7k1/p1np1g1p1/1rp1PPp1p/3P5/2P2+bPPP/P5BK1/6S2/LN2RG2L b GSPgn3p 77",
    "7nk/7p1/7S1/9/9/9/9/9/4K4 b P 1",
];

/// A valid SFEN with a few characters replaced, inserted or deleted.
fn mutated_sfen() -> impl Strategy<Value = String> {
    let edit = (
        0usize..200,
        0u8..3,
        prop::sample::select(b"123456789+/PLNSGBRKplnsgbrk -bw".to_vec()),
    );
    (
        prop::sample::select(SEEDS.to_vec()),
        prop::collection::vec(edit, 0..4),
    )
        .prop_map(|(seed, edits)| {
            let mut bytes = seed.as_bytes().to_vec();
            crate::util::edits::apply(&mut bytes, edits);
            String::from_utf8(bytes).expect("ASCII edits of ASCII")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn sfen_reader_never_panics(text in sfenish()) {
        check_sfen(&text);
    }

    #[test]
    fn mutated_sfen_never_panics(text in mutated_sfen()) {
        check_sfen(&text);
    }

    #[test]
    fn usi_reader_never_panics(
        line in prop_oneof![
            "(position )?(startpos|sfen [^ ]{0,60} [bw] [^ ]{0,8} [0-9]{0,3})( moves( [1-9][a-i][1-9][a-i]\\+?| [PLNSGBR]\\*[1-9][a-i]| [^ ]{0,6}){0,12})?",
            ".{0,100}",
        ]
    ) {
        // The line read as a game: its start checked, its moves played.
        let _ = kifconv::read::read_text(&line, Format::Usi);
        let _ = Move::from_usi(&line);
    }

    #[test]
    fn usen_wars_and_end_token_lines_never_panic(
        line in prop_oneof![
            "[a-zA-Z0-9_.]{0,20}(~[0-9]{0,2}\\.[0-9a-z]{0,12}\\.[a-z]?){1,3}",
            "([+-][0-9]{4}[A-Z]{2},L[0-9]{0,4}\t){0,6}(GOTE_WIN_TORYO|DRAW_SENNICHI|%TORYO|X)?",
            "position startpos moves( [1-9][a-i][1-9][a-i]){0,4} (resign|win|draw|break|あ)",
            "[~.\t,Lあ0-9a-z+%-]{0,40}",
        ]
    ) {
        for format in [Format::Usi, Format::Csa] {
            let _ = kifconv::read::read_text(&line, format);
        }
    }

    #[test]
    fn usi_move_syntax_never_panics(text in ".{0,8}") {
        if let Ok(mv) = Move::from_usi(&text) {
            prop_assert_eq!(mv.to_string(), text);
        }
    }
}

/// Fixture files with bytes replaced, inserted or deleted, read as KIF and
/// as KI2: a record or an error, never a panic.
fn mutated_fixture() -> impl Strategy<Value = (usize, Vec<u8>)> {
    let files: Vec<std::path::PathBuf> = ["fixtures/kif", "fixtures/ki2", "fixtures/bad"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
        })
        .collect();
    let count = files.len();
    let edit = (any::<usize>(), 0u8..3, any::<u8>());
    (0..count, prop::collection::vec(edit, 1..8)).prop_map(move |(i, edits)| {
        let mut bytes = std::fs::read(&files[i]).unwrap();
        crate::util::edits::apply(&mut bytes, edits);
        (i, bytes)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn kif_and_ki2_readers_never_panic((_, bytes) in mutated_fixture()) {
        use kifconv::read::{read_bytes, Format};
        for format in [Some(Format::Kif), Some(Format::Ki2), None] {
            let _ = read_bytes(&bytes, std::path::Path::new("x.kif"), format, Default::default());
        }
    }

    #[test]
    fn kif_and_ki2_readers_never_panic_on_junk(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        use kifconv::read::{read_bytes, Format};
        for format in [Some(Format::Kif), Some(Format::Ki2), None] {
            let _ = read_bytes(&bytes, std::path::Path::new("x.ki2"), format, Default::default());
        }
    }
}
