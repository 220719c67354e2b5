//! A line of play in JKF: the entries of `moves` (or of a fork), each with
//! a move, a `special`, comments and a time, and the forks hanging on
//! them, played through the game builder.

use super::json::{compact, Node, Path, Value};
use super::moves::reason;
use super::reader::Reader;
use crate::error::{Error, Stage};
use crate::format::csa::specials;
use crate::format::lines::split_at_endings;
use crate::record::builder::{is_foul, Builder};
use crate::record::{Ending, EndingKind, MoveTime, NodeId};
use crate::Position;

const ENTRY_KEYS: [&str; 6] = ["move", "special", "comments", "comment", "time", "forks"];
const TIME_KEYS: [&str; 2] = ["now", "total"];
const CLOCK_KEYS: [&str; 3] = ["h", "m", "s"];

/// A fork to read once its line is done: the entry it hangs on, the node
/// and position before that entry.
struct PendingFork<'n, 't> {
    entry: usize,
    parent: NodeId,
    pos: Position,
    forks: &'n Node<'t>,
}

/// Gives each comment line to the builder: to the node it stands at, or
/// to its ending once the line has ended.
fn place(game: &mut Builder, notes: &mut Vec<String>) {
    for note in notes.drain(..) {
        game.comment(note);
    }
}

