//! JKF, the JSON Kifu Format of the json-kifu-format project: one game as
//! one JSON object ([`write()`], pretty), or several games as NDJSON, one
//! compact object a line ([`write_all`]).
//!
//! What is written, as json-kifu-format defines it:
//!
//! * `header`: every header in input order, KIF keys as they are, CSA keys
//!   renamed as the KIF writer renames them ([`japanese::header_key`]:
//!   `N+` → `先手`, `$EVENT` → `棋戦`, …; `V` is left out). No key is
//!   written twice (a JavaScript reader keeps only the last): the values of
//!   a key given more than once are one value, a line each, which kifconv's
//!   reader reads back as that many headers.
//! * `initial`: `{"preset": "HIRATE"}` or a handicap name when the start is
//!   one of the standard starts ([`Position::handicap`]), else
//!   `{"preset": "OTHER", "data": {"color", "board", "hands"}}` with
//!   `board[x-1][y-1]` the square of file `x` and rank `y`, `{}` for an
//!   empty square.
//! * `moves`: the comments before the first move (`{}` if none), then one
//!   entry per move of the mainline: `move` (`color`, `from` except for a
//!   drop, `to`, `piece` as it stands *before* the move, `same: true` when
//!   it goes where the previous move went, `promote: true` when it
//!   promotes and `promote: false` when it could have and did not,
//!   `capture` with the kind taken, and `relative`, the JSA markers
//!   `L C R U M D H` that the KI2 writer would write, when there are any),
//!   `time`, `comments` and `forks`. A line's end is a last entry with
//!   `special`, the ending's time and its comments. These are the move
//!   objects json-kifu-format writes, but `same` is set from the squares
//!   (as json-kifu-format sets it for CSA input, not for KIF).
//! * Variations as json-kifu-format nests them: the later children of a
//!   node are `forks` on the entry of its first child, each fork an array
//!   of entries replacing that entry (with forks of their own), in the walk
//!   Western shares ([`forks`]): any nesting, without recursion.
//!
//! What JKF cannot hold, and what is written instead:
//!
//! * Times are whole seconds: milliseconds are dropped (rounded down, as
//!   the KIF writer does). The schema requires `total` beside `now`: a
//!   missing total is the mover's times added up along the line.
//! * Bookmarks have no field: each is a comment `&name` after the node's
//!   comments, as json-kifu-format's KIF parser keeps them.
//! * Endings are the `special` words of the schema, chosen for the player to
//!   move there ([`special`]): the CSA word where there is one (fouls as
//!   `ILLEGAL_MOVE` or `±ILLEGAL_ACTION` by who broke the rules). The schema
//!   lists only the CSA V2.2 words, so a perpetual check is written as the
//!   foul it is (the winner kept), the move limit (`%MAX_MOVES`) as
//!   `CHUDAN`, and endings CSA has no word for (不戦勝, 不戦敗, 封じ手,
//!   トライ, unknown words) as `CHUDAN`, their winner lost. The ending's text
//!   as written is not kept.
//! * A foul whose move is known ([`foul_move`]) is written as that move,
//!   then `{"special": "ILLEGAL_MOVE"}`, which kifconv's reader reads back as
//!   the same foul; the ending's time and comments go on the illegal move.
//! * An ending on a node whose line goes on (a game that could have ended
//!   there) is a fork holding only the `special`, on the next entry.
//! * Comments with line breaks are written a line an element, and read
//!   back as several comments.
//! * Not written: the `まで…` trailer, the encoding, warnings, the start's
//!   move number. Nesting is unlimited here; kifconv's reader takes 1,024
//!   levels of JSON (forks within forks 339 deep).

use super::preset::preset_name;
use crate::format::clock::Clock;
use crate::format::csa::write as csa;
use crate::format::forks::{self, Inline};
use crate::format::japanese::write as japanese;
use crate::format::lines::split_at_endings;
use crate::record::{EndingKind, MoveTime, NodeId, Record};
use crate::resolve::spec::{DropMark, Horizontal, MoveSpec, Vertical};
use crate::{Color, Move, PieceKind, Position, Square};
use std::fmt::Write as _;

/// The deepest indentation of pretty JSON, in spaces (32 levels).
const MAX_INDENT: usize = 64;

