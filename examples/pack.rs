//! Packs a folder's files into the archive kinds kifconv reads, for the
//! archive benchmarks (scripts/bench-archives.sh), with the dev-dependency
//! encoders only, so nothing needs installing:
//!
//! ```text
//! cargo run --release --example pack -- SOURCE_DIR OUT_PREFIX [7Z_LEVEL]
//! ```
//!
//! writes `OUT_PREFIX.7z` (solid LZMA2; level 9 by default, 7-Zip's ultra
//! preset: a 64 MiB dictionary, as a yearly Floodgate archive may have), `OUT_PREFIX.tar.xz`
//! (preset 6) and `OUT_PREFIX.tar.zst` (ruzstd's fastest level, the one it
//! has), the files in name order, and prints each size and packing time.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use sevenz_rust2::encoder_options::Lzma2Options;
use sevenz_rust2::{ArchiveEntry, ArchiveWriter, SourceReader};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (source, prefix, level) = match args.as_slice() {
        [source, prefix] => (source, prefix, 9),
        [source, prefix, level] if level.parse::<u32>().is_ok_and(|l| l <= 9) => {
            (source, prefix, level.parse().unwrap())
        }
        _ => {
            eprintln!("usage: pack SOURCE_DIR OUT_PREFIX [7Z_LEVEL (0-9)]");
            std::process::exit(2);
        }
    };
    let source = Path::new(source);
    let mut files = Vec::new();
    walk(source, &mut files);
    files.sort();
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.strip_prefix(source)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    let bytes: u64 = files.iter().map(|f| f.metadata().unwrap().len()).sum();
    println!("{} files, {bytes} bytes", files.len());

    let out = |ext: &str| PathBuf::from(format!("{prefix}.{ext}"));
    timed(&out("7z"), || sevenz(&files, &names, &out("7z"), level));
    let tar = tar(&files, &names);
    timed(&out("tar.xz"), || {
        let mut w = lzma_rust2::XzWriter::new(
            BufWriter::new(File::create(out("tar.xz")).unwrap()),
            lzma_rust2::XzOptions::with_preset(6),
        )
        .unwrap();
        w.write_all(&tar).unwrap();
        w.finish().unwrap().flush().unwrap();
    });
    timed(&out("tar.zst"), || {
        let packed = ruzstd::encoding::compress_to_vec(
            &tar[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        fs::write(out("tar.zst"), packed).unwrap();
    });
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

fn timed(path: &Path, pack: impl FnOnce()) {
    let start = Instant::now();
    pack();
    println!(
        "{}: {} bytes in {:.1} s",
        path.display(),
        fs::metadata(path).unwrap().len(),
        start.elapsed().as_secs_f64()
    );
}

fn sevenz(files: &[PathBuf], names: &[String], out: &Path, level: u32) {
    let mut writer = ArchiveWriter::create(out).unwrap();
    writer.set_content_methods(vec![Lzma2Options::from_level(level).into()]);
    let entries = names.iter().map(|n| ArchiveEntry::new_file(n)).collect();
    let readers = files
        .iter()
        .map(|f| SourceReader::new(File::open(f).unwrap()))
        .collect();
    writer.push_archive_entries(entries, readers).unwrap();
    writer.finish().unwrap();
}

fn tar(files: &[PathBuf], names: &[String]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (file, name) in files.iter().zip(names) {
        let data = fs::read(file).unwrap();
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        builder.append_data(&mut header, name, &data[..]).unwrap();
    }
    builder.into_inner().unwrap()
}
