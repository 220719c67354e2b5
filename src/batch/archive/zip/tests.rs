use std::io::Cursor;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::super::testkit::*;
use super::super::Kind;
use super::*;

fn read_zip(entries: &[ZipEntry], limits: Limits) -> Vec<Got> {
    read_all(zip(entries, b"", false), Kind::Zip, limits)
}

#[test]
fn duplicate_names_are_all_kept() {
    let got = read_zip(
        &[
            ZipEntry::new("a.kif", "first"),
            ZipEntry::new("b.kif", "other"),
            ZipEntry::new("a.kif", "second"),
        ],
        GENEROUS,
    );
    assert_eq!(
        got,
        [
            Ok(("a.kif".into(), b"first".to_vec())),
            Ok(("b.kif".into(), b"other".to_vec())),
            Ok(("a.kif".into(), b"second".to_vec())),
        ]
    );
}

#[test]
fn names_are_cp932_unless_utf8_by_flag_validity_or_unicode_path_field() {
    let cp932 = b"\x8a\xfb\x95\x88.kif"; // 棋譜.kif
                                         // Info-ZIP's Unicode Path field: version 1, CRC-32 of the header name.
    let mut unicode = vec![0x75, 0x70];
    let field_data = [
        &[1][..],
        &crc32(b"\x82\xa0.kif").to_le_bytes(),
        "あい.kif".as_bytes(),
    ]
    .concat();
    unicode.extend((field_data.len() as u16).to_le_bytes());
    unicode.extend(&field_data);
    let got = read_zip(
        &[
            ZipEntry::new(cp932, "1"),
            ZipEntry {
                utf8_flag: true,
                ..ZipEntry::new("棋譜.kif", "2")
            },
            ZipEntry::new("棋譜2.kif", "3"),
            ZipEntry {
                central_extra: unicode.clone(),
                ..ZipEntry::new(b"\x82\xa0.kif", "4")
            },
            // The field's CRC does not match this name: not used.
            ZipEntry {
                central_extra: unicode,
                ..ZipEntry::new(b"\x82\xa2.kif", "5")
            },
        ],
        GENEROUS,
    );
    let names: Vec<String> = got.into_iter().map(|g| g.unwrap().0).collect();
    assert_eq!(
        names,
        ["棋譜.kif", "棋譜.kif", "棋譜2.kif", "あい.kif", "い.kif"]
    );
}

#[test]
fn stored_deflated_and_zip64_entries_read_alike() {
    let files = sample();
    let want = all_read(&files);
    for (deflate, zip64) in [(false, false), (true, false), (false, true), (true, true)] {
        let entries: Vec<ZipEntry> = files
            .iter()
            .map(|(name, data)| ZipEntry {
                deflate,
                utf8_flag: true,
                ..ZipEntry::new(name, data)
            })
            .collect();
        let got = read_all(zip(&entries, b"", zip64), Kind::Zip, GENEROUS);
        assert_eq!(got, want, "deflate {deflate}, zip64 {zip64}");
    }
}

#[test]
fn an_archive_comment_holding_a_fake_end_record_is_not_taken_for_it() {
    let mut comment = 0x0605_4b50u32.to_le_bytes().to_vec();
    comment.extend([0xff; 30]);
    let archive = zip(&[ZipEntry::new("a.kif", "game")], &comment, false);
    let got = read_all(archive, Kind::Zip, GENEROUS);
    assert_eq!(got, [Ok(("a.kif".into(), b"game".to_vec()))]);
}

#[test]
fn directories_and_links_are_skipped() {
    const UNIX: u8 = 3;
    let got = read_zip(
        &[
            ZipEntry::new("dir/", ""),
            ZipEntry {
                external: 0x10,
                ..ZipEntry::new("dosdir", "")
            },
            ZipEntry {
                host: UNIX,
                external: 0o120777 << 16,
                ..ZipEntry::new("link.kif", "target.kif")
            },
            ZipEntry {
                host: UNIX,
                external: 0o100644 << 16,
                ..ZipEntry::new("dir/game.kif", "game")
            },
        ],
        GENEROUS,
    );
    assert_eq!(got, [Ok(("dir/game.kif".into(), b"game".to_vec()))]);
}

