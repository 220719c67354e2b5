//! Building a [`Record`] from a raw game: choose the start, play every move
//! through the resolver, grow the tree of variations, attach comments,
//! times and endings, and turn a final illegal move into a foul.

use super::{resolve, ResolveError};
use crate::error::{Error, Stage};
use crate::parse::raw::{Event, RawGame, Span};
use crate::parse::spec::DropMark;
use crate::record::{Ending, EndingKind, Foul, Header, MoveTree, NodeId, Record, Warning};
use crate::{Color, Handicap, Position, Setup, Square};
use std::collections::HashMap;

/// The start position of a Kakinoki-style game: the diagram if there is
/// one, else the 手合割, else the even game.
fn start_of(raw: &mut RawGame<'_>) -> Result<(Setup, Option<Handicap>), Error> {
    let named = raw.headers.iter().find(|h| h.key == "手合割").cloned();
    if let Some(board) = raw.board.take() {
        let handicap = Handicap::detect(&board);
        return Ok((board, handicap));
    }
    let Some(header) = named else {
        return Ok((Setup::startpos(), Some(Handicap::Even)));
    };
    let value = header
        .value
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
    // `平手#…`: a comment after the name.
    let (name, note) = match value.split_once('#') {
        Some((name, note)) => (name.trim_end(), Some(note)),
        None => (value, None),
    };
    if note.is_some() {
        raw.warnings
            .push(header.span.warning("text after `#` in 手合割 ignored"));
    }
    match Handicap::from_japanese(name) {
        Some(handicap) => Ok((handicap.setup(), Some(handicap))),
        None => Err(Error::at(
            Stage::Parse,
            header.span.line,
            header.span.line_text,
            Span::of(header.span.line, header.span.line_text, header.value).offset,
            header.value,
            format!(
                "手合割 `{name}` is not a standard start and no board diagram follows (expected one of 平手, 香落ち, 右香落ち, 角落ち, 飛車落ち, 飛香落ち, 二枚落ち, 三枚落ち, 四枚落ち, 五枚落ち, 左五枚落ち, 六枚落ち, 左七枚落ち, 右七枚落ち, 八枚落ち, 十枚落ち, or a diagram)"
            ),
        )),
    }
}

/// What a terminal word means, with `to_move` the player to move there.
pub fn ending_for_word(word: &str, to_move: Color) -> (EndingKind, Option<Color>) {
    use EndingKind::*;
    match word {
        "投了" => (Resign, Some(!to_move)),
        "中断" => (Abort, None),
        "千日手" => (Repetition, None),
        "持将棋" => (Impasse, None),
        "詰み" | "詰" => (Checkmate, Some(!to_move)),
        "不詰" => (NoMate, None),
        // 81Dojo writes `Time-up`.
        "切れ負け" | "時間切れ" | "Time-up" => (TimeUp, Some(!to_move)),
        "反則勝ち" => (FoulWin, Some(to_move)),
        "反則負け" => (FoulLoss, Some(!to_move)),
        "入玉勝ち" | "宣言勝ち" => (EnteringKing, Some(to_move)),
        "不戦勝" => (DefaultWin, Some(to_move)),
        "不戦敗" => (DefaultLoss, Some(!to_move)),
        "封じ手" => (Sealed, None),
        "トライ" => (Try, Some(to_move)),
        // CSA special moves, without the `%`.
        "TORYO" => (Resign, Some(!to_move)),
        "CHUDAN" => (Abort, None),
        "SENNICHITE" => (Repetition, None),
        "OUTE_SENNICHITE" => (PerpetualCheck, Some(to_move)),
        "TIME_UP" => (TimeUp, Some(!to_move)),
        "ILLEGAL_MOVE" => (FoulLoss, Some(!to_move)),
        // The sign names who broke the rules, whoever is to move.
        "+ILLEGAL_ACTION" | "-ILLEGAL_ACTION" => {
            let winner = if word.starts_with('+') {
                Color::White
            } else {
                Color::Black
            };
            let kind = if winner == to_move { FoulWin } else { FoulLoss };
            (kind, Some(winner))
        }
        "JISHOGI" => (Impasse, None),
        "KACHI" => (EnteringKing, Some(to_move)),
        "HIKIWAKE" => (Draw, None),
        "MAX_MOVES" => (MaxMoves, None),
        "TSUMI" => (Checkmate, Some(!to_move)),
        "FUZUMI" => (NoMate, None),
        "MATTA" => (Matta, None),
        "ERROR" => (Error, None),
        _ => (Other, None),
    }
}

