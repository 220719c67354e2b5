use super::super::testkit::*;
use super::super::Kind;
use super::ZstdFrames;

const TARS: [Kind; 4] = [Kind::Tar, Kind::TarGz, Kind::TarXz, Kind::TarZst];

fn ok(name: &str, data: &[u8]) -> Got {
    Ok((name.into(), data.to_vec()))
}

#[test]
fn long_names_pax_paths_and_cp932_names_are_read_and_special_entries_skipped() {
    let long = format!("{}/game.kif", "long-folder-name".repeat(10));
    let pax = format!("pax/{}.csa", "p".repeat(120));
    let entries = [
        TarEntry::Dir("dir"),
        TarEntry::File(long.as_bytes(), b"long"),
        TarEntry::Symlink("link.kif", "dir/game.kif"),
        TarEntry::HardLink("hard.kif", "dir/game.kif"),
        TarEntry::Pax(&pax, b"pax"),
        TarEntry::File(b"\x8a\xfb\x95\x88.kif", b"cp932"),
        TarEntry::File("棋譜.kif".as_bytes(), b"utf8"),
        TarEntry::File(b"a.kif", b"dup 1"),
        TarEntry::File(b"a.kif", b"dup 2"),
    ];
    let plain = tar(&entries);
    for kind in TARS {
        let got = read_all(compress(kind, plain.clone()), kind, GENEROUS);
        assert_eq!(
            got,
            [
                ok(&long, b"long"),
                ok(&pax, b"pax"),
                ok("棋譜.kif", b"cp932"),
                ok("棋譜.kif", b"utf8"),
                ok("a.kif", b"dup 1"),
                ok("a.kif", b"dup 2"),
            ],
            "{kind:?}"
        );
    }
}

#[test]
fn concatenated_gzip_members_and_zstd_frames_are_one_stream() {
    let tar = tar_of(Kind::Tar, &sample());
    let (head, tail) = tar.split_at(3000);
    let want: Vec<Got> = sample().iter().map(|(n, d)| ok(n, d)).collect();

    let gz = [gzip(head), gzip(tail)].concat();
    assert_eq!(read_all(gz, Kind::TarGz, GENEROUS), want);

    // A skippable frame (magic 0x184D2A50..5F) between two frames.
    let mut skippable = 0x184d_2a53u32.to_le_bytes().to_vec();
    skippable.extend(5u32.to_le_bytes());
    skippable.extend(b"hello");
    let zst = [zstd(head), skippable, zstd(tail)].concat();
    assert_eq!(read_all(zst, Kind::TarZst, GENEROUS), want);
}

#[test]
fn a_zstd_content_checksum_mismatch_is_an_error() {
    let data = b"some bytes to compress, some bytes to compress".repeat(20);
    let mut frame = zstd(&data);
    assert_eq!(drain(ZstdFrames::new(&frame[..])).unwrap(), data);
    // The frame header says whether a checksum ends the frame (bit 2).
    if frame[4] & 0b100 != 0 {
        let last = frame.len() - 1;
        frame[last] ^= 1;
        let error = drain(ZstdFrames::new(&frame[..])).unwrap_err();
        assert!(error.to_string().contains("checksum"), "{error}");
    }
}

#[test]
fn a_damaged_gzip_trailer_is_an_error_after_the_entries() {
    let mut gz = gzip(&tar_of(Kind::Tar, &sample()));
    // The trailer is the CRC-32 then the size, 8 bytes.
    let crc_at = gz.len() - 8;
    gz[crc_at] ^= 0xff;
    let got = read_all(gz, Kind::TarGz, GENEROUS);
    assert_eq!(got.len(), sample().len() + 1, "{got:?}");
    let (entry, message) = error(got.last().unwrap());
    assert_eq!(entry, None);
    assert!(message.contains("corrupt tar.gz archive"), "{message}");
}

#[test]
fn a_truncated_stream_is_an_error_naming_the_entry_being_read() {
    let files = vec![("a.kif", vec![b'a'; 1000]), ("b.kif", vec![b'b'; 50_000])];
    let tar = tar_of(Kind::Tar, &files);
    // Cut inside b.kif's data.
    let cut = tar[..512 * 3 + 20_000].to_vec();
    let got = read_all(cut, Kind::Tar, GENEROUS);
    assert_eq!(got[0], ok("a.kif", &[b'a'; 1000]));
    let (entry, message) = error(&got[1]);
    assert_eq!(entry.as_deref(), Some("b.kif"));
    assert!(
        message.contains("ends 19488 bytes into this entry of 50000"),
        "{message}"
    );
    assert_eq!(got.len(), 2);
}
