//! Each reading error has the kind a program would react to and the place
//! the rendered error points at: a syntax error and a move the board
//! refuses in every format, a start the rules do not allow, input that is
//! no record, input of no known format, a file that cannot be read, and
//! the game of a file of several.

use crate::util::files::read_as;
use kifconv::{Error, ErrorKind};

/// Reads `text` as the file `name` would be read and returns its only error.
fn error_of(name: &str, text: &str) -> Error {
    match read_as(text.as_bytes(), name) {
        Ok(read) => {
            assert_eq!(
                (read.records.len(), read.errors.len()),
                (0, 1),
                "{name}: {text:?}"
            );
            read.errors.into_iter().next().unwrap()
        }
        Err(error) => error,
    }
}

/// An input, its error's kind, its line and column, the ply (if the error
/// is about a move), and the text under the caret.
struct Case {
    name: &'static str,
    text: &'static str,
    kind: ErrorKind,
    at: (u32, u32),
    ply: Option<u32>,
    offending: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "syntax.kif",
        text: "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(3\n",
        kind: ErrorKind::Syntax,
        at: (4, 9),
        ply: None,
        offending: "(3",
    },
    Case {
        name: "illegal.kif",
        text: "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ７六歩(73)\n   3 ２六歩(27)\n",
        kind: ErrorKind::Illegal,
        at: (4, 6),
        ply: Some(2),
        offending: "７六歩(73)",
    },
    Case {
        name: "after-the-end.kif",
        text: "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n   3 ３四歩(33)\n",
        kind: ErrorKind::Illegal,
        at: (5, 6),
        ply: Some(3),
        offending: "３四歩(33)",
    },
    Case {
        name: "syntax.ki2",
        text: "▲７六歩　△３四歩x　▲２六歩\n",
        kind: ErrorKind::Syntax,
        at: (1, 10),
        ply: None,
        offending: "x",
    },
    Case {
        name: "illegal.ki2",
        text: "▲７六歩　△７六歩　▲２六歩\n",
        kind: ErrorKind::Illegal,
        at: (1, 6),
        ply: Some(2),
        offending: "△７六歩",
    },
    Case {
        name: "syntax.csa",
        text: "+7776FU\n-33XXFU\n",
        kind: ErrorKind::Syntax,
        at: (2, 1),
        ply: None,
        offending: "-33XXFU",
    },
    Case {
        name: "illegal.csa",
        text: "+7776FU\n-7776FU\n+2726FU\n",
        kind: ErrorKind::Illegal,
        at: (2, 1),
        ply: Some(2),
        offending: "-7776FU",
    },
    Case {
        name: "syntax.usi",
        text: "position startpos moves 7g7f 3c3x\n",
        kind: ErrorKind::Syntax,
        at: (1, 30),
        ply: Some(2),
        offending: "3c3x",
    },
    Case {
        name: "illegal.usi",
        text: "position startpos moves 7g7f 7g7f 2g2f\n",
        kind: ErrorKind::Illegal,
        at: (1, 30),
        ply: Some(2),
        offending: "7g7f",
    },
    Case {
        name: "start.usi",
        text: "position sfen 4k4/9/9/9/9/9/9/4R4/4K4 b - 1 moves 5i5h\n",
        kind: ErrorKind::Illegal,
        at: (1, 1),
        ply: None,
        offending: "position sfen 4k4/9/9/9/9/9/9/4R4/4K4 b - 1 moves 5i5h",
    },
    Case {
        name: "syntax.jkf",
        text: "{\"header\":{},\"moves\":[{},\n",
        kind: ErrorKind::Syntax,
        at: (2, 1),
        ply: None,
        offending: "",
    },
    Case {
        name: "illegal.jkf",
        text: "{\"moves\":[{},\n{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},\n{\"move\":{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}},\n{\"move\":{\"from\":{\"x\":2,\"y\":7},\"to\":{\"x\":2,\"y\":6},\"piece\":\"FU\"}}]}\n",
        kind: ErrorKind::Illegal,
        // The caret is under the move object, after `{"move":`.
        at: (3, 9),
        ply: Some(2),
        offending: "{\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}",
    },
    Case {
        name: "syntax.psn",
        text: "1. P-7f P-3d\n2. Q-2f\n",
        kind: ErrorKind::Syntax,
        at: (2, 4),
        ply: None,
        offending: "Q",
    },
    Case {
        name: "illegal.psn",
        text: "1. P-7f P-7f\n2. P-2f\n",
        kind: ErrorKind::Illegal,
        at: (1, 9),
        ply: Some(2),
        offending: "P-7f",
    },
];