/// Writes one game as a pretty JSON document, ending with a line break.
pub fn write(record: &Record) -> String {
    let mut out = String::with_capacity(512 + 120 * record.tree.len());
    Writer::new(&mut out, record, true).record();
    out.push('\n');
    out
}

/// Writes several games as NDJSON: one compact document a line.
pub fn write_all(records: &[Record]) -> String {
    let mut out = String::new();
    for record in records {
        Writer::new(&mut out, record, false).record();
        out.push('\n');
    }
    out
}

/// The `special` word for an ending, as the player to move there sees it:
/// CSA's word (as [`csa::special`] chooses it) where the JKF schema lists
/// one; a perpetual check as the foul by the checker, the move limit as
/// `CHUDAN`.
pub fn special(kind: EndingKind, winner: Option<Color>, to_move: Color) -> &'static str {
    match kind {
        EndingKind::PerpetualCheck => csa::special(EndingKind::FoulWin, winner, to_move),
        EndingKind::MaxMoves => "CHUDAN",
        other => csa::special(other, winner, to_move),
    }
}

pub use crate::format::foul_move;

/// Where a line stands: the position before its next entry, the previous
/// move's destination (for `same`), each player's running total in
/// milliseconds, and the indentation of its entries.
#[derive(Clone)]
struct At {
    pos: Position,
    previous: Option<Square>,
    clock: Clock,
    indent: usize,
}

struct Writer<'o, 'r> {
    out: &'o mut String,
    record: &'r Record,
    pretty: bool,
}

impl<'o, 'r> Writer<'o, 'r> {
    fn new(out: &'o mut String, record: &'r Record, pretty: bool) -> Writer<'o, 'r> {
        Writer {
            out,
            record,
            pretty,
        }
    }

    /// A line break and `indent` spaces (at most [`MAX_INDENT`]), when
    /// writing pretty.
    fn newline(&mut self, indent: usize) {
        if self.pretty {
            self.out.push('\n');
            self.out
                .extend(std::iter::repeat_n(' ', indent.min(MAX_INDENT)));
        }
    }

    /// `"key": ` at a structural level (`"key":` when compact).
    fn key(&mut self, key: &str) {
        string(self.out, key);
        self.out.push_str(if self.pretty { ": " } else { ":" });
    }

    fn record(&mut self) {
        self.out.push('{');
        self.newline(2);
        self.header();
        self.out.push(',');
        self.newline(2);
        self.initial();
        self.out.push(',');
        self.newline(2);
        self.moves();
        self.newline(0);
        self.out.push('}');
    }

