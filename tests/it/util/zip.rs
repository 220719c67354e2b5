//! Zip archives: hand-made ones (stored entries, names as raw bytes, so
//! that Shift_JIS names and broken layouts can be written) and the bench
//! archives read whole.

use std::io::Read;
use std::path::Path;

/// What an entry's local header and central entry say: its name (raw
/// bytes, no UTF-8 flag, no times), how it is packed (0 stored, 8
/// deflate), its CRC-32 and both sizes.
#[derive(Clone, Copy)]
pub struct Header<'a> {
    pub name: &'a [u8],
    pub method: u16,
    pub crc: u32,
    pub compressed: u32,
    pub size: u32,
}

impl Header<'_> {
    /// The local header (the entry's data follows it).
    pub fn local(&self) -> Vec<u8> {
        let mut local = Vec::new();
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&[20, 0, 0, 0]);
        local.extend_from_slice(&self.method.to_le_bytes());
        local.extend_from_slice(&[0, 0, 0, 0]);
        local.extend_from_slice(&self.sizes());
        local.extend_from_slice(&0u16.to_le_bytes());
        local.extend_from_slice(self.name);
        local
    }

    /// The central entry, for a local header at `offset`.
    pub fn central(&self, offset: u32) -> Vec<u8> {
        let mut central = Vec::new();
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&[20, 0, 20, 0, 0, 0]);
        central.extend_from_slice(&self.method.to_le_bytes());
        central.extend_from_slice(&[0, 0, 0, 0]);
        central.extend_from_slice(&self.sizes());
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(self.name);
        central
    }

    /// The CRC-32, both sizes and the name's length, as both records
    /// have them.
    fn sizes(&self) -> Vec<u8> {
        let mut out = self.crc.to_le_bytes().to_vec();
        out.extend_from_slice(&self.compressed.to_le_bytes());
        out.extend_from_slice(&self.size.to_le_bytes());
        out.extend_from_slice(&(self.name.len() as u16).to_le_bytes());
        out
    }
}

/// The CRC-32 of `data`.
pub fn crc32(data: &[u8]) -> u32 {
    let mut h = flate2::Crc::new();
    h.update(data);
    h.sum()
}

/// A stored entry's local and central headers, for an entry whose local
/// header starts at `offset`.
pub fn entry(name: &[u8], data: &[u8], offset: u32) -> (Vec<u8>, Vec<u8>) {
    let header = Header {
        name,
        method: 0,
        crc: crc32(data),
        compressed: data.len() as u32,
        size: data.len() as u32,
    };
    (header.local(), header.central(offset))
}

/// The archive: the local parts in `out`, then the central directory and
/// its end record, which claims `entries` entries.
pub fn finish(mut out: Vec<u8>, central: &[u8], entries: u16) -> Vec<u8> {
    let start = out.len() as u32;
    out.extend_from_slice(central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&entries.to_le_bytes());
    out.extend_from_slice(&entries.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// A well-formed archive of stored entries, names as given.
pub fn stored(entries: &[(&[u8], &[u8])]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for (name, data) in entries {
        let (local, c) = entry(name, data, out.len() as u32);
        out.extend(local);
        out.extend_from_slice(data);
        central.extend(c);
    }
    finish(out, &central, entries.len() as u16)
}

/// Every entry of an archive, in archive order: its name (raw bytes read
/// as UTF-8, lossily) and its bytes.
pub fn read_all(path: &Path) -> Vec<(String, Vec<u8>)> {
    let file = std::fs::File::open(path).unwrap();
    let mut archive = ::zip::ZipArchive::new(file).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut entry = archive.by_index(i).unwrap();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            (
                String::from_utf8_lossy(entry.name_raw()).into_owned(),
                bytes,
            )
        })
        .collect()
}

#[test]
fn a_stored_archive_reads_back_with_the_zip_crate() {
    let dir = super::bin::scratch("zip");
    let path = dir.join("two.zip");
    let sjis = encoding_rs::SHIFT_JIS.encode("棋譜.kif").0.into_owned();
    std::fs::write(&path, stored(&[(b"a.usi", b"abc"), (&sjis, b"")])).unwrap();
    let entries = read_all(&path);
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0], ("a.usi".to_string(), b"abc".to_vec()));
    assert_eq!(entries[1].1, b"");
    std::fs::remove_dir_all(&dir).unwrap();
}
