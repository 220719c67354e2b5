//! The archives people have, read straight: the 10,000 bench CSA games
//! packed by this test as a solid 7z (LZMA2 at 7-Zip's default level, as
//! Floodgate's yearly archives are), a tar.xz and a tar.zst convert to
//! exactly the bench's true USI lines, the 7z in under 100 MB; zips with
//! duplicate names and overlapping entries; archives inside archives.

use crate::util::bin::{assert_exit, run_measured as kifconv, s, scratch};
use crate::util::shared::shared;
use crate::util::zip::{crc32, entry as zip_entry, finish as finish_zip, read_all, stored, Header};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// The bench CSA files, names and bytes, in archive order.
fn bench_csa(bench: &Path) -> Vec<(String, Vec<u8>)> {
    read_all(&bench.join("csa.zip"))
        .into_iter()
        .filter(|(name, _)| name.ends_with(".csa"))
        .collect()
}

fn tar_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        builder.append_data(&mut header, name, &data[..]).unwrap();
    }
    builder.into_inner().unwrap()
}

fn seven_z_of(files: &[(String, Vec<u8>)], path: &Path) {
    use sevenz_rust2::encoder_options::Lzma2Options;
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter, SourceReader};
    let mut writer = ArchiveWriter::create(path).unwrap();
    // 7-Zip's default level (a 16 MiB dictionary), one solid block.
    writer.set_content_methods(vec![Lzma2Options::from_level(5).into()]);
    let (entries, readers): (Vec<_>, Vec<_>) = files
        .iter()
        .map(|(name, data)| {
            let reader = SourceReader::new(std::io::Cursor::new(data.clone()));
            (ArchiveEntry::new_file(name), reader)
        })
        .unzip();
    writer.push_archive_entries(entries, readers).unwrap();
    writer.finish().unwrap();
}

#[test]
fn the_bench_games_as_7z_tar_xz_and_tar_zst() {
    let Some(bench) = shared("bench") else { return };
    let files = bench_csa(&bench);
    assert_eq!(files.len(), 10_000);
    let truth = std::fs::read_to_string(bench.join("games.usi")).unwrap();
    let dir = scratch("bench");
    let seven = dir.join("wdoor-bench.7z");
    seven_z_of(&files, &seven);
    let tar = tar_of(&files);
    let xz = dir.join("bench.tar.xz");
    let mut writer = lzma_rust2::XzWriter::new(
        std::fs::File::create(&xz).unwrap(),
        lzma_rust2::XzOptions::with_preset(1),
    )
    .unwrap();
    writer.write_all(&tar).unwrap();
    writer.finish().unwrap();
    let zst = dir.join("bench.tar.zst");
    std::fs::write(
        &zst,
        ruzstd::encoding::compress_to_vec(&tar[..], ruzstd::encoding::CompressionLevel::Fastest),
    )
    .unwrap();
    for archive in [&seven, &xz, &zst] {
        let (out, kib) = kifconv(&[s(archive), "--to", "usi", "-q", "-j", "2"]);
        assert_exit(&out, 0);
        assert!(
            out.stdout == truth.as_bytes(),
            "{} differs from games.usi",
            archive.display()
        );
        eprintln!("{}: peak {kib:?} KiB", archive.display());
        if archive == &seven {
            if let Some(kib) = kib {
                assert!(kib < 100 * 1024, "the 7z took {kib} KiB");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

const GAME_A: &[u8] = b"position startpos moves 7g7f 3c3d\n";
const GAME_B: &[u8] = b"position startpos moves 2g2f 8c8d\n";

/// Two entries named `a.usi` both convert, to two outputs.
#[test]
fn duplicate_entry_names_give_two_outputs() {
    let dir = scratch("duplicates");
    let archive = dir.join("twice.zip");
    std::fs::write(&archive, stored(&[(b"a.usi", GAME_A), (b"a.usi", GAME_B)])).unwrap();
    let output = dir.join("out");
    let (result, _) = kifconv(&[s(&archive), "-o", s(&output), "--to", "sfen"]);
    assert_exit(&result, 0);
    let mut names: Vec<String> = std::fs::read_dir(&output)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.sfen", "a~2.sfen"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 10,000 entries whose data all point at one 64 MiB deflate stream: the
/// archive is refused at once, nothing inflated.
#[test]
fn overlapping_entries_are_refused_at_once() {
    let dir = scratch("overlap");
    let stream = {
        let mut encoder =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&vec![b'/'; 64 << 20]).unwrap();
        encoder.finish().unwrap()
    };
    let header = Header {
        name: b"x.csa",
        method: 8,
        crc: crc32(&vec![b'/'; 64 << 20]),
        compressed: stream.len() as u32,
        size: 64 << 20,
    };
    // One local header and its data, then 10,000 central entries that all
    // name it.
    let mut out = header.local();
    out.extend_from_slice(&stream);
    let mut central = Vec::new();
    for i in 0..10_000u32 {
        let name = format!("{i:05}.csa");
        let name = name.as_bytes();
        central.extend(Header { name, ..header }.central(0));
    }
    let archive = dir.join("bomb.zip");
    std::fs::write(&archive, finish_zip(out, &central, 10_000)).unwrap();
    assert!(std::fs::metadata(&archive).unwrap().len() < 1 << 20);
    let started = Instant::now();
    let (result, _) = kifconv(&[s(&archive), "--to", "usi"]);
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(result.status.code(), Some(1));
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.contains("overlap"), "{err}");
    assert!(result.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tar.gz inside a zip, with a zip inside that: every record converts,
/// under folders named after the archives; a fourth level is refused.
#[test]
fn archives_inside_archives() {
    let dir = scratch("nested");
    let innermost = {
        let (local, central) = zip_entry(b"deep.usi", GAME_B, 0);
        let mut out = local;
        out.extend_from_slice(GAME_B);
        finish_zip(out, &central, 1)
    };
    let tar = tar_of(&[
        ("one.usi".to_string(), GAME_A.to_vec()),
        ("more.zip".to_string(), innermost.clone()),
    ]);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&tar).unwrap();
    let tar_gz = gz.finish().unwrap();
    let (local, central) = zip_entry(b"games.tar.gz", &tar_gz, 0);
    let mut outer = local;
    outer.extend_from_slice(&tar_gz);
    let archive = dir.join("outer.zip");
    std::fs::write(&archive, finish_zip(outer, &central, 1)).unwrap();
    let output = dir.join("out");
    let (result, _) = kifconv(&[s(&archive), "-o", s(&output), "--to", "usi"]);
    assert_exit(&result, 0);
    assert_eq!(std::fs::read(output.join("games/one.usi")).unwrap(), GAME_A);
    assert_eq!(
        std::fs::read(output.join("games/more/deep.usi")).unwrap(),
        GAME_B
    );
    // One level more: the zip holding the outer zip.
    let (local, central) = zip_entry(b"outer.zip", &std::fs::read(&archive).unwrap(), 0);
    let mut fourth = local;
    fourth.extend_from_slice(&std::fs::read(&archive).unwrap());
    let deeper = dir.join("deeper.zip");
    std::fs::write(&deeper, finish_zip(fourth, &central, 1)).unwrap();
    let (result, _) = kifconv(&[s(&deeper), "--to", "usi"]);
    assert_eq!(result.status.code(), Some(1));
    assert_eq!(result.stdout, GAME_A);
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.contains("deeper.zip:outer.zip:games.tar.gz:more.zip: error: an archive nested deeper than 3 levels"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