/// What a `まで77手で先手の勝ち` line says about the end, if anything.
pub fn ending_for_trailer(text: &str, last_mover: Color) -> Option<(EndingKind, Option<Color>)> {
    use EndingKind::*;
    let rest = text.strip_prefix("まで")?;
    // `まで77手で…`, `まで77手にて…`, `まで49手詰`.
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    let rest = rest.strip_prefix('手').unwrap_or(rest);
    let rest = rest
        .strip_prefix("にて")
        .or_else(|| rest.strip_prefix('で'))
        .unwrap_or(rest);
    let named = |rest: &str| -> Option<Color> {
        let who = rest.split('の').next()?;
        match who.trim_end_matches("により").rsplit('り').next()? {
            w if w.ends_with("先手") || w.ends_with("下手") => Some(Color::Black),
            w if w.ends_with("後手") || w.ends_with("上手") => Some(Color::White),
            _ => None,
        }
    };
    let winner_named = named(rest);
    Some(if rest.contains("中断") {
        (Abort, None)
    } else if rest.contains("千日手") {
        (Repetition, None)
    } else if rest.contains("持将棋") {
        (Impasse, None)
    } else if rest.contains("不詰") {
        (NoMate, None)
    } else if rest.contains("封じ手") {
        (Sealed, None)
    } else if rest.contains("反則負け") {
        (FoulLoss, winner_named.map(|loser| !loser))
    } else if rest.contains("反則勝ち") {
        (FoulWin, winner_named)
    } else if rest.contains("時間切れ") || rest.contains("切れ負け") {
        (TimeUp, winner_named)
    } else if rest.contains("入玉勝ち") || rest.contains("宣言勝ち") {
        (EnteringKing, winner_named)
    } else if rest.starts_with('詰') {
        (Checkmate, Some(last_mover))
    } else if rest.contains("の勝ち") {
        (Resign, winner_named)
    } else {
        return None;
    })
}

fn resolve_error(span: &Span<'_>, ply: u32, e: &ResolveError) -> Error {
    Error::at(
        Stage::Resolve,
        span.line,
        span.line_text,
        span.offset,
        span.text,
        e.to_string(),
    )
    .with_ply(ply)
}

/// Whether a move that cannot be resolved is a move against the rules (a
/// foul the game may end with) rather than text that names no one move.
fn is_foul(error: &ResolveError) -> bool {
    match error {
        ResolveError::Illegal { .. } => true,
        // No legal move of that piece reaches the square (or, for a drop,
        // no legal drop: only board moves were there to reject): the move
        // the text names is against the rules. A legal move rejected by
        // another marker or a claim means the text is wrong: an error.
        ResolveError::NoCandidate { rejected, .. } => rejected
            .iter()
            .all(|(_, why)| *why == super::Mismatch::NotADrop),
        _ => false,
    }
}