#[test]
fn bad_crc_unknown_methods_and_encryption_are_errors_for_their_entry() {
    let got = read_zip(
        &[
            ZipEntry {
                crc: Some(0x1234_5678),
                ..ZipEntry::new("badcrc.kif", "game")
            },
            ZipEntry {
                deflate: false,
                method: Some(14),
                ..ZipEntry::new("lzma.kif", "game")
            },
            ZipEntry {
                flags: 1,
                ..ZipEntry::new("secret.kif", "game")
            },
            ZipEntry::new("fine.kif", "game"),
        ],
        GENEROUS,
    );
    let errors: Vec<(Option<String>, String)> = got[..3].iter().map(error).collect();
    assert_eq!(errors[0].0.as_deref(), Some("badcrc.kif"));
    assert!(errors[0].1.contains("CRC-32"), "{}", errors[0].1);
    assert_eq!(errors[1].0.as_deref(), Some("lzma.kif"));
    assert!(errors[1].1.contains("LZMA (method 14)"), "{}", errors[1].1);
    assert!(errors[2].1.contains("encrypted"), "{}", errors[2].1);
    assert_eq!(got[3], Ok(("fine.kif".into(), b"game".to_vec())));
}

#[test]
fn declared_sizes_are_never_trusted() {
    let big = vec![b'z'; 1 << 20];
    let limits = Limits {
        max_entry: 4096,
        max_total: 1 << 30,
    };
    let got = read_zip(
        &[
            // Says 10 bytes, inflates to a MiB: stopped at the limit.
            ZipEntry {
                declared_size: Some(10),
                ..ZipEntry::new("bomb.kif", &big)
            },
            // Says 10 bytes, holds 20: damaged.
            ZipEntry {
                declared_size: Some(10),
                ..ZipEntry::new("short.kif", [b'y'; 20])
            },
            // Says more than the limit: refused without inflating.
            ZipEntry {
                declared_size: Some(1 << 30),
                ..ZipEntry::new("huge.kif", "tiny")
            },
        ],
        limits,
    );
    let messages: Vec<String> = got.iter().map(|g| error(g).1).collect();
    assert!(
        messages[0].contains("more than the limit of 4096"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("declares 10 bytes but holds 20"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].contains("(1073741824 bytes;"),
        "{}",
        messages[2]
    );
}

#[test]
fn data_running_into_the_next_entry_is_an_error() {
    // A local header with a long extra field (not in the central one)
    // pushes the data past where the next entry starts.
    let archive = zip(
        &[
            ZipEntry {
                local_extra_len: 0,
                ..ZipEntry::new("a.kif", "aaaa")
            },
            ZipEntry::new("b.kif", "bbbb"),
        ],
        b"",
        false,
    );
    // Patch the first local header's extra length (bytes 28..30) upward.
    let mut archive = archive;
    archive[28] = 40;
    let got = read_all(archive, Kind::Zip, GENEROUS);
    let (entry, message) = error(&got[0]);
    assert_eq!(entry.as_deref(), Some("a.kif"));
    assert!(message.contains("run into the next entry"), "{message}");
    assert_eq!(got[1], Ok(("b.kif".into(), b"bbbb".to_vec())));
}

/// The overlapping zip bomb: 10,000 central headers all pointing at one
/// local header whose deflate stream inflates to 64 MiB.
fn overlap_bomb() -> Vec<u8> {
    let zeros = vec![0; 64 << 20];
    let (kernel, crc) = (deflate(&zeros), crc32(&zeros));
    let mut out = Vec::new();
    out.extend(0x0403_4b50u32.to_le_bytes());
    out.extend([20, 0, 0, 0, 8, 0, 0, 0, 0, 0]);
    out.extend(crc.to_le_bytes());
    out.extend((kernel.len() as u32).to_le_bytes());
    out.extend((64u32 << 20).to_le_bytes());
    out.extend([1, 0, 0, 0]);
    out.push(b'k');
    out.extend(&kernel);
    let mut central = Vec::new();
    for i in 0..10_000u32 {
        let name = format!("{i:05}.kif");
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend([20, 0, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0]);
        central.extend(crc.to_le_bytes());
        central.extend((kernel.len() as u32).to_le_bytes());
        central.extend((64u32 << 20).to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0; 12]);
        central.extend(0u32.to_le_bytes());
        central.extend(name.as_bytes());
    }
    finish_zip(out, &central, 10_000, b"", false)
}