impl<'t> Reader<'_, 't> {
    /// Reads one line of play, `entries`, from where the builder stands.
    /// Forks are read after the line, so that the line's own moves come
    /// first among their siblings. `top` is the record's own `moves`, whose
    /// first entry holds the comments before the first move.
    pub(super) fn line(
        &mut self,
        game: &mut Builder,
        entries: &'_ [Node<'t>],
        path: Path<'_>,
        top: bool,
    ) -> Result<(), Error> {
        // The entry whose `special` (or illegal move) ended the line.
        let mut ended: Option<usize> = None;
        // Set when an illegal last move ended the line: the next `special`
        // names that foul.
        let mut foul_open = false;
        let mut pending: Vec<PendingFork<'_, 't>> = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let entry_path = Path::Index(&path, i);
            let [mv, special, comments, comment, time, forks] =
                self.fields(entry, entry_path, ENTRY_KEYS)?;
            let mut notes = self.comments(comments, comment, entry_path);
            let time_path = Path::Key(&entry_path, "time");
            let time = time.map(|t| self.time(t, time_path)).transpose()?.flatten();
            if let Some(forks) = forks {
                pending.push(PendingFork {
                    entry: i,
                    parent: game.current(),
                    pos: game.position().clone(),
                    forks,
                });
            }
            if top && i == 0 {
                if mv.is_none() && special.is_none() {
                    place(game, &mut notes);
                    if time.is_some() {
                        self.warn(
                            entry,
                            format!("{entry_path}: a time before the first move; ignored"),
                        );
                    }
                    continue;
                }
                self.warn(
                    entry,
                    format!("{entry_path}: the first entry normally holds only the comments before the first move; its move or special is read as usual"),
                );
            }
            if let Some(mv_node) = mv {
                let move_path = Path::Key(&entry_path, "move");
                let ply = game.tree().node(game.current()).ply + 1;
                if let Some(end) = ended {
                    return Err(self
                        .source
                        .error(
                            Stage::Resolve,
                            mv_node.start,
                            mv_node.end,
                            format!(
                                "{move_path}: a move after the end of the line at {}[{end}]",
                                path
                            ),
                        )
                        .with_ply(ply));
                }
                let read = self.read_move(game, mv_node, move_path)?;
                match &read.resolved {
                    Ok(m) => {
                        self.check_claims(game, &read, *m, move_path);
                        game.play(*m, time);
                        place(game, &mut notes);
                    }
                    Err(e)
                        if is_foul(e)
                            && !entries[i + 1..].iter().any(|later| has_key(later, "move")) =>
                    {
                        let text = compact(self.source, mv_node);
                        let by = game.foul(text, reason(e), read.foul_move(e), time);
                        self.warn(
                            mv_node,
                            format!("{move_path}: move {ply} is illegal ({}); the game is recorded as lost by {by}'s foul", reason(e)),
                        );
                        place(game, &mut notes);
                        ended = Some(i);
                        foul_open = true;
                    }
                    Err(e) => return Err(self.move_error(&read, e, mv_node, move_path, ply)),
                }
            }
            if let Some(special_node) = special {
                let special_path = Path::Key(&entry_path, "special");
                let Some(word) = special_node.as_str() else {
                    return Err(self.wrong_kind(
                        special_node,
                        special_path,
                        "a word such as \"TORYO\"",
                    ));
                };
                if mv.is_some() && !foul_open {
                    self.warn(
                        special_node,
                        format!("{entry_path}: `move` and `special` in one entry; read as the move, then the special"),
                    );
                }
                let to_move = game.position().side_to_move();
                match game.ending_mut() {
                    Some(ending) if foul_open && ending.foul.is_some() => {
                        // The special that names the foul just recorded.
                        ending.text.push(' ');
                        ending.text.push_str(word);
                        foul_open = false;
                    }
                    Some(_) => self.warn(
                        special_node,
                        format!("{special_path}: a second terminal word for the same line; kept the first"),
                    ),
                    None => {
                        let (kind, winner) = specials::ending(word, to_move).unwrap_or_else(|| {
                            let message = format!("{special_path}: unknown special `{word}`, kept as text");
                            self.warn(special_node, message);
                            (EndingKind::Other, None)
                        });
                        game.end(Ending {
                            kind,
                            winner,
                            text: word.to_string(),
                            time: if mv.is_some() { None } else { time },
                            comments: Vec::new(),
                            foul: None,
                        });
                    }
                }
                // The comments of the entry go with the ending.
                game.line_ended();
                place(game, &mut notes);
                ended = Some(ended.unwrap_or(i));
            }
            if mv.is_none() && special.is_none() {
                self.warn(
                    entry,
                    format!("{entry_path}: an entry with neither `move` nor `special`; its comments are kept with the move before"),
                );
            }
            place(game, &mut notes);
        }
        for fork in pending {
            let fork_path = Path::Index(&path, fork.entry);
            let forks_path = Path::Key(&fork_path, "forks");
            let Value::Array(lines) = &fork.forks.value else {
                return Err(self.parse_error(
                    fork.forks,
                    format!("{forks_path}: expected an array of lines (arrays of entries)"),
                ));
            };
            for (j, line) in lines.iter().enumerate() {
                let line_path = Path::Index(&forks_path, j);
                let Value::Array(fork_entries) = &line.value else {
                    return Err(self.wrong_kind(line, line_path, "an array of entries"));
                };
                let tree = game.tree();
                let line_ended_here = tree.children(fork.parent).next().is_none()
                    && tree.node(fork.parent).ending().is_some();
                if line_ended_here && fork_entries.iter().any(|e| has_key(e, "move")) {
                    self.warn(
                        line,
                        format!("{line_path}: a variation of an entry where its line ended; the move tree cannot hold it, dropped"),
                    );
                    continue;
                }
                game.branch(fork.parent, fork.pos.clone());
                self.line(game, fork_entries, line_path, false)?;
            }
        }
        Ok(())
    }

    /// Comment lines from `comments` (an array of strings, or one string)
    /// and `comment` (one string).
    fn comments(
        &mut self,
        comments: Option<&Node<'t>>,
        comment: Option<&Node<'t>>,
        path: Path<'_>,
    ) -> Vec<String> {
        let mut lines = Vec::new();
        for (node, name) in [(comments, "comments"), (comment, "comment")] {
            let Some(node) = node else { continue };
            let items = match &node.value {
                Value::String(_) => std::slice::from_ref(node),
                Value::Array(items) => items.as_slice(),
                _ => {
                    let found = node.what();
                    let message = format!(
                        "{path}.{name}: expected an array of strings, found {found}; ignored"
                    );
                    self.warn(node, message);
                    continue;
                }
            };
            for (i, item) in items.iter().enumerate() {
                match &item.value {
                    // A comment with line breaks is several lines (an empty one stays).
                    Value::String(s) => lines.extend(split_at_endings(s).map(str::to_string)),
                    _ => self.warn(
                        item,
                        format!(
                            "{path}.{name}[{i}]: a comment is a string, not {}; ignored",
                            item.what()
                        ),
                    ),
                }
            }
        }
        lines
    }

    /// `{"now": {h?, m, s}, "total": {h, m, s}}`. A time that cannot be
    /// read is dropped with a warning: it does not change the game.
    fn time(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Option<MoveTime>, Error> {
        let [now, total] = self.fields(node, path, TIME_KEYS)?;
        let Some(now) = now else {
            self.warn(node, format!("{path}: no `now`; time ignored"));
            return Ok(None);
        };
        let Some(spent_ms) = self.clock(now, Path::Key(&path, "now"))? else {
            return Ok(None);
        };
        let total_path = Path::Key(&path, "total");
        let total_ms = total
            .map(|t| self.clock(t, total_path))
            .transpose()?
            .flatten();
        Ok(Some(MoveTime { spent_ms, total_ms }))
    }

    fn clock(&mut self, node: &Node<'t>, path: Path<'_>) -> Result<Option<u64>, Error> {
        let parts = self.fields(node, path, CLOCK_KEYS)?;
        let mut seconds = 0.0;
        for (part, scale) in parts.into_iter().zip([3600.0, 60.0, 1.0]) {
            let Some(part) = part else { continue };
            match part.as_non_negative() {
                Some(x) => seconds += x * scale,
                None => {
                    self.warn(
                        part,
                        format!("{path}: expected a number that is not negative, found {}; time ignored", compact(self.source, part)),
                    );
                    return Ok(None);
                }
            }
        }
        // `as` saturates: an absurd time stays a number.
        Ok(Some((seconds * 1000.0).round() as u64))
    }
}

/// Whether an entry is an object with this key (not `null`).
fn has_key(entry: &Node<'_>, key: &str) -> bool {
    match &entry.value {
        Value::Object(members) => members
            .iter()
            .any(|m| m.key == key && !matches!(m.value.value, Value::Null)),
        _ => false,
    }
}
