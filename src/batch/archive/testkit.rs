//! Archives built in memory for the tests: a zip writer of our own (stored
//! and deflate, any name bytes, sizes and CRCs that may lie, ZIP64), and the
//! encoders of the dev-dependencies for tar.* and 7z.

use std::io::{Cursor, Read, Write};

use super::{entries, EntryName, Item, Kind, Limits};

/// Everything read from an archive, simplified for assertions: a file as
/// (name, bytes), a failure as (the entry's name if any, message).
pub type Got = Result<(String, Vec<u8>), (Option<String>, String)>;

pub fn read_all(archive: Vec<u8>, kind: Kind, limits: Limits) -> Vec<Got> {
    entries(Box::new(Cursor::new(archive)), kind, limits)
        .map(simplify)
        .collect()
}

pub fn simplify(item: Item) -> Got {
    item.map(|(name, data)| (name.name, data))
        .map_err(|e| (e.entry.map(|n: EntryName| n.name), e.message))
}

/// What reading `files` gives when every one is read whole: each as (name,
/// bytes), in order.
pub fn all_read(files: &[(&str, Vec<u8>)]) -> Vec<Got> {
    files
        .iter()
        .map(|(name, data)| Ok((name.to_string(), data.clone())))
        .collect()
}

/// The error of an item that must be one (a file's bytes are not printed:
/// they can be long).
pub fn error(got: &Got) -> (Option<String>, String) {
    match got {
        Err(e) => e.clone(),
        Ok((name, data)) => panic!("expected an error, got {name:?} ({} bytes)", data.len()),
    }
}

pub const GENEROUS: Limits = Limits {
    max_entry: 1 << 30,
    max_total: 1 << 32,
};

/// A few entries of every kind of name and size, as the round trips use.
pub fn sample() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("a.kif", b"# KIF\n".to_vec()),
        ("sub/dir/b.csa", b"V2.2\nPI\n+\n+7776FU\n".to_vec()),
        ("棋譜/対局.ki2", "▲７六歩 △３四歩\n".as_bytes().to_vec()),
        ("empty.usi", Vec::new()),
        (
            "big.csa",
            (0..200_000u32).map(|i| (i % 251) as u8).collect(),
        ),
    ]
}

/// One zip entry to write.
#[derive(Clone)]
pub struct ZipEntry {
    pub name: Vec<u8>,
    pub data: Vec<u8>,
    pub deflate: bool,
    pub utf8_flag: bool,
    /// Written instead of the true size, in both headers.
    pub declared_size: Option<u32>,
    /// Written instead of the true CRC-32.
    pub crc: Option<u32>,
    pub method: Option<u16>,
    pub flags: u16,
    /// External attributes and the host byte of "version made by".
    pub external: u32,
    pub host: u8,
    /// Extra fields of the central header.
    pub central_extra: Vec<u8>,
    /// Extra bytes in the local header only.
    pub local_extra_len: u16,
}

impl ZipEntry {
    pub fn new(name: impl AsRef<[u8]>, data: impl AsRef<[u8]>) -> ZipEntry {
        ZipEntry {
            name: name.as_ref().to_vec(),
            data: data.as_ref().to_vec(),
            deflate: true,
            utf8_flag: false,
            declared_size: None,
            crc: None,
            method: None,
            flags: 0,
            external: 0,
            host: 0,
            central_extra: Vec::new(),
            local_extra_len: 0,
        }
    }
}

pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(data);
    crc.sum()
}