    fn header(&mut self) {
        self.key("header");
        self.out.push('{');
        let merged = merged_headers(self.record);
        for (i, (key, value)) in merged.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.newline(4);
            self.key(key);
            string(self.out, value);
        }
        if !merged.is_empty() {
            self.newline(2);
        }
        self.out.push('}');
    }

    fn initial(&mut self) {
        let start = &self.record.start;
        self.key("initial");
        if let Some(handicap) = start.handicap() {
            write!(self.out, "{{\"preset\":\"{}\"}}", preset_name(handicap)).unwrap();
            return;
        }
        self.out.push('{');
        self.newline(4);
        self.key("preset");
        self.out.push_str("\"OTHER\",");
        self.newline(4);
        self.key("data");
        self.out.push('{');
        self.newline(6);
        self.key("color");
        write!(self.out, "{},", start.side_to_move().index()).unwrap();
        self.newline(6);
        self.key("board");
        self.out.push('[');
        for file in 1..=9u8 {
            self.newline(8);
            let cells: Vec<String> = (1..=9u8)
                .map(|rank| Square::new(file, rank).and_then(|sq| start.piece_at(sq)))
                .map(|piece| match piece {
                    None => "{}".to_string(),
                    Some(p) => format!(
                        "{{\"color\":{},\"kind\":\"{}\"}}",
                        p.color.index(),
                        p.kind.csa()
                    ),
                })
                .collect();
            write!(self.out, "[{}]", cells.join(",")).unwrap();
            if file < 9 {
                self.out.push(',');
            }
        }
        self.newline(6);
        self.out.push_str("],");
        self.newline(6);
        self.key("hands");
        self.out.push('[');
        for c in Color::ALL {
            self.newline(8);
            let held: Vec<String> = start
                .hand(c)
                .kinds()
                .filter(|&(_, count)| count > 0)
                .map(|(kind, count)| format!("\"{}\":{count}", kind.csa()))
                .collect();
            write!(self.out, "{{{}}}", held.join(",")).unwrap();
            if c == Color::Black {
                self.out.push(',');
            }
        }
        self.newline(6);
        self.out.push(']');
        self.newline(4);
        self.out.push('}');
        self.newline(2);
        self.out.push('}');
    }

    fn moves(&mut self) {
        let record = self.record;
        let root = record.tree.root();
        self.key("moves");
        self.out.push('[');
        self.newline(4);
        self.out.push('{');
        self.notes(root.comments(), root.bookmarks(), true);
        self.out.push('}');
        if record.tree.children(NodeId::ROOT).next().is_some() || root.ending().is_some() {
            self.out.push(',');
            let at = At {
                pos: record.start.clone(),
                previous: None,
                clock: Clock::default(),
                indent: 4,
            };
            forks::walk(&record.tree, self, at);
        }
        self.newline(2);
        self.out.push(']');
    }

    /// The move object. `legal` moves get their `relative` markers; the
    /// illegal move of a foul has none.
    fn move_object(&mut self, pos: &Position, mv: Move, previous: Option<Square>, legal: bool) {
        let mover = pos.side_to_move();
        let out = &mut *self.out;
        write!(out, "{{\"color\":{}", mover.index()).unwrap();
        let (kind, to) = match mv {
            Move::Normal { from, to, .. } => {
                out.push_str(",\"from\":");
                place(out, from);
                let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                (kind, to)
            }
            Move::Drop { kind, to } => (kind, to),
        };
        out.push_str(",\"to\":");
        place(out, to);
        write!(out, ",\"piece\":\"{}\"", kind.csa()).unwrap();
        if previous == Some(to) {
            out.push_str(",\"same\":true");
        }
        if let Move::Normal { from, promote, .. } = mv {
            let in_zone = |sq: Square| sq.relative_rank(mover) <= 3;
            // For an illegal move, "could have promoted" is read as "the
            // promoting move would have been legal", as the reader checks.
            let could = kind.can_promote()
                && (in_zone(from) || in_zone(to))
                && (legal
                    || pos.is_legal(Move::Normal {
                        from,
                        to,
                        promote: true,
                    }));
            if promote {
                out.push_str(",\"promote\":true");
            } else if could {
                out.push_str(",\"promote\":false");
            }
            if let Some(taken) = pos.piece_at(to) {
                // The schema has no captured king.
                if taken.color != mover && taken.kind != PieceKind::King {
                    write!(out, ",\"capture\":\"{}\"", taken.kind.csa()).unwrap();
                }
            }
        }
        if legal {
            let spec = MoveSpec::from_move(pos, mv, previous);
            let mut relative = String::new();
            relative.extend(spec.horizontal.map(|h| match h {
                Horizontal::Left => 'L',
                Horizontal::Straight => 'C',
                Horizontal::Right => 'R',
            }));
            relative.extend(spec.vertical.map(|v| match v {
                Vertical::Up => 'U',
                Vertical::Sideways => 'M',
                Vertical::Down => 'D',
            }));
            if spec.drop == DropMark::Drop {
                relative.push('H');
            }
            if !relative.is_empty() {
                write!(out, ",\"relative\":\"{relative}\"").unwrap();
            }
        }
        out.push('}');
    }

    /// `,"time":{"now":{"m","s"},"total":{"h","m","s"}}`, in whole seconds;
    /// a missing total is the mover's running total.
    fn time(&mut self, time: Option<MoveTime>, mover: Color, clock: &mut Clock) {
        if time.is_none() {
            return;
        }
        let (now, total) = clock.column(mover, time);
        let (now, total) = (now / 1000, total / 1000);
        write!(
            self.out,
            ",\"time\":{{\"now\":{{\"m\":{},\"s\":{}}},\"total\":{{\"h\":{},\"m\":{},\"s\":{}}}}}",
            now / 60,
            now % 60,
            total / 3600,
            total / 60 % 60,
            total % 60
        )
        .unwrap();
    }

    /// `"comments":[…]`, a line an element, bookmarks as `&name`; with a
    /// leading comma unless `first`.
    fn notes(&mut self, comments: &[String], bookmarks: &[String], first: bool) {
        if comments.is_empty() && bookmarks.is_empty() {
            return;
        }
        if !first {
            self.out.push(',');
        }
        self.out.push_str("\"comments\":[");
        let lines = comments
            .iter()
            .flat_map(|c| split_at_endings(c))
            .map(std::borrow::Cow::Borrowed)
            .chain(bookmarks.iter().map(|b| format!("&{b}").into()));
        for (i, line) in lines.enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            string(self.out, &line);
        }
        self.out.push(']');
    }
}