/// Whether another move follows in the same line of play.
fn more_moves_follow(events: &[Event<'_>]) -> bool {
    for event in events {
        match event {
            Event::Move { .. } => return true,
            Event::Variation { .. } => return false,
            _ => {}
        }
    }
    false
}

/// Where variations branch, found in time that does not grow with the
/// game: the newest node at each ply (a `変化：N手` branches from the
/// newest line that has a move N), and the position every
/// [`Branches::EVERY`] plies along the lines, so that the position at a
/// branch is a few moves away from a snapshot rather than replayed from
/// the start. Nothing is kept until the first variation, so a game without
/// one pays nothing.
#[derive(Default)]
struct Branches {
    active: bool,
    newest_at_ply: Vec<NodeId>,
    snapshots: HashMap<NodeId, Position>,
}

impl Branches {
    const EVERY: u32 = 32;

    /// Notes a node just added, with the position after its move.
    fn added(&mut self, tree: &MoveTree, id: NodeId, pos: &Position) {
        if self.active {
            let ply = tree.node(id).ply;
            self.note(id, ply);
            if ply.is_multiple_of(Self::EVERY) {
                self.snapshots.insert(id, pos.clone());
            }
        }
    }

    fn note(&mut self, id: NodeId, ply: u32) {
        let ply = ply as usize;
        if self.newest_at_ply.len() <= ply {
            self.newest_at_ply.resize(ply + 1, NodeId::ROOT);
        }
        self.newest_at_ply[ply] = id;
    }

    /// The newest node with a move `ply`, if any.
    fn newest(&mut self, tree: &MoveTree, ply: u32) -> Option<NodeId> {
        if !self.active {
            // The first variation: index the tree so far, oldest first.
            self.active = true;
            for id in tree.ids() {
                self.note(id, tree.node(id).ply);
            }
        }
        self.newest_at_ply
            .get(ply as usize)
            .copied()
            .filter(|&id| id != NodeId::ROOT)
    }

    /// The position at `node`: from the nearest snapshot on the way back
    /// to the start, the moves that lead there (snapshotting as it goes).
    fn position_at(&mut self, start: &Position, tree: &MoveTree, node: NodeId) -> Position {
        let mut path = Vec::new();
        let mut at = node;
        let mut pos = loop {
            if let Some(pos) = self.snapshots.get(&at) {
                break pos.clone();
            }
            match tree.node(at).mv {
                None => break start.clone(),
                Some(mv) => {
                    path.push((at, mv));
                    at = tree
                        .node(at)
                        .parent
                        .expect("a node with a move has a parent");
                }
            }
        };
        for (id, mv) in path.into_iter().rev() {
            pos.play_unchecked(mv);
            if tree.node(id).ply.is_multiple_of(Self::EVERY) {
                self.snapshots.insert(id, pos.clone());
            }
        }
        pos
    }
}

/// Turns a raw game into a record, resolving every move.
pub fn build(mut raw: RawGame<'_>) -> Result<Record, Error> {
    let (setup, handicap) = start_of(&mut raw)?;
    let (start, problems) = Position::from_setup_lenient(setup.clone()).map_err(|e| {
        Error::at(
            Stage::Resolve,
            raw.board_line.max(1),
            "",
            0,
            "",
            format!("the start position cannot be played: {e}"),
        )
    })?;
    for problem in problems {
        raw.warnings.push(Warning {
            line: raw.board_line.max(1),
            column: 1,
            text: String::new(),
            message: format!("the start position breaks a rule: {problem}"),
        });
    }
    let mut record = Record::new(setup);
    record.handicap = handicap;
    record.headers = raw
        .headers
        .iter()
        .map(|h| Header {
            key: h.key.to_string(),
            value: h.value.to_string(),
        })
        .collect();
    let moves = raw
        .events
        .iter()
        .filter(|e| matches!(e, Event::Move { .. }))
        .count();
    let mut tree = MoveTree::with_capacity(moves);
    let mut warnings: Vec<Warning> = std::mem::take(&mut raw.warnings);

    let mut pos = start.clone();
    let mut current = NodeId::ROOT;
    let mut previous: Option<Square> = None;
    // Set once the current line has ended (a terminal word or a foul).
    let mut ended = false;
    let mut in_variation = false;
    let mut branches = Branches::default();

    for (i, event) in raw.events.iter().enumerate() {
        match event {
            Event::Move {
                span,
                number,
                spec,
                time,
            } => {
                let ply = tree.node(current).ply + 1;
                if ended {
                    return Err(Error::at(
                        Stage::Resolve,
                        span.line,
                        span.line_text,
                        span.offset,
                        span.text,
                        "a move after the end of the game (expected a variation `変化：N手` first)",
                    )
                    .with_ply(number.unwrap_or(ply)));
                }
                // A diagram may start after moves already played (手数＝N).
                let expected = ply + record.start.move_number.saturating_sub(1);
                if let Some(n) = number.filter(|&n| n != ply && n != expected) {
                    warnings.push(span.warning(format!("move numbered {n}, but it is move {ply}")));
                }
                match resolve(&pos, spec, previous) {
                    Ok(mv) => {
                        current = tree.push(current, mv);
                        tree.node_mut(current).time = *time;
                        pos.play_unchecked(mv);
                        branches.added(&tree, current, &pos);
                        previous = Some(mv.to());
                    }
                    Err(e) if is_foul(&e) && !more_moves_follow(&raw.events[i + 1..]) => {
                        let by = pos.side_to_move();
                        warnings.push(span.warning(format!(
                            "move {ply} is illegal ({e}); the game is recorded as lost by {by}'s foul"
                        )));
                        tree.node_mut(current).ending = Some(Box::new(Ending {
                            kind: EndingKind::IllegalMove,
                            winner: Some(!by),
                            text: span.text.to_string(),
                            time: *time,
                            comments: Vec::new(),
                            foul: Some(Foul {
                                by,
                                text: span.text.to_string(),
                                reason: e.to_string(),
                                mv: match &e {
                                    ResolveError::Illegal { mv, .. } => Some(*mv),
                                    // An illegal drop: the text names it fully.
                                    ResolveError::NoCandidate { piece, to, .. }
                                        if spec.drop == DropMark::Drop && piece.is_hand_kind() =>
                                    {
                                        Some(crate::Move::Drop {
                                            kind: *piece,
                                            to: *to,
                                        })
                                    }
                                    _ => None,
                                },
                            }),
                        }));
                        ended = true;
                    }
                    Err(e) => return Err(resolve_error(span, ply, &e)),
                }
            }
            Event::End {
                span, word, time, ..
            } => {
                let node = tree.node_mut(current);
                match &mut node.ending {
                    Some(ending) if ending.foul.is_some() => {
                        // 反則勝ち / 反則負け after the illegal move: the same foul.
                        ending.text.push(' ');
                        ending.text.push_str(word);
                    }
                    Some(_) => warnings.push(
                        span.warning("a second terminal word for the same line; kept the first"),
                    ),
                    None => {
                        let (kind, winner) = ending_for_word(word, pos.side_to_move());
                        if kind == EndingKind::Other {
                            warnings.push(
                                span.warning(format!(
                                    "unknown terminal word `{word}`, kept as text"
                                )),
                            );
                        }
                        node.ending = Some(Box::new(Ending {
                            kind,
                            winner,
                            text: word.to_string(),
                            time: *time,
                            comments: Vec::new(),
                            foul: None,
                        }));
                    }
                }
                ended = true;
            }
            Event::Comment { text, .. } => {
                let node = tree.node_mut(current);
                match (&mut node.ending, ended) {
                    (Some(ending), true) => ending.comments.push(text.to_string()),
                    _ => node.comments.push(text.to_string()),
                }
            }
            Event::Bookmark { name, .. } => tree.node_mut(current).bookmarks.push(name.to_string()),
            Event::Variation { span, ply } => {
                let branch = branches.newest(&tree, *ply);
                let Some(branch) = branch else {
                    return Err(Error::at(
                        Stage::Resolve,
                        span.line,
                        span.line_text,
                        span.offset,
                        span.text,
                        format!("a variation of move {ply}, but no line has a move {ply}"),
                    ));
                };
                current = tree
                    .node(branch)
                    .parent
                    .expect("a move's node has a parent");
                pos = branches.position_at(&start, &tree, current);
                previous = tree.node(current).mv.map(|mv| mv.to());
                ended = false;
                in_variation = true;
            }
            Event::Trailer { span, text } => {
                if !in_variation && record.trailer.is_none() {
                    record.trailer = Some(text.to_string());
                }
                let node = tree.node_mut(current);
                if node.ending.is_none() {
                    match ending_for_trailer(text, !pos.side_to_move()) {
                        Some((kind, winner)) => {
                            node.ending = Some(Box::new(Ending {
                                kind,
                                winner,
                                text: text.to_string(),
                                time: None,
                                comments: Vec::new(),
                                foul: None,
                            }));
                            ended = true;
                        }
                        None => {
                            warnings.push(span.warning("summary line not understood; kept as text"))
                        }
                    }
                }
            }
        }
    }
    record.tree = tree;
    record.warnings = warnings;
    Ok(record)
}

/// Builds a record from one USI position line (`position startpos moves …`,
/// `position sfen … moves …`, or a bare SFEN), line `n` of the input. A
/// final illegal move is kept as a foul, like in the other formats.
pub fn build_usi_line(n: u32, line: &str) -> Result<Record, Error> {
    use crate::parse::usi::parse_line;
    let parsed = parse_line(line)
        .map_err(|e| Error::at(Stage::Parse, n, line, 0, line.trim(), e.to_string()))?;
    let (start, problems) = Position::from_setup_lenient(parsed.start.clone()).map_err(|e| {
        Error::at(
            Stage::Resolve,
            n,
            line,
            0,
            line.trim(),
            format!("the start position cannot be played: {e}"),
        )
    })?;
    let mut record = Record::new(parsed.start);
    record.handicap = Handicap::detect(&record.start);
    for problem in problems {
        record.warnings.push(Warning {
            line: n,
            column: 1,
            text: String::new(),
            message: format!("the start position breaks a rule: {problem}"),
        });
    }
    let mut tree = MoveTree::with_capacity(parsed.moves.len());
    let mut pos = start;
    let mut current = NodeId::ROOT;
    let last = parsed.moves.len();
    for (i, text) in parsed.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        let span = Span::of(n, line, text);
        let mv = match crate::Move::from_usi(text) {
            Ok(mv) => mv,
            Err(e) => {
                return Err(
                    Error::at(Stage::Parse, n, line, span.offset, text, e.to_string())
                        .with_ply(ply),
                )
            }
        };
        match pos.check_legal(mv) {
            Ok(()) => {
                current = tree.push(current, mv);
                pos.play_unchecked(mv);
            }
            Err(reason) if i + 1 == last => {
                let by = pos.side_to_move();
                record.warnings.push(span.warning(format!(
                    "move {ply} is illegal ({reason}); the game is recorded as lost by {by}'s foul"
                )));
                tree.node_mut(current).ending = Some(Box::new(Ending {
                    kind: EndingKind::IllegalMove,
                    winner: Some(!by),
                    text: text.to_string(),
                    time: None,
                    comments: Vec::new(),
                    foul: Some(Foul {
                        by,
                        text: text.to_string(),
                        reason: reason.to_string(),
                        mv: Some(mv),
                    }),
                }));
            }
            Err(reason) => {
                return Err(Error::at(
                    Stage::Resolve,
                    n,
                    line,
                    span.offset,
                    text,
                    format!("illegal move {mv}: {reason}"),
                )
                .with_ply(ply))
            }
        }
    }
    record.tree = tree;
    Ok(record)
}