#[test]
fn overlapping_entries_refuse_the_archive_before_inflating_anything() {
    let bomb = overlap_bomb();
    assert!(bomb.len() < 700 << 10, "{} bytes", bomb.len());
    let start = Instant::now();
    let got = read_all(bomb, Kind::Zip, GENEROUS);
    let took = start.elapsed();
    assert_eq!(got.len(), 1);
    let (entry, message) = error(&got[0]);
    assert_eq!(entry, None);
    assert!(
        message.contains("overlap") && message.contains("\"00000.kif\""),
        "{message}"
    );
    assert!(took < Duration::from_millis(500), "took {took:?}");
}

#[test]
fn threads_share_the_total_limit() {
    let entries: Vec<ZipEntry> = (0..40)
        .map(|i| ZipEntry::new(format!("{i}.kif"), vec![b'g'; 1000]))
        .collect();
    let archive = zip(&entries, b"", false);
    let dir = ZipDirectory::read(&mut Cursor::new(&archive)).unwrap();
    assert_eq!(dir.len(), 40);
    let limits = Limits {
        max_entry: 1000,
        max_total: 10_500,
    };
    let read = AtomicUsize::new(0);
    let refused = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..2 {
            let (dir, archive, read, refused) = (&dir, &archive, &read, &refused);
            s.spawn(move || {
                let mut file = Cursor::new(archive);
                for i in (t..dir.len()).step_by(2) {
                    match read_zip_entry(&mut file, dir, i, limits) {
                        Ok(data) => {
                            assert_eq!(data, vec![b'g'; 1000]);
                            read.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(message) => {
                            assert!(message.contains("in all"), "{message}");
                            refused.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    // Ten fit; the eleventh passes the total; every later one is refused
    // (two threads may both inflate one past it before seeing the total).
    assert_eq!(read.load(Ordering::Relaxed), 10);
    assert_eq!(refused.load(Ordering::Relaxed), 30);
    assert!(
        (11_000..=12_000).contains(&dir.inflated()),
        "{}",
        dir.inflated()
    );
}

#[test]
fn the_directory_names_entries_and_tells_files() {
    let archive = zip(
        &[ZipEntry::new("d/", ""), ZipEntry::new("../x.kif", "x")],
        b"",
        false,
    );
    let mut file = Cursor::new(archive);
    let dir = ZipDirectory::read(&mut file).unwrap();
    assert_eq!(
        (dir.len(), dir.is_file(0), dir.is_file(1)),
        (2, false, true)
    );
    assert_eq!(dir.name(1).name, "../x.kif");
    assert_eq!(dir.name(1).relative, std::path::Path::new("x.kif"));
    assert_eq!(
        read_zip_entry(&mut file, &dir, 1, GENEROUS),
        Ok(b"x".to_vec())
    );
    assert!(read_zip_entry(&mut file, &dir, 0, GENEROUS).is_err());
    assert!(read_zip_entry(&mut file, &dir, 2, GENEROUS).is_err());
}
