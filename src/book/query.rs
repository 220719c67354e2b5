//! Finding a position's moves in a book, as YaneuraOu's FlippedBook does:
//! the position itself, else its rotation (180°, colours swapped), whose
//! moves are rotated back — so a book that stores black-to-move positions
//! only answers for white too. In a book in memory ([`lookup`]) or by
//! binary search in a sorted book file ([`lookup_file`]), which reads a
//! few lines per probe, never the whole file.

use super::db2016::{self, position_line};
use super::{key, Book, BookMove};
use crate::{Move, Position};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

/// A book's answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Whether the rotated position was the one found.
    pub flipped: bool,
    /// The ply stored with the position found.
    pub ply: u32,
    /// The moves, for the position asked about (rotated back when the
    /// rotation was found), most played first.
    pub moves: Vec<BookMove>,
}

/// The moves rotated back to the position asked about.
fn rotated(moves: Vec<BookMove>) -> Vec<BookMove> {
    let flip = |usi: &str| Move::from_usi(usi).map_or(usi.to_string(), |m| m.flip().to_string());
    moves
        .into_iter()
        .map(|m| BookMove {
            mv: flip(&m.mv),
            ponder: m.ponder.as_deref().map(flip),
            ..m
        })
        .collect()
}

/// The book's moves for `pos` (see the module notes).
pub fn lookup(book: &Book, pos: &Position) -> Option<Answer> {
    if let Some(entry) = book.entries.get(&key(pos)) {
        return Some(Answer {
            flipped: false,
            ply: entry.ply,
            moves: entry.moves.clone(),
        });
    }
    let entry = book.entries.get(&key(&pos.flip()))?;
    Some(Answer {
        flipped: true,
        ply: entry.ply,
        moves: rotated(entry.moves.clone()),
    })
}

/// The book's moves for `pos` from a sorted book file of `len` bytes (as
/// kifconv writes them: positions in byte order of their SFEN).
pub fn lookup_file<R: Read + Seek>(
    file: R,
    len: u64,
    pos: &Position,
) -> std::io::Result<Option<Answer>> {
    let mut reader = BufReader::new(file);
    if let Some((ply, moves)) = find(&mut reader, len, &key(pos))? {
        return Ok(Some(Answer {
            flipped: false,
            ply,
            moves,
        }));
    }
    Ok(
        find(&mut reader, len, &key(&pos.flip()))?.map(|(ply, moves)| Answer {
            flipped: true,
            ply,
            moves: rotated(moves),
        }),
    )
}

/// The first position line starting at or after byte `at`: its start, the
/// key and the ply; `None` at the end of the file.
fn next_position<R: BufRead + Seek>(
    reader: &mut R,
    at: u64,
) -> std::io::Result<Option<(u64, String, u32)>> {
    let mut offset = at;
    let mut line = String::new();
    if at > 0 {
        // Unless `at` starts a line, go to the start of the next one.
        reader.seek(SeekFrom::Start(at - 1))?;
        let mut before = [0u8; 1];
        reader.read_exact(&mut before)?;
        if before[0] != b'\n' {
            let mut skipped = Vec::new();
            offset += reader.read_until(b'\n', &mut skipped)? as u64;
        }
    } else {
        reader.seek(SeekFrom::Start(0))?;
    }
    loop {
        line.clear();
        let n = read_line(reader, &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        if let Some((key, ply)) = position_line(line.trim_end()) {
            return Ok(Some((offset, key.to_string(), ply)));
        }
        offset += n as u64;
    }
}

/// A line as text (bytes that are not UTF-8 replaced); its length in bytes.
fn read_line<R: BufRead>(reader: &mut R, line: &mut String) -> std::io::Result<usize> {
    let mut bytes = Vec::new();
    let n = reader.read_until(b'\n', &mut bytes)?;
    line.push_str(&String::from_utf8_lossy(&bytes));
    Ok(n)
}

/// Binary search for the entry of `target`: its ply and moves.
fn find<R: BufRead + Seek>(
    reader: &mut R,
    len: u64,
    target: &str,
) -> std::io::Result<Option<(u32, Vec<BookMove>)>> {
    // Every position line starting before `lo` has a smaller key; every one
    // starting at or after `hi` has a key at least the target's.
    let (mut lo, mut hi) = (0u64, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match next_position(reader, mid)? {
            Some((start, key, _)) if key.as_str() < target => lo = start + 1,
            _ => hi = mid,
        }
    }
    let Some((start, key, ply)) = next_position(reader, lo)? else {
        return Ok(None);
    };
    if key != target {
        return Ok(None);
    }
    // The moves: the lines after the position line, up to the next one.
    reader.seek(SeekFrom::Start(start))?;
    let mut text = String::new();
    read_line(reader, &mut text)?;
    let mut line = String::new();
    loop {
        line.clear();
        if read_line(reader, &mut line)? == 0 || position_line(line.trim_end()).is_some() {
            break;
        }
        text.push_str(&line);
    }
    let book = db2016::read(&text)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()))?;
    Ok(book.entries.into_values().next().map(|e| (ply, e.moves)))
}

#[cfg(test)]
mod tests {
    use super::super::build::{Builder, Options};
    use super::*;
    use crate::read::{read_text, Format};
    use std::io::Cursor;

    /// The position after 7g7f (white to move) is found through its
    /// rotation in a flip-folded book, with white's moves rotated back; the
    /// file search agrees with the search in memory for every position of
    /// the book and for positions not in it.
    #[test]
    fn flipped_lookups_in_memory_and_in_a_file() {
        let games = read_text(
            "position startpos moves 7g7f 3c3d 2g2f 8c8d\nposition startpos moves 7g7f 8c8d 2g2f\nposition startpos moves 2g2f 3c3d\n",
            Format::Usi,
        )
        .unwrap();
        let mut builder = Builder::new(Options {
            flip_fold: true,
            ..Options::default()
        });
        for g in &games {
            builder.add(g).unwrap();
        }
        let book = builder.finish(1).unwrap();
        let text = db2016::write(&book);
        let file = |pos: &Position| {
            lookup_file(Cursor::new(text.as_bytes()), text.len() as u64, pos).unwrap()
        };
        let mut after = Position::startpos();
        after.play_usi_line("7g7f").unwrap();
        let answer = lookup(&book, &after).unwrap();
        assert!(answer.flipped);
        let moves: Vec<(&str, u64)> = answer
            .moves
            .iter()
            .map(|m| (m.mv.as_str(), m.count))
            .collect();
        // Stored as 2g2f and 7g7f (a tie, in text order), rotated back.
        assert_eq!(moves, [("8c8d", 1), ("3c3d", 1)]);
        assert_eq!(file(&after), Some(answer));
        for key in book.entries.keys() {
            let pos = Position::from_sfen(&format!("{key} 1")).unwrap();
            assert_eq!(file(&pos), lookup(&book, &pos), "{key}");
            assert_eq!(file(&pos.flip()), lookup(&book, &pos.flip()), "{key}");
        }
        let mut absent = Position::startpos();
        absent.play_usi_line("5g5f").unwrap();
        assert_eq!(lookup(&book, &absent), None);
        assert_eq!(file(&absent), None);
    }
}
