//! Records written through the library's writer, as text: what a test
//! needs of a format's writer, taken from the public `kifconv::write`.

use kifconv::record::{NodeId, Record};
use kifconv::write::{write_files_read, write_read, Options, OutputEncoding};
use kifconv::{Move, Position, Target};

/// The options every helper writes with: UTF-8, whatever the target, so
/// that the text can be compared and read back as text.
// Options is `#[non_exhaustive]`: tests/it cannot build it with `..`, and
// this file is compiled into the library's unit tests too (src/test_util.rs).
#[allow(clippy::field_reassign_with_default)]
fn utf8() -> Options {
    let mut options = Options::default();
    options.encoding = Some(OutputEncoding::Utf8);
    options
}

/// One record as the file `target` gives it (KIF and KI2 declaring
/// UTF-8, JKF a pretty document, USI and SFEN a line ending in `\n`).
pub fn text(record: &Record, target: Target) -> String {
    let files = write_files_read(std::slice::from_ref(record), target, &utf8())
        .unwrap_or_else(|e| panic!("{target:?}: {e}"));
    assert_eq!(files.len(), 1, "{target:?}");
    String::from_utf8(files.into_iter().next().unwrap()).unwrap()
}

/// Every record as one stream of `target` (CSA games separated by `/`,
/// JKF as NDJSON, Western games a blank line apart).
pub fn stream(records: &[Record], target: Target) -> String {
    let bytes = write_read(records, target, &utf8()).unwrap_or_else(|e| panic!("{target:?}: {e}"));
    String::from_utf8(bytes).unwrap()
}

/// A record's USI position line, without its line end.
pub fn usi_line(record: &Record) -> String {
    let mut line = text(record, Target::Usi);
    assert_eq!(line.pop(), Some('\n'));
    line
}

#[test]
fn a_record_is_written_as_its_target_says() {
    let record = &kifconv::read_bytes(b"position startpos moves 7g7f 3c3d\n").unwrap()[0];
    assert_eq!(usi_line(record), "position startpos moves 7g7f 3c3d");
    assert!(text(record, Target::Kif).starts_with("#KIF version=2.0 encoding=UTF-8\n"));
    assert!(text(record, Target::Ki2).starts_with("#KI2 version=2.0 encoding=UTF-8\n"));
    assert!(text(record, Target::Jkf).starts_with("{\n"));
    let two = [record.clone(), record.clone()];
    assert_eq!(stream(&two, Target::Jkf).lines().count(), 2);
    assert_eq!(stream(&two, Target::Csa).matches("\n/\n").count(), 1);
}

/// The numbered move lines of a KIF text the writer wrote, up to the end of
/// its mainline, without their time columns: `   1 ７六歩(77)`.
pub fn kif_move_lines(written: &str) -> impl Iterator<Item = &str> {
    written
        .lines()
        .skip_while(|l| !l.starts_with("手数----"))
        .skip(1)
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        // `   1 ７六歩(77)   ( 0:00/00:00:00)`: the time follows a space.
        .map(|l| l.split(" (").next().unwrap().trim_end())
}

/// The KIF writer's text for each of `moves` played from `start`
/// (`７六歩(77)`, `同　歩(76)`, `５五角打`): its move lines without their
/// numbers and times.
pub fn kif_moves(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut record = Record::new(start.clone());
    let mut at = NodeId::ROOT;
    for &mv in moves {
        at = record.tree.push(at, mv);
    }
    let written = text(&record, Target::Kifu);
    let out: Vec<String> = kif_move_lines(&written)
        .map(|l| l.trim_start().split_once(' ').unwrap().1.to_string())
        .collect();
    assert_eq!(out.len(), moves.len(), "{written}");
    out
}

/// The board the KI2 writer draws for a start other than a standard one:
/// its lines from `後手の持駒` (or `上手の持駒`) to `先手の持駒` (or
/// `下手の持駒`), each ending in `\n`.
pub fn ki2_board(start: &Position) -> String {
    let written = text(&Record::new(start.clone()), Target::Ki2u);
    let mut out = String::new();
    for line in written
        .lines()
        .skip_while(|l| !l.starts_with("後手の持駒") && !l.starts_with("上手の持駒"))
    {
        out.push_str(line);
        out.push('\n');
        if line.starts_with("先手の持駒") || line.starts_with("下手の持駒") {
            return out;
        }
    }
    panic!("no board in\n{written}");
}

#[test]
fn move_texts_and_boards_are_the_writers() {
    let start = Position::startpos();
    let moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"].map(|m| Move::from_usi(m).unwrap());
    assert_eq!(
        kif_moves(&start, &moves),
        [
            "７六歩(77)",
            "３四歩(33)",
            "２二角成(88)",
            "同　銀(31)",
            "４五角打"
        ]
    );
    let kings = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
    let board = ki2_board(&kings);
    assert!(board.starts_with("後手の持駒：なし\n"), "{board}");
    assert!(board.ends_with("先手の持駒：なし\n"), "{board}");
    // Two hands, the files' line, two borders and nine ranks, the kings
    // on the first and the ninth.
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines.len(), 2 + 1 + 2 + 9, "{board}");
    assert!(
        lines[3].ends_with("|一") && lines[3].contains(" ・v玉 ・"),
        "{board}"
    );
    assert!(
        lines[11].ends_with("|九") && lines[11].contains("・ 玉 ・"),
        "{board}"
    );
}

/// The first three lines that differ between what was written and what was
/// read back, for a round trip's failure message.
pub fn first_differences(wrote: &str, read: &str) -> String {
    wrote
        .lines()
        .zip(read.lines())
        .filter(|(x, y)| x != y)
        .take(3)
        .map(|(x, y)| format!("  wrote {x}\n  read  {y}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn first_differences_pairs_the_lines_that_differ() {
    assert_eq!(
        first_differences("a\nb\nc\n", "a\nB\nc\n"),
        "  wrote b\n  read  B"
    );
    assert_eq!(first_differences("a\n", "a\n"), "");
}

/// `text` in UTF-16, big-endian or little-endian, with no byte-order mark.
pub fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let unit = if big_endian {
        u16::to_be_bytes
    } else {
        u16::to_le_bytes
    };
    text.encode_utf16().flat_map(unit).collect()
}