pub fn deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// A zip of these entries, with an archive comment; `zip64` writes every
/// size and offset in ZIP64 extra fields and the ZIP64 end records.
pub fn zip(entries: &[ZipEntry], comment: &[u8], zip64: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let packed = if e.deflate {
            deflate(&e.data)
        } else {
            e.data.clone()
        };
        let method = e.method.unwrap_or(if e.deflate { 8 } else { 0 });
        let flags = e.flags | if e.utf8_flag { 1 << 11 } else { 0 };
        let crc = e.crc.unwrap_or_else(|| crc32(&e.data));
        let size = e.declared_size.map_or(e.data.len() as u64, u64::from);
        let offset = out.len() as u64;
        let (size32, packed32, offset32) = if zip64 {
            (u32::MAX, u32::MAX, u32::MAX)
        } else {
            (size as u32, packed.len() as u32, offset as u32)
        };
        let mut local_extra = Vec::new();
        if zip64 {
            local_extra.extend(1u16.to_le_bytes());
            local_extra.extend(16u16.to_le_bytes());
            local_extra.extend(size.to_le_bytes());
            local_extra.extend((packed.len() as u64).to_le_bytes());
        }
        local_extra.resize(local_extra.len() + e.local_extra_len as usize, 0);
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(45u16.to_le_bytes());
        out.extend(flags.to_le_bytes());
        out.extend(method.to_le_bytes());
        out.extend([0; 4]); // time, date
        out.extend(crc.to_le_bytes());
        out.extend(packed32.to_le_bytes());
        out.extend(size32.to_le_bytes());
        out.extend((e.name.len() as u16).to_le_bytes());
        out.extend((local_extra.len() as u16).to_le_bytes());
        out.extend(&e.name);
        out.extend(&local_extra);
        out.extend(&packed);

        let mut extra = e.central_extra.clone();
        if zip64 {
            extra.extend(1u16.to_le_bytes());
            extra.extend(24u16.to_le_bytes());
            extra.extend(size.to_le_bytes());
            extra.extend((packed.len() as u64).to_le_bytes());
            extra.extend(offset.to_le_bytes());
        }
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend([45, e.host]);
        central.extend(45u16.to_le_bytes());
        central.extend(flags.to_le_bytes());
        central.extend(method.to_le_bytes());
        central.extend([0; 4]);
        central.extend(crc.to_le_bytes());
        central.extend(packed32.to_le_bytes());
        central.extend(size32.to_le_bytes());
        central.extend((e.name.len() as u16).to_le_bytes());
        central.extend((extra.len() as u16).to_le_bytes());
        central.extend(0u16.to_le_bytes()); // comment
        central.extend(0u16.to_le_bytes()); // disk
        central.extend(0u16.to_le_bytes()); // internal attributes
        central.extend(e.external.to_le_bytes());
        central.extend(offset32.to_le_bytes());
        central.extend(&e.name);
        central.extend(&extra);
    }
    finish_zip(out, &central, entries.len() as u64, comment, zip64)
}

/// Appends the central directory and the end records.
pub fn finish_zip(
    mut out: Vec<u8>,
    central: &[u8],
    count: u64,
    comment: &[u8],
    zip64: bool,
) -> Vec<u8> {
    let cd_offset = out.len() as u64;
    out.extend(central);
    if zip64 {
        let z64_pos = out.len() as u64;
        out.extend(0x0606_4b50u32.to_le_bytes());
        out.extend(44u64.to_le_bytes());
        out.extend([45, 0, 45, 0]);
        out.extend([0; 8]); // disks
        out.extend(count.to_le_bytes());
        out.extend(count.to_le_bytes());
        out.extend((central.len() as u64).to_le_bytes());
        out.extend(cd_offset.to_le_bytes());
        out.extend(0x0706_4b50u32.to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend(z64_pos.to_le_bytes());
        out.extend(1u32.to_le_bytes());
    }
    let small = |v: u64, max: u64| if zip64 { max } else { v.min(max) };
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0; 4]);
    out.extend((small(count, 0xffff) as u16).to_le_bytes());
    out.extend((small(count, 0xffff) as u16).to_le_bytes());
    out.extend((small(central.len() as u64, u32::MAX as u64) as u32).to_le_bytes());
    out.extend((small(cd_offset, u32::MAX as u64) as u32).to_le_bytes());
    out.extend((comment.len() as u16).to_le_bytes());
    out.extend(comment);
    out
}

/// One tar entry to write: a name as bytes, and its type.
pub enum TarEntry<'a> {
    File(&'a [u8], &'a [u8]),
    Dir(&'a str),
    Symlink(&'a str, &'a str),
    HardLink(&'a str, &'a str),
    /// A file whose path is given in a PAX extended header.
    Pax(&'a str, &'a [u8]),
}

