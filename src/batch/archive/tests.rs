//! What every kind must do alike: round trips in order, limits, and no
//! panic on damaged archives.

use std::path::Path;

use super::testkit::*;
use super::*;

const ALL: [Kind; 6] = [
    Kind::Zip,
    Kind::SevenZ,
    Kind::Tar,
    Kind::TarGz,
    Kind::TarXz,
    Kind::TarZst,
];

/// An archive of `files` of this kind, written the common way.
fn build(kind: Kind, files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    match kind {
        Kind::Zip => {
            let entries: Vec<ZipEntry> = files
                .iter()
                .map(|(name, data)| ZipEntry {
                    utf8_flag: true,
                    ..ZipEntry::new(name, data)
                })
                .collect();
            zip(&entries, b"", false)
        }
        Kind::SevenZ => sevenz(files, Method::Lzma2, true),
        tar_kind => tar_of(tar_kind, files),
    }
}

#[test]
fn kinds_come_from_the_name() {
    let cases = [
        ("a.zip", Some(Kind::Zip)),
        ("A.ZIP", Some(Kind::Zip)),
        ("wdoor2024.7z", Some(Kind::SevenZ)),
        ("x.tar", Some(Kind::Tar)),
        ("x.tar.gz", Some(Kind::TarGz)),
        ("x.TGZ", Some(Kind::TarGz)),
        ("x.tar.xz", Some(Kind::TarXz)),
        ("x.txz", Some(Kind::TarXz)),
        ("x.tar.zst", Some(Kind::TarZst)),
        ("x.tzst", Some(Kind::TarZst)),
        ("dir/x.Tar.Zst", Some(Kind::TarZst)),
        ("x.gz", None),
        ("x.zst", None),
        ("x.kif", None),
        (".zip", None),
        ("zip", None),
    ];
    for (name, want) in cases {
        assert_eq!(kind_of(Path::new(name)), want, "{name}");
    }
}

#[test]
fn every_kind_round_trips_names_and_bytes_in_order() {
    let files = sample();
    let want = all_read(&files);
    for kind in ALL {
        let got = read_all(build(kind, &files), kind, GENEROUS);
        assert_eq!(got, want, "{kind:?}");
    }
}

#[test]
fn relative_paths_are_made_safe_in_every_kind() {
    let files = vec![
        ("../../up.kif", b"1".to_vec()),
        ("/abs/x.kif", b"2".to_vec()),
    ];
    for kind in [Kind::Zip, Kind::SevenZ] {
        let got: Vec<_> = entries(
            Box::new(std::io::Cursor::new(build(kind, &files))),
            kind,
            GENEROUS,
        )
        .map(|item| item.unwrap().0.relative)
        .collect();
        assert_eq!(
            got,
            [Path::new("up.kif"), Path::new("abs/x.kif")],
            "{kind:?}"
        );
    }
}

#[test]
fn an_entry_over_the_limit_is_an_error_naming_it_and_the_rest_goes_on() {
    let files = vec![
        ("small.kif", vec![b'a'; 100]),
        ("large.kif", vec![b'b'; 5000]),
        ("after.kif", vec![b'c'; 100]),
    ];
    let limits = Limits {
        max_entry: 1000,
        max_total: 1 << 20,
    };
    for kind in ALL {
        let got = read_all(build(kind, &files), kind, limits);
        assert_eq!(got.len(), 3, "{kind:?}: {got:?}");
        assert_eq!(
            got[0],
            Ok(("small.kif".into(), vec![b'a'; 100])),
            "{kind:?}"
        );
        let (entry, message) = error(&got[1]);
        assert_eq!(entry.as_deref(), Some("large.kif"), "{kind:?}");
        assert!(
            message.contains("limit of 1000 bytes"),
            "{kind:?}: {message}"
        );
        assert_eq!(
            got[2],
            Ok(("after.kif".into(), vec![b'c'; 100])),
            "{kind:?}"
        );
    }
}

#[test]
fn passing_the_total_limit_ends_the_archive_with_an_error() {
    let files: Vec<(&str, Vec<u8>)> = ["1.kif", "2.kif", "3.kif", "4.kif"]
        .into_iter()
        .map(|name| (name, vec![b'x'; 400]))
        .collect();
    let limits = Limits {
        max_entry: 1000,
        max_total: 1000,
    };
    for kind in ALL {
        let got = read_all(build(kind, &files), kind, limits);
        assert_eq!(got.len(), 3, "{kind:?}: {got:?}");
        assert!(got[0].is_ok() && got[1].is_ok(), "{kind:?}");
        let (entry, message) = error(&got[2]);
        assert_eq!(entry, None, "{kind:?}");
        assert!(message.contains("in all"), "{kind:?}: {message}");
    }
}

