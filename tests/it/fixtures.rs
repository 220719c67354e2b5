//! One snapshot per fixture: what kifconv reads from it (headers, start,
//! mainline in USI, final SFEN, variations, ending, warnings), and for the
//! files under fixtures/bad/ the error as the binary renders it.

use crate::util::files::read_as;
use crate::util::summary::write_head;
use kifconv::decode::EncodingChoice;
use kifconv::read::read_bytes;
use kifconv::record::{NodeId, Record};
use std::fmt::Write as _;
use std::path::Path;

fn summary(record: &Record) -> String {
    let mut out = String::new();
    let w = &mut out;
    if let Some(encoding) = record.encoding {
        writeln!(w, "encoding: {}", encoding.name()).unwrap();
    }
    write_head(w, record);
    let mainline: Vec<NodeId> = record.tree.mainline().collect();
    let comments: usize = std::iter::once(NodeId::ROOT)
        .chain(record.tree.ids())
        .map(|id| {
            let node = record.tree.node(id);
            node.comments().len() + node.ending().map_or(0, |e| e.comments.len())
        })
        .sum();
    let bookmarks: usize = record
        .tree
        .ids()
        .map(|id| record.tree.node(id).bookmarks().len())
        .sum();
    let timed = mainline
        .iter()
        .filter(|&&id| record.tree.node(id).time.is_some())
        .count();
    writeln!(
        w,
        "comments: {comments}, bookmarks: {bookmarks}, timed mainline moves: {timed}"
    )
    .unwrap();
    if let Some(first) = record.tree.root().comments().first() {
        writeln!(w, "first comment: {first}").unwrap();
    }
    match record.ending() {
        None => writeln!(w, "ending: none").unwrap(),
        Some(e) => {
            let winner = e.winner.map_or("-".to_string(), |c| c.to_string());
            writeln!(
                w,
                "ending: {:?}, winner {winner}, text {:?}",
                e.kind, e.text
            )
            .unwrap();
            if let Some(foul) = &e.foul {
                writeln!(w, "foul: by {}: {} ({})", foul.by, foul.text, foul.reason).unwrap();
            }
        }
    }
    if let Some(trailer) = &record.trailer {
        writeln!(w, "trailer: {trailer}").unwrap();
    }
    writeln!(w, "warnings:").unwrap();
    for warning in &record.warnings {
        let text = if warning.text.is_empty() {
            String::new()
        } else {
            format!(" `{}`", warning.text)
        };
        writeln!(
            w,
            "  {}:{}: {}{text}",
            warning.line, warning.column, warning.message
        )
        .unwrap();
    }
    out
}

fn read(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).unwrap();
    let name = format!("fixtures/{}", path.file_name().unwrap().to_string_lossy());
    let read = read_bytes(&bytes, path, None, EncodingChoice::Auto).map_err(|e| e.render(&name))?;
    match read.errors.first() {
        Some(e) => Err(e.render(&name)),
        None => Ok(read.records),
    }
}

/// Every game of a file, one summary after another.
fn all_games(records: &[Record]) -> String {
    if records.len() == 1 {
        return summary(&records[0]);
    }
    let mut out = String::new();
    for (i, record) in records.iter().enumerate() {
        writeln!(out, "=== game {} of {}", i + 1, records.len()).unwrap();
        out.push_str(&summary(record));
    }
    out
}

/// Snapshots the games of every fixture `pattern` matches (see
/// [`all_games`]): a macro, so that each snapshot keeps its test's name.
macro_rules! snapshot_games {
    ($pattern:literal) => {
        insta::glob!("../../fixtures", $pattern, |path| {
            let records = read(path).unwrap_or_else(|e| panic!("{e}"));
            insta::assert_snapshot!(all_games(&records));
        })
    };
}

#[test]
fn csa_fixtures() {
    snapshot_games!("csa/*.csa");
}

#[test]
fn usi_fixtures() {
    snapshot_games!("usi/*");
}

#[test]
fn kif_fixtures() {
    snapshot_games!("kif/*.kif*");
}

#[test]
fn bod_fixtures() {
    // `.bod`: a KIF board diagram with no moves, read as a game with a
    // start and no moves.
    snapshot_games!("kif/*.bod");
}