pub fn tar(entries: &[TarEntry]) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    let mut builder = ::tar::Builder::new(Vec::new());
    for entry in entries {
        let mut header = ::tar::Header::new_gnu();
        header.set_mode(0o644);
        match entry {
            TarEntry::File(name, data) => {
                header.set_size(data.len() as u64);
                let path = std::ffi::OsStr::from_bytes(name);
                builder.append_data(&mut header, path, *data).unwrap();
            }
            TarEntry::Dir(name) => {
                header.set_entry_type(::tar::EntryType::Directory);
                header.set_size(0);
                builder.append_data(&mut header, name, &[][..]).unwrap();
            }
            TarEntry::Symlink(name, target) | TarEntry::HardLink(name, target) => {
                let kind = if matches!(entry, TarEntry::Symlink(..)) {
                    ::tar::EntryType::Symlink
                } else {
                    ::tar::EntryType::Link
                };
                header.set_entry_type(kind);
                header.set_size(0);
                builder.append_link(&mut header, name, target).unwrap();
            }
            TarEntry::Pax(path, data) => {
                let record = pax_record("path", path);
                let mut pax = ::tar::Header::new_ustar();
                pax.set_entry_type(::tar::EntryType::XHeader);
                pax.set_size(record.len() as u64);
                pax.set_path("PaxHeaders/x").unwrap();
                pax.set_cksum();
                builder.append(&pax, &record[..]).unwrap();
                header.set_size(data.len() as u64);
                builder.append_data(&mut header, "short", *data).unwrap();
            }
        }
    }
    builder.into_inner().unwrap()
}

/// `"<length> key=value\n"`, the length counting itself.
fn pax_record(key: &str, value: &str) -> Vec<u8> {
    let body = format!(" {key}={value}\n");
    let mut len = body.len() + 1;
    while format!("{len}").len() + body.len() != len {
        len += 1;
    }
    format!("{len}{body}").into_bytes()
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

pub fn xz(data: &[u8]) -> Vec<u8> {
    let mut writer =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6)).unwrap();
    writer.write_all(data).unwrap();
    writer.finish().unwrap()
}

pub fn zstd(data: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

/// A tar of these files, compressed as `kind` says.
pub fn tar_of(kind: Kind, files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let entries: Vec<TarEntry> = files
        .iter()
        .map(|(name, data)| TarEntry::File(name.as_bytes(), data))
        .collect();
    compress(kind, tar(&entries))
}

pub fn compress(kind: Kind, tar: Vec<u8>) -> Vec<u8> {
    match kind {
        Kind::Tar => tar,
        Kind::TarGz => gzip(&tar),
        Kind::TarXz => xz(&tar),
        Kind::TarZst => zstd(&tar),
        Kind::Zip | Kind::SevenZ => unreachable!("not a tar kind"),
    }
}

/// The 7z compressions the tests use.
#[derive(Clone, Copy)]
pub enum Method {
    Lzma,
    Lzma2,
}

/// A 7z of these files, solid (one block) or one block per file.
pub fn sevenz(files: &[(&str, Vec<u8>)], method: Method, solid: bool) -> Vec<u8> {
    use sevenz_rust2::encoder_options::{Lzma2Options, LzmaOptions};
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter, EncoderConfiguration, SourceReader};
    let mut writer = ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
    let config: EncoderConfiguration = match method {
        Method::Lzma => LzmaOptions::from_level(6).into(),
        Method::Lzma2 => Lzma2Options::from_level(6).into(),
    };
    writer.set_content_methods(vec![config]);
    let (dirs, files): (Vec<_>, Vec<_>) = files.iter().partition(|(name, _)| name.ends_with('/'));
    for (dir, _) in dirs {
        writer
            .push_archive_entry::<&[u8]>(
                ArchiveEntry::new_directory(dir.trim_end_matches('/')),
                None,
            )
            .unwrap();
    }
    if solid {
        let entries = files
            .iter()
            .map(|(n, _)| ArchiveEntry::new_file(n))
            .collect();
        let readers = files
            .iter()
            .map(|(_, d)| SourceReader::new(&d[..]))
            .collect();
        writer.push_archive_entries(entries, readers).unwrap();
    } else {
        for (name, data) in files {
            writer
                .push_archive_entry(ArchiveEntry::new_file(name), Some(&data[..]))
                .unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

/// A small deterministic generator (xorshift64*), for the mutation tests.
pub use crate::test_util::rng::Rng;

/// Reads everything from a reader (for the tests of the decoders alone).
pub fn drain(mut r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    r.read_to_end(&mut out)?;
    Ok(out)
}