#[test]
fn each_format_tells_a_syntax_error_from_a_move_the_board_refuses() {
    for case in CASES {
        let error = error_of(case.name, case.text);
        let rendered = error.render(case.name);
        assert_eq!(error.kind, case.kind, "{rendered}");
        let place = &error.location;
        assert_eq!((place.line, place.column), case.at, "{rendered}");
        assert_eq!(place.ply, case.ply, "{rendered}");
        assert_eq!(place.text, case.offending, "{rendered}");
        assert_eq!(place.game, None, "{rendered}");
        // The rendered head is the location, then the message.
        let (line, column) = case.at;
        let head = format!("{}:{line}:{column}: error: ", case.name);
        assert!(rendered.starts_with(&head), "{rendered}");
        let ply = case
            .ply
            .map_or(String::new(), |ply| format!("move {ply}: "));
        assert!(
            rendered[head.len()..].starts_with(&format!("{ply}{}", error.message)),
            "{rendered}"
        );
        // The source line is the line the location names.
        let source = case.text.lines().nth(line as usize - 1).unwrap_or("");
        assert_eq!(place.source_line, source, "{rendered}");
    }
}

#[test]
fn input_that_is_no_record_or_of_no_known_format_says_so() {
    for (name, bytes, kind, at) in [
        ("empty.kif", &b""[..], ErrorKind::NotARecord, (1, 1)),
        (
            "binary.csa",
            b"+7776FU\n\x00\x01\x02",
            ErrorKind::NotARecord,
            (2, 1),
        ),
        (
            "readme.kif",
            b"This is a README.\nIt talks about shogi.\n",
            ErrorKind::NotARecord,
            (1, 1),
        ),
        ("notes", b"hello\n", ErrorKind::UnknownFormat, (1, 1)),
    ] {
        let error = read_as(bytes, name).unwrap_err();
        let rendered = error.render(name);
        assert_eq!(error.kind, kind, "{rendered}");
        let place = &error.location;
        assert_eq!((place.line, place.column), at, "{rendered}");
        assert_eq!((place.ply, place.game), (None, None), "{rendered}");
    }
}

#[test]
fn a_file_that_cannot_be_read_is_an_io_error_at_its_start() {
    let error = kifconv::read("/nonexistent/kifconv/game.kif").unwrap_err();
    assert_eq!(error.kind, ErrorKind::Io);
    let place = &error.location;
    assert_eq!((place.line, place.column), (1, 1));
    assert_eq!((place.text.as_str(), place.source_line.as_str()), ("", ""));
    assert!(
        error.message.starts_with("cannot read the file: "),
        "{error}"
    );
}

#[test]
fn in_a_file_of_several_games_the_error_names_its_game() {
    let text = "position startpos moves 7g7f\nposition startpos moves 7g7f 7g7f 2g2f\n";
    let read = read_as(text.as_bytes(), "two.usi").unwrap();
    assert_eq!((read.records.len(), read.errors.len()), (1, 1));
    let error = &read.errors[0];
    assert_eq!(error.kind, ErrorKind::Illegal);
    let place = &error.location;
    assert_eq!(
        (place.game, place.ply, place.line, place.column),
        (Some((2, 2)), Some(2), 2, 30)
    );
    assert!(
        error
            .render("two.usi")
            .starts_with("two.usi:2:30: error: game 2 of 2: move 2: illegal move 7g7f"),
        "{}",
        error.render("two.usi")
    );
}