#[test]
fn a_board_diagram_without_moves_is_told_by_its_content() {
    let bytes = std::fs::read("fixtures/kif/kifconv-board-only.bod").unwrap();
    let by_name = read_as(&bytes, "board.bod").unwrap();
    let by_content = read_as(&bytes, "board").unwrap();
    assert_eq!(by_content.records, by_name.records);
    assert_eq!(by_name.records.len(), 1);
    assert_eq!(by_name.records[0].tree.len(), 1, "no moves");
}

#[test]
fn ki2_fixtures() {
    snapshot_games!("ki2/*.ki2*");
}

#[test]
fn bad_fixtures_are_rendered_errors() {
    insta::glob!("../../fixtures", "bad/*", |path| {
        let rendered = match read(path) {
            Ok(records) => panic!(
                "{} read without error: {}",
                path.display(),
                summary(&records[0])
            ),
            Err(rendered) => rendered,
        };
        insta::assert_snapshot!(rendered);
    });
}

/// Files of several games, some broken: the good games, and each bad
/// game's error as the binary renders it.
#[test]
fn partial_fixtures_keep_the_good_games() {
    insta::glob!("../../fixtures", "partial/*", |path| {
        let bytes = std::fs::read(path).unwrap();
        let name = format!("fixtures/{}", path.file_name().unwrap().to_string_lossy());
        let read = read_bytes(&bytes, path, None, EncodingChoice::Auto)
            .unwrap_or_else(|e| panic!("{}", e.render(&name)));
        assert!(!read.records.is_empty(), "{name}: no good game");
        assert!(!read.errors.is_empty(), "{name}: no bad game");
        let mut out = all_games(&read.records);
        for error in &read.errors {
            out.push_str(&error.render(&name));
        }
        insta::assert_snapshot!(out);
    });
}

/// A syntax error in the second of three CSA games fails that game alone;
/// the empty game before the third is a warning on the third.
#[test]
fn a_csa_syntax_error_fails_only_its_own_game() {
    let path = Path::new("fixtures/partial/csa-bad-second-game.csa");
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    let read = read_bytes(&bytes, path, None, EncodingChoice::Auto).unwrap();
    let players: Vec<_> = read.records.iter().map(|r| r.header("N+")).collect();
    assert_eq!(players, [Some("black1"), Some("black3")]);
    assert_eq!(read.errors.len(), 1);
    let error = &read.errors[0];
    assert_eq!(
        (
            error.location.line,
            error.location.column,
            error.location.text.as_str()
        ),
        (19, 1, "-3334F")
    );
    let warnings = &read.records[1].warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].line, 23);
    assert!(
        warnings[0].message.contains("empty game"),
        "{}",
        warnings[0]
    );
}

/// The new dialects are told by their content alone, with no file name to
/// help: USEN and USI end tokens as USI, Shogi Wars' one-line form as CSA.
#[test]
fn dialects_are_sniffed_without_a_file_name() {
    use kifconv::read::Format;
    for (fixture, format) in [
        ("usi/tsshogi-written.usen", Format::Usi),
        ("usi/end-tokens.usi", Format::Usi),
        ("csa/wars-one-line.csa", Format::Csa),
        ("csa/wars-no-turn-line.csa", Format::Csa),
        ("csa/kifuforwindows-comma-space.csa", Format::Csa),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(fixture);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(Format::sniff(&text), Some(format), "{fixture}");
        let read = read_as(text.as_bytes(), "no-extension").unwrap();
        assert!(read.errors.is_empty(), "{fixture}: {:?}", read.errors);
        assert!(!read.records.is_empty(), "{fixture}");
    }
    // The one-line form's times: the decrease of the mover's seconds left.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa/wars-one-line.csa");
    let record = &read(&path).unwrap()[0];
    let spent: Vec<Option<u64>> = record
        .tree
        .mainline()
        .map(|id| record.tree.node(id).time.map(|t| t.spent_ms / 1000))
        .collect();
    assert_eq!(
        spent,
        [
            None,
            None,
            Some(10),
            Some(1),
            Some(19),
            Some(17),
            Some(5),
            Some(0),
            Some(6),
            Some(5),
            Some(1),
            Some(5),
            Some(7),
            Some(4),
            Some(12)
        ]
    );
}
