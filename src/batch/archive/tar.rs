//! tar, plain or compressed (gzip, xz, zstd), through the tar crate (GNU
//! long names, PAX paths) over a streaming decompressor, on a producer
//! thread: the tar crate's entries borrow its archive.
//!
//! A tar stream only goes forward: an entry skipped for its size is still
//! decompressed (and counted in the total); an error in the stream ends the
//! archive. Once the tar ends, the rest of the compressed stream is read so
//! that its final checksum is checked.

use std::io::{self, BufRead, BufReader, Read};

use ::tar::EntryType;
use flate2::bufread::MultiGzDecoder;
use lzma_rust2::XzReader;
use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

use super::stream::{self, Cancellable, Sink};
use super::{
    read_bounded, too_large, total_passed, Entries, EntryError, EntryName, Kind, Limits, Source,
    DICTIONARY_LIMIT,
};

pub fn entries(source: Box<dyn Source>, kind: Kind, limits: Limits) -> Entries {
    let what = match kind {
        Kind::TarGz => "tar.gz",
        Kind::TarXz => "tar.xz",
        Kind::TarZst => "tar.zst",
        _ => "tar",
    };
    stream::spawn(source, what, move |source, sink| {
        read(decompressed(source, kind), limits, what, sink)
    })
}

/// The tar stream inside the compressed one.
fn decompressed(source: Cancellable, kind: Kind) -> Box<dyn Read> {
    let buffered = BufReader::with_capacity(64 << 10, source);
    match kind {
        Kind::TarGz => Box::new(MultiGzDecoder::new(buffered)),
        Kind::TarXz => Box::new(XzReader::new_mem_limit(
            buffered,
            true,
            (DICTIONARY_LIMIT / 1024) as u32,
        )),
        Kind::TarZst => Box::new(ZstdFrames::new(buffered)),
        _ => Box::new(buffered),
    }
}

fn read(stream: Box<dyn Read>, limits: Limits, what: &str, sink: &Sink) {
    let corrupt = |e: io::Error| format!("corrupt {what} archive: {e}");
    let mut archive = ::tar::Archive::new(stream);
    let mut total: u64 = 0;
    let entries = match archive.entries() {
        Ok(entries) => entries,
        Err(e) => {
            sink.send(Err(EntryError::archive(corrupt(e))));
            return;
        }
    };
    for entry in entries {
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                sink.send(Err(EntryError::archive(corrupt(e))));
                return;
            }
        };
        let size = entry.size();
        total = total.saturating_add(size);
        if total > limits.max_total {
            sink.send(Err(EntryError::archive(total_passed(limits.max_total))));
            return;
        }
        if !matches!(
            entry.header().entry_type(),
            EntryType::Regular | EntryType::Continuous | EntryType::GNUSparse
        ) {
            continue;
        }
        let name = EntryName::decode(&entry.path_bytes(), false);
        let refused = if name.relative.as_os_str().is_empty() {
            Some("the name has no usable path component".to_string())
        } else if size > limits.max_entry {
            Some(too_large(size, limits.max_entry))
        } else {
            None
        };
        let item = match refused {
            Some(message) => Err(EntryError::entry(&name, message)),
            None => match read_bounded(&mut entry, size, limits.max_entry) {
                Ok(data) if data.len() as u64 == size => Ok((name, data)),
                // The tar crate ends a cut entry early, silently.
                Ok(data) => {
                    sink.send(Err(EntryError::entry(
                        &name,
                        format!(
                            "corrupt {what} archive: the stream ends {} bytes into this \
                             entry of {size}",
                            data.len()
                        ),
                    )));
                    return;
                }
                Err(e) => {
                    sink.send(Err(EntryError::entry(
                        &name,
                        format!("{}; the rest of the archive is not read", corrupt(e)),
                    )));
                    return;
                }
            },
        };
        if !sink.send(item) {
            return;
        }
    }
    // Past the end-of-archive blocks: the padding, then the compressed
    // stream's checksum. Bounded by what is left of the total.
    let mut rest = archive
        .into_inner()
        .take(limits.max_total.saturating_sub(total).saturating_add(1));
    match io::copy(&mut rest, &mut io::sink()) {
        Ok(n) if n > limits.max_total.saturating_sub(total) => {
            sink.send(Err(EntryError::archive(total_passed(limits.max_total))));
        }
        Ok(_) => {}
        Err(e) => {
            sink.send(Err(EntryError::archive(corrupt(e))));
        }
    }
}

/// A zstd stream of one or more frames (skippable frames skipped), each
/// checked against its content checksum when it has one.
struct ZstdFrames<R: BufRead> {
    source: R,
    decoder: FrameDecoder,
    /// A frame is being decoded.
    in_frame: bool,
    /// Frames started so far: a stream with none is not zstd.
    frames: u64,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(source: R) -> Self {
        let mut decoder = FrameDecoder::new();
        decoder.set_max_window_size(DICTIONARY_LIMIT);
        ZstdFrames {
            source,
            decoder,
            in_frame: false,
            frames: 0,
        }
    }

    /// Starts the next frame; false at the end of the stream.
    fn next_frame(&mut self) -> io::Result<bool> {
        loop {
            if self.source.fill_buf()?.is_empty() {
                if self.frames == 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "zstd: an empty stream, not a single frame",
                    ));
                }
                return Ok(false);
            }
            match self.decoder.init(&mut self.source) {
                Ok(()) => {
                    self.frames += 1;
                    return Ok(true);
                }
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let skipped =
                        io::copy(&mut (&mut self.source).take(length.into()), &mut io::sink())?;
                    if skipped < u64::from(length) {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "zstd: truncated skippable frame",
                        ));
                    }
                }
                Err(e) => return Err(io::Error::other(format!("zstd: {e}"))),
            }
        }
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.in_frame {
                if !self.next_frame()? {
                    return Ok(0);
                }
                self.in_frame = true;
            }
            while self.decoder.can_collect() == 0 && !self.decoder.is_finished() {
                self.decoder
                    .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                    .map_err(|e| io::Error::other(format!("zstd: {e}")))?;
            }
            let n = self.decoder.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            // The frame is done and drained.
            if let (Some(stored), Some(computed)) = (
                self.decoder.get_checksum_from_data(),
                self.decoder.get_calculated_checksum(),
            ) {
                if stored != computed {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "zstd: content checksum mismatch",
                    ));
                }
            }
            self.in_frame = false;
        }
    }
}

#[cfg(test)]
mod tests;
