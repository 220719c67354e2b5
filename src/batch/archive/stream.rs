//! The producer thread behind the sequential kinds (7z, tar.*): their
//! readers walk an archive with a callback or a borrowing iterator, so they
//! run on a thread of their own and hand entries over a bounded channel.

use std::io::{self, Read, Seek, SeekFrom};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use super::{Entries, EntryError, Item, Source, CHANNEL_BOUND};

/// Where a producer sends its items.
pub struct Sink {
    tx: SyncSender<Item>,
}

impl Sink {
    /// Sends one item; false when nobody is listening any more (the
    /// producer should stop).
    pub fn send(&self, item: Item) -> bool {
        self.tx.send(item).is_ok()
    }
}

/// The archive's source, failing every read once the iterator is dropped,
/// so that a producer busy decompressing stops at its next read.
pub struct Cancellable {
    inner: Box<dyn Source>,
    stop: Arc<AtomicBool>,
}

impl Read for Cancellable {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(io::Error::other("reading stopped"));
        }
        self.inner.read(buf)
    }
}

impl Seek for Cancellable {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Runs `body` on a thread of its own; its items come out of the returned
/// iterator. A panic in `body` (a bug in a decoder) becomes a last error
/// item, never a silently short archive.
pub fn spawn(
    source: Box<dyn Source>,
    what: &'static str,
    body: impl FnOnce(Cancellable, &Sink) + Send + 'static,
) -> Entries {
    let (tx, rx) = sync_channel(CHANNEL_BOUND);
    let stop = Arc::new(AtomicBool::new(false));
    let source = Cancellable {
        inner: source,
        stop: Arc::clone(&stop),
    };
    let spawned = std::thread::Builder::new()
        .name(format!("kifconv {what} reader"))
        .spawn(move || {
            let sink = Sink { tx };
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| body(source, &sink))) {
                let detail = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                sink.send(Err(EntryError::archive(format!(
                    "the {what} reader failed ({detail}); this is a bug, please report it"
                ))));
            }
        });
    match spawned {
        Ok(_) => Box::new(Received { rx, stop }),
        Err(e) => Box::new(std::iter::once(Err(EntryError::archive(format!(
            "cannot start a thread to read the {what} archive: {e}"
        ))))),
    }
}

struct Received {
    rx: Receiver<Item>,
    stop: Arc<AtomicBool>,
}

impl Iterator for Received {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        self.rx.recv().ok()
    }
}

impl Drop for Received {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
