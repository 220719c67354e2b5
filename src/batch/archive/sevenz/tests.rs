use super::super::testkit::*;
use super::super::Kind;

fn ok(name: &str, data: &[u8]) -> Got {
    Ok((name.into(), data.to_vec()))
}

#[test]
fn solid_and_per_file_blocks_with_lzma_and_lzma2_round_trip() {
    let files = sample();
    let want: Vec<Got> = files.iter().map(|(n, d)| ok(n, d)).collect();
    for method in [Method::Lzma, Method::Lzma2] {
        for solid in [true, false] {
            let got = read_all(sevenz(&files, method, solid), Kind::SevenZ, GENEROUS);
            assert_eq!(got, want, "solid {solid}");
        }
    }
}

#[test]
fn empty_files_keep_their_place_and_directories_are_skipped() {
    let files = vec![
        ("dir/", Vec::new()),
        ("a.kif", b"a".to_vec()),
        ("empty1.kif", Vec::new()),
        ("b.kif", b"b".to_vec()),
        ("empty2.kif", Vec::new()),
    ];
    // Every file but the directory, in order.
    let want: Vec<Got> = files[1..].iter().map(|(n, d)| ok(n, d)).collect();
    for solid in [true, false] {
        let got = read_all(sevenz(&files, Method::Lzma2, solid), Kind::SevenZ, GENEROUS);
        assert_eq!(got, want, "solid {solid}");
    }
}

#[test]
fn a_corrupt_block_is_an_error_item_not_bad_data() {
    // Stored data would let a flipped byte through to the CRC check; LZMA2
    // of incompressible bytes holds them almost as they are.
    let mut rng = Rng::new(7);
    let noise: Vec<u8> = (0..50_000).map(|_| rng.next() as u8).collect();
    let files = vec![("a.kif", noise.clone()), ("b.kif", noise)];
    let good = sevenz(&files, Method::Lzma2, false);
    // The first block's packed data starts after the 32-byte start header.
    let mut bad = good.clone();
    bad[32 + 20_000] ^= 0x10;
    let got = read_all(bad, Kind::SevenZ, GENEROUS);
    let (entry, message) = error(&got[0]);
    assert_eq!(entry.as_deref(), Some("a.kif"), "{message}");
    assert!(message.contains("corrupt"), "{message}");
    // Each file is its own block: the second is still read.
    assert_eq!(got.last().unwrap().clone().unwrap().0, "b.kif");
}