/// The `moves` entries: a move's forks are an array on its entry, each
/// fork an array of entries, indented a level further.
impl Inline for Writer<'_, '_> {
    type At = At;

    fn step(&mut self, id: NodeId, at: &mut At, forked: bool, goes_on: bool) {
        let node = self.record.tree.node(id);
        let mv = node.mv.expect("every node but the root has a move");
        self.newline(at.indent);
        self.out.push_str("{\"move\":");
        self.move_object(&at.pos, mv, at.previous, true);
        self.time(node.time, at.pos.side_to_move(), &mut at.clock);
        self.notes(node.comments(), node.bookmarks(), false);
        at.pos.play_unchecked(mv);
        at.previous = Some(mv.to());
        if forked {
            self.out.push_str(",\"forks\":[");
        } else {
            self.out.push('}');
            if goes_on {
                self.out.push(',');
            }
        }
    }

    /// The entries for the ending of `node` (nothing if it has none): the
    /// `special`, or a foul's move followed by `ILLEGAL_MOVE`.
    fn ending(&mut self, node: NodeId, mut at: At) {
        let Some(ending) = self.record.tree.node(node).ending() else {
            return;
        };
        let to_move = at.pos.side_to_move();
        self.newline(at.indent);
        let foul = foul_move(ending, &at.pos);
        match foul {
            Some(mv) => {
                self.out.push_str("{\"move\":");
                self.move_object(&at.pos, mv, at.previous, false);
            }
            None => {
                self.out.push_str("{\"special\":");
                string(self.out, special(ending.kind, ending.winner, to_move));
            }
        }
        self.time(ending.time, to_move, &mut at.clock);
        self.notes(&ending.comments, &[], false);
        self.out.push('}');
        if foul.is_some() {
            self.out.push(',');
            self.newline(at.indent);
            self.out.push_str("{\"special\":\"ILLEGAL_MOVE\"}");
        }
    }

    fn open_fork(&mut self, before: &At, first: bool) -> At {
        if !first {
            self.out.push(',');
        }
        self.newline(before.indent + 2);
        self.out.push('[');
        At {
            indent: before.indent + 4,
            ..before.clone()
        }
    }

    fn close_fork(&mut self, before: &At) {
        self.newline(before.indent + 2);
        self.out.push(']');
    }

    fn close_forks(&mut self, after: &mut At, goes_on: bool) {
        self.newline(after.indent);
        self.out.push_str("]}");
        if goes_on {
            self.out.push(',');
        }
    }
}

/// The `header` members: keys renamed as [`japanese::header_key`] renames
/// them, in the order each key first appears, and the values of a key given
/// more than once (`先手` twice, or `N+` beside `先手`) joined by line breaks
/// into one member, so that no key is repeated. The reader splits them again.
fn merged_headers(record: &Record) -> Vec<(&str, String)> {
    let mut merged: Vec<(&str, String)> = Vec::with_capacity(record.headers.len());
    let mut index: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::with_capacity(record.headers.len());
    for header in &record.headers {
        let Some(key) = japanese::header_key(&header.key) else {
            continue;
        };
        match index.get(key) {
            Some(&i) => merged[i].1.extend(["\n", &header.value]),
            None => {
                index.insert(key, merged.len());
                merged.push((key, header.value.clone()));
            }
        }
    }
    merged
}

fn place(out: &mut String, sq: Square) {
    write!(out, "{{\"x\":{},\"y\":{}}}", sq.file(), sq.rank()).unwrap();
}