#[test]
fn garbage_is_one_error_item_for_every_kind() {
    for kind in ALL {
        let got = read_all(
            b"this is not an archive at all, not even close".to_vec(),
            kind,
            GENEROUS,
        );
        assert!(
            !got.is_empty() && got.iter().all(|g| g.is_err()),
            "{kind:?}: {got:?}"
        );
        let got = read_all(Vec::new(), kind, GENEROUS);
        // An empty tar is an empty archive; the others need their headers.
        match kind {
            Kind::Tar => assert_eq!(got, []),
            _ => assert!(got.len() == 1 && got[0].is_err(), "{kind:?}: {got:?}"),
        }
    }
}

/// Truncated and mutated archives of every kind: each read ends, with items
/// or errors, and never with a panic (in the producer threads, a panic
/// becomes an error item saying it is a bug, so that is checked too).
#[test]
fn damaged_archives_never_panic() {
    let files = sample();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let limits = Limits {
        max_entry: 1 << 20,
        max_total: 4 << 20,
    };
    for kind in ALL {
        let good = build(kind, &files);
        for case in 0..120 {
            let mut bad = good.clone();
            match case % 3 {
                0 => bad.truncate(rng.below(good.len())),
                1 => {
                    for _ in 0..1 + rng.below(4) {
                        let at = rng.below(bad.len());
                        bad[at] ^= 1 << rng.below(8);
                    }
                }
                _ => {
                    // A whole run overwritten, often a header or a size.
                    let at = rng.below(bad.len());
                    let end = (at + 1 + rng.below(16)).min(bad.len());
                    let byte = rng.next() as u8;
                    bad[at..end].fill(byte);
                }
            }
            for got in read_all(bad, kind, limits) {
                if let Err((_, message)) = got {
                    assert!(!message.contains("bug"), "{kind:?} case {case}: {message}");
                }
            }
        }
    }
}

/// A source that says when it is dropped: the producer thread owns it, so
/// its drop means the thread has ended.
struct Watched {
    inner: std::io::Cursor<Vec<u8>>,
    dropped: std::sync::mpsc::Sender<()>,
}

impl std::io::Read for Watched {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf)
    }
}

impl std::io::Seek for Watched {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        let _ = self.dropped.send(());
    }
}

#[test]
fn dropping_the_iterator_early_stops_the_reader_thread() {
    let names: Vec<String> = (0..300).map(|i| format!("{i}.kif")).collect();
    let files: Vec<(&str, Vec<u8>)> = names
        .iter()
        .map(|n| (n.as_str(), vec![b'k'; 20_000]))
        .collect();
    for kind in [Kind::SevenZ, Kind::Tar, Kind::TarXz, Kind::TarZst] {
        let (tx, rx) = std::sync::mpsc::channel();
        let source = Watched {
            inner: std::io::Cursor::new(build(kind, &files)),
            dropped: tx,
        };
        let mut it = entries(Box::new(source), kind, GENEROUS);
        assert_eq!(it.next().unwrap().unwrap().0.name, "0.kif");
        drop(it);
        // Far from the end of the archive; the thread must end anyway.
        assert!(
            rx.recv_timeout(std::time::Duration::from_secs(20)).is_ok(),
            "{kind:?}: the reader thread is still running"
        );
    }
}

/// Reads one archive named by `KIFCONV_BENCH_ARCHIVE` (as packed by
/// scripts/bench-archives.sh, which runs this once per archive under
/// `/usr/bin/time` for the peak memory) and prints the time taken.
#[test]
#[ignore = "a measurement: needs KIFCONV_BENCH_ARCHIVE"]
fn bench_archive() {
    let path = std::env::var("KIFCONV_BENCH_ARCHIVE").expect("KIFCONV_BENCH_ARCHIVE");
    let kind = kind_of(Path::new(&path)).expect("an archive kind");
    let start = std::time::Instant::now();
    let file = std::fs::File::open(&path).unwrap();
    let limits = Limits {
        max_entry: 1 << 30,
        max_total: 1 << 40,
    };
    let (mut count, mut bytes) = (0, 0);
    for item in entries(Box::new(file), kind, limits) {
        let (_, data) = item.unwrap_or_else(|e| panic!("{e}"));
        count += 1;
        bytes += data.len();
    }
    println!(
        "{path}: {count} entries, {bytes} bytes in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    assert!(count > 0);
}

/// The suffix is read from the name's bytes as the lowercase lossy copy
/// of the name read it: case, non-UTF-8 bytes, names no longer than it.
#[test]
fn suffixes_read_from_bytes_as_from_a_lowercase_copy() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let copy = |path: &Path| {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        SUFFIXES
            .iter()
            .find(|(suffix, _)| name.len() > suffix.len() && name.ends_with(suffix))
            .map(|&(suffix, kind)| (suffix.len(), kind))
    };
    let names: [&[u8]; 14] = [
        b"a.zip",
        b".zip",
        b"A.ZIP",
        b"g.Tar.Gz",
        b"g.gz",
        b"\xff.7z",
        b"x.7\xffz",
        b"\xff\xfe",
        b"x.tzst",
        b".tgz.txz",
        b"d/a.zip",
        b"a.zip/",
        b"",
        b"..",
    ];
    for name in names {
        let path = Path::new(OsStr::from_bytes(name));
        assert_eq!(suffix(path), copy(path), "{path:?}");
    }
}
