//! What a record says at a node besides its move and time, and the slot a
//! node keeps it in.

use super::Ending;
use std::fmt;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

/// What a record says at a node besides its move and time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Comments after the move (at the root: before the first move).
    pub comments: Vec<String>,
    /// `&` bookmark names.
    pub bookmarks: Vec<String>,
    /// How play ended after this node, if the record says.
    pub ending: Option<Ending>,
}

/// A node's notes, boxed, or none.
///
/// Dropping a tree drops each of its nodes. Most nodes have no notes, so
/// the check for some is made in line, and only the freeing of notes is a
/// call. A plain `Option<Box<Notes>>` would cost a call per node: its drop
/// is too large to inline.
#[derive(Default, PartialEq, Eq)]
pub(super) struct NoteSlot(ManuallyDrop<Option<Box<Notes>>>);

impl Drop for NoteSlot {
    #[inline(always)]
    fn drop(&mut self) {
        if self.0.is_some() {
            free(std::mem::take(&mut *self.0));
        }
    }
}

/// Frees a node's notes, out of line.
#[cold]
#[inline(never)]
fn free(notes: Option<Box<Notes>>) {
    drop(notes);
}

impl Deref for NoteSlot {
    type Target = Option<Box<Notes>>;
    #[inline(always)]
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for NoteSlot {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Clone for NoteSlot {
    fn clone(&self) -> NoteSlot {
        NoteSlot(ManuallyDrop::new(Option::clone(&self.0)))
    }
}

impl fmt::Debug for NoteSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}