/// A JSON string: quotes, backslashes and control characters escaped, the
/// rest as UTF-8.
fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Ending;
    use crate::record::{Foul, Header};
    use crate::test_util::games::game_of;

    fn game(usi: &str) -> Record {
        let mut record = game_of(&Position::startpos().sfen(), usi);
        record.handicap = Some(crate::Handicap::Even);
        record
    }

    // Reading back what is written is format/round_trip.rs's: every
    // fixture and 10,000 random games go through this writer and JKF's
    // reader, compared by `jkf::round_trip::canonical`.

    #[test]
    fn writes_the_readme_example() {
        let mut record = game("7g7f 3c3d 8h2b 3a2b B*4e");
        for (key, value) in [("N+", "na2hiro"), ("後手", "うひょ")] {
            let (key, value) = (key.into(), value.into());
            record.headers.push(Header { key, value });
        }
        let end = record.tree.mainline_end();
        let ending = Ending::new(EndingKind::Abort, None, "%CHUDAN");
        record.tree.node_mut(end).set_ending(ending);
        assert_eq!(
            write(&record),
            r#"{
  "header": {
    "先手": "na2hiro",
    "後手": "うひょ"
  },
  "initial": {"preset":"HIRATE"},
  "moves": [
    {},
    {"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
    {"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}},
    {"move":{"color":0,"from":{"x":8,"y":8},"to":{"x":2,"y":2},"piece":"KA","promote":false,"capture":"KA"}},
    {"move":{"color":1,"from":{"x":3,"y":1},"to":{"x":2,"y":2},"piece":"GI","same":true,"capture":"KA"}},
    {"move":{"color":0,"to":{"x":4,"y":5},"piece":"KA"}},
    {"special":"CHUDAN"}
  ]
}
"#
        );
    }

    #[test]
    fn forks_hang_on_the_first_child_and_nest() {
        // 1. 7g7f (2. 3c3d 3. 2g2f | 2. 8c8d) | 1. 2g2f (2. 8c8d | 2. 3c3d); the
        // root could also have ended at once.
        let mut record = game("7g7f 3c3d 2g2f");
        let tree = &mut record.tree;
        let first = tree.children(NodeId::ROOT).next().unwrap();
        tree.push(first, Move::from_usi("8c8d").unwrap());
        let other = tree.push(NodeId::ROOT, Move::from_usi("2g2f").unwrap());
        tree.push(other, Move::from_usi("8c8d").unwrap());
        tree.push(other, Move::from_usi("3c3d").unwrap());
        let mut resigned = Ending::new(EndingKind::Resign, Some(Color::White), "投了");
        resigned.comments = vec!["resigned at once".into()];
        tree.node_mut(NodeId::ROOT).set_ending(resigned);
        let text = write(&record);
        let moves: Vec<&str> = text.lines().skip(4).collect();
        assert_eq!(
            moves,
            [
                r#"    {},"#,
                r#"    {"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},"forks":["#,
                r#"      ["#,
                r#"        {"move":{"color":0,"from":{"x":2,"y":7},"to":{"x":2,"y":6},"piece":"FU"}},"#,
                r#"        {"move":{"color":1,"from":{"x":8,"y":3},"to":{"x":8,"y":4},"piece":"FU"},"forks":["#,
                r#"          ["#,
                r#"            {"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}}"#,
                r#"          ]"#,
                r#"        ]}"#,
                r#"      ],"#,
                r#"      ["#,
                r#"        {"special":"TORYO","comments":["resigned at once"]}"#,
                r#"      ]"#,
                r#"    ]},"#,
                r#"    {"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"},"forks":["#,
                r#"      ["#,
                r#"        {"move":{"color":1,"from":{"x":8,"y":3},"to":{"x":8,"y":4},"piece":"FU"}}"#,
                r#"      ]"#,
                r#"    ]},"#,
                r#"    {"move":{"color":0,"from":{"x":2,"y":7},"to":{"x":2,"y":6},"piece":"FU"}}"#,
                r#"  ]"#,
                r#"}"#,
            ]
        );
    }

    #[test]
    fn times_in_seconds_with_running_totals() {
        let mut record = game("7g7f 3c3d 2g2f 8c8d");
        let ids: Vec<NodeId> = record.tree.mainline().collect();
        let spent = [1_500, 61_000, 3_700_000, 2_000];
        for (id, ms) in ids.iter().zip(spent) {
            record.tree.node_mut(*id).time = Some(MoveTime {
                spent_ms: ms,
                total_ms: None,
            });
        }
        record.tree.node_mut(ids[3]).time.as_mut().unwrap().total_ms = Some(7_200_000);
        let text = write(&record);
        let times: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split_once("\"time\":").map(|(_, t)| t))
            .collect();
        assert_eq!(
            times,
            [
                r#"{"now":{"m":0,"s":1},"total":{"h":0,"m":0,"s":1}}},"#,
                r#"{"now":{"m":1,"s":1},"total":{"h":0,"m":1,"s":1}}},"#,
                // 1.5 s + 3700 s: the total keeps the half second.
                r#"{"now":{"m":61,"s":40},"total":{"h":1,"m":1,"s":41}}},"#,
                r#"{"now":{"m":0,"s":2},"total":{"h":2,"m":0,"s":0}}}"#,
            ]
        );
    }

    #[test]
    fn a_foul_is_written_as_its_move() {
        // Black drops a second pawn on file 7: 二歩.
        let mut record = game("7g7f 3c3d 7f7e 3d3e 7e7d 7c7d");
        let end = record.tree.mainline_end();
        let mv = Move::from_usi("P*7e").unwrap();
        let mut ending = Ending::new(EndingKind::IllegalMove, Some(Color::White), "反則負け");
        ending.time = Some(MoveTime {
            spent_ms: 3_000,
            total_ms: None,
        });
        ending.comments = vec!["二歩".into()];
        ending.foul = Some(Foul {
            by: Color::Black,
            text: "７五歩打".into(),
            reason: "二歩".into(),
            mv: Some(mv),
        });
        record.tree.node_mut(end).set_ending(ending);
        let text = write(&record);
        assert!(text.ends_with(
            "    {\"move\":{\"color\":0,\"to\":{\"x\":7,\"y\":5},\"piece\":\"FU\"},\"time\":{\"now\":{\"m\":0,\"s\":3},\"total\":{\"h\":0,\"m\":0,\"s\":3}},\"comments\":[\"二歩\"]},\n    {\"special\":\"ILLEGAL_MOVE\"}\n  ]\n}\n"
        ), "{text}");
    }

    #[test]
    fn other_starts_write_the_board() {
        let start = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 w G2p 1").unwrap();
        let mut record = Record::new(start);
        record.tree.node_mut(NodeId::ROOT).notes_mut().bookmarks = vec!["詰将棋".into()];
        let text = write(&record);
        assert!(text.contains("\"preset\": \"OTHER\""), "{text}");
        assert!(text.contains(
            "        [{},{},{},{},{},{},{},{},{}],\n        [{},{},{},{},{},{},{},{},{}],\n        [{},{},{},{},{},{},{},{},{}],\n        [{},{},{},{},{},{},{},{},{}],\n        [{\"color\":1,\"kind\":\"OU\"},{},{\"color\":0,\"kind\":\"FU\"},{},{},{},{},{},{\"color\":0,\"kind\":\"OU\"}],"
        ), "{text}");
        assert!(
            text.contains("\"hands\": [\n        {\"KI\":1},\n        {\"FU\":2}\n      ]"),
            "{text}"
        );
        assert!(text.contains("\"color\": 1,"), "{text}");
        assert!(text.contains("{\"comments\":[\"&詰将棋\"]}"), "{text}");
    }

    #[test]
    fn ndjson_is_one_compact_line_a_game() {
        let records = [game("7g7f"), game("2g2f 8c8d")];
        let text = write_all(&records);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            r#"{"header":{},"initial":{"preset":"HIRATE"},"moves":[{},{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#
        );
    }

    #[test]
    fn strings_are_escaped() {
        let mut out = String::new();
        string(&mut out, "a\"b\\c\nd\u{1}e\u{3000}");
        assert_eq!(out, r#""a\"b\\c\nd\u0001e　""#);
        let value: String = serde_json::from_str(&out).unwrap();
        assert_eq!(value, "a\"b\\c\nd\u{1}e\u{3000}");
    }

    #[test]
    fn specials_keep_the_winner_where_the_schema_has_a_word() {
        use crate::format::csa::specials::ending;
        let b = Color::Black;
        let w = Color::White;
        // A perpetual check: the checker (who just moved) loses.
        let word = special(EndingKind::PerpetualCheck, Some(b), b);
        assert_eq!(word, "-ILLEGAL_ACTION");
        assert_eq!(ending(word, b).unwrap().1, Some(b));
        let word = special(EndingKind::PerpetualCheck, Some(w), w);
        assert_eq!(ending(word, w).unwrap().1, Some(w));
        assert_eq!(special(EndingKind::MaxMoves, None, b), "CHUDAN");
        assert_eq!(special(EndingKind::Resign, Some(w), b), "TORYO");
        assert_eq!(special(EndingKind::Sealed, None, b), "CHUDAN");
    }
}
