//! Round trips of the command's output and sniffing of every writer's:
//! what a user sees of the writers, through the public API. The round trips
//! that compare a record with what each format holds (which needs the
//! formats' own tables) are unit tests in src/format/round_trip.rs.

use crate::util::files::{fixture_records, fixtures, under};
use crate::util::shared::shared;
use crate::util::write::{stream, text, usi_line};
use kifconv::decode::{decode, Encoding, EncodingChoice, ExtensionHint};
use kifconv::read::{read_games, read_text, Format};
use kifconv::record::Record;
use kifconv::write::{write_read, CsaVersion, Options, OutputEncoding};
use kifconv::Target;
use std::path::Path;

/// A one-game file whose `#KIF` line is not its first line is still one
/// game; a second declaration after a game's lines starts a second game.
#[test]
fn only_a_declaration_after_a_game_starts_another() {
    let one = "# ---- Kifu for Windows ----\n#KIF version=2.0 encoding=UTF-8\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    assert_eq!(read_games(one, Format::Kif).unwrap().len(), 1);
    let two = format!("{one}\n#KIF version=2.0 encoding=UTF-8\n   1 ２六歩(27)\n");
    let games = read_games(&two, Format::Kif).unwrap();
    let moves: Vec<String> = games
        .iter()
        .map(|g| usi_line(g.as_ref().unwrap()))
        .collect();
    assert_eq!(
        moves,
        [
            "position startpos moves 7g7f",
            "position startpos moves 2g2f"
        ]
    );
    // A `#KI2` line in the middle of a line is no declaration.
    let ki2 = "▲７六歩 △３四歩\n*#KI2 version=2.0\n▲２六歩\n";
    assert_eq!(read_games(ki2, Format::Ki2).unwrap().len(), 1);
}

/// Every writer's output of every fixture is recognised as that writer's
/// format by its content alone.
#[test]
fn every_writers_output_is_sniffed_as_its_format() {
    let records = fixture_records();
    let check = |name: &str, writer: &str, text: &str, format: Format| {
        assert_eq!(
            Format::sniff(text),
            Some(format),
            "{name} written by {writer}:\n{}",
            text.lines().take(12).collect::<Vec<_>>().join("\n")
        );
    };
    for (name, record) in &records {
        let one = std::slice::from_ref(record);
        check(name, "KIF", &text(record, Target::Kif), Format::Kif);
        check(name, "KI2", &text(record, Target::Ki2), Format::Ki2);
        // KI2 as the command writes it by default: Shift_JIS, declared so
        // (a record Shift_JIS cannot hold is not written at all).
        if let Ok(bytes) = write_read(one, Target::Ki2, &Options::default()) {
            let decoded = decode(
                &bytes,
                EncodingChoice::Forced(Encoding::Cp932),
                ExtensionHint::None,
            );
            assert!(decoded
                .text
                .starts_with("#KI2 version=2.0 encoding=Shift_JIS\n"));
            check(name, "KI2 in Shift_JIS", &decoded.text, Format::Ki2);
        }
        for version in [CsaVersion::V3_0, CsaVersion::V2_2] {
            let mut options = Options::default();
            options.encoding = Some(OutputEncoding::Utf8);
            options.csa_version = version;
            let csa = String::from_utf8(write_read(one, Target::Csa, &options).unwrap()).unwrap();
            check(name, &format!("CSA {version:?}"), &csa, Format::Csa);
        }
        check(
            name,
            "Western",
            &text(record, Target::Western),
            Format::Western,
        );
        check(name, "JKF", &text(record, Target::Jkf), Format::Jkf);
        let two = [record.clone(), record.clone()];
        check(
            name,
            "JKF (NDJSON)",
            &stream(&two, Target::Jkf),
            Format::Jkf,
        );
        check(name, "USI", &usi_line(record), Format::Usi);
    }
}

/// `$KEY：value` is a Japanese header (a CSA key kept by the KIF and KI2
/// writers), `$KEY:value` a CSA one.
#[test]
fn dollar_headers_are_sniffed_by_their_colon() {
    let ki2 = "$START：2019/03/01 13:25:52\n▲７六歩    △３四歩\n";
    assert_eq!(Format::sniff(ki2), Some(Format::Ki2));
    let kif = "$START：2019/03/01 13:25:52\n手数----指手---------消費時間--\n";
    assert_eq!(Format::sniff(kif), Some(Format::Kif));
    let csa = "$START_TIME:2019/03/01 13:25:52\nPI\n+\n+7776FU\n";
    assert_eq!(Format::sniff(csa), Some(Format::Csa));
}

/// What the binary's output of `records` (in `--to` format `flag`) should
/// read back as: the same records written by the library and read back.
fn library_round_trip(records: &[Record], flag: &str) -> Vec<Record> {
    let text = match flag {
        "usi" => stream(records, Target::Usi),
        "sfen" => stream(records, Target::Sfen),
        "kif" | "kifu" => stream(records, Target::Kifu),
        "ki2" | "ki2u" => stream(records, Target::Ki2u),
        "csa" => stream(records, Target::Csa),
        "jkf" => stream(records, Target::Jkf),
        "western" => stream(records, Target::Western),
        other => panic!("{other}"),
    };
    let format = match flag {
        "usi" | "sfen" => Format::Usi,
        "kif" | "kifu" => Format::Kif,
        "ki2" | "ki2u" => Format::Ki2,
        "csa" => Format::Csa,
        "jkf" => Format::Jkf,
        _ => Format::Western,
    };
    read_text(&text, format).unwrap()
}

/// What two records must share to be the same game as read back.
fn same_game(a: &Record, b: &Record) -> bool {
    a.start == b.start && a.headers == b.headers && a.tree == b.tree && a.handicap == b.handicap
}

/// The issue's bar for the binary: every fixture and every corpus file,
/// converted to every output format, to standard output (every input into
/// one stream) and with `-o` (a file per input, or per game where the
/// format holds one), reads back (its format sniffed from the bytes) as
/// the games the library writes and reads back, which the round trips above
/// hold to the original games as far as each format can.
#[test]
fn the_binary_output_of_every_file_reads_back() {
    let Some(corpus) = shared("corpus") else {
        return;
    };
    let mut paths = under(&fixtures(), &["bad"]);
    paths.extend(under(&corpus, &["bad"]));
    paths.sort();
    // Every file that reads whole, with its games.
    let inputs: Vec<(std::path::PathBuf, Vec<Record>)> = paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            let read = kifconv::read::read_bytes(&bytes, &path, None, Default::default()).ok()?;
            (read.errors.is_empty() && !read.records.is_empty()).then_some((path, read.records))
        })
        .collect();
    assert!(inputs.len() > 400, "{} inputs", inputs.len());
    let scratch = std::env::temp_dir().join(format!("kifconv-write-back-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let args: Vec<&str> = inputs.iter().map(|(p, _)| p.to_str().unwrap()).collect();
    let sniffed = |bytes: &[u8]| {
        kifconv::read::read_bytes(bytes, Path::new("output"), None, Default::default())
            .unwrap_or_else(|e| panic!("{}", e.render("output")))
    };
    for flag in [
        "usi", "sfen", "kif", "kifu", "ki2", "ki2u", "csa", "jkf", "western",
    ] {
        let out_dir = scratch.join(flag);
        let report = scratch.join(format!("{flag}.tsv"));
        // Which inputs the binary refused, and why: only text that
        // Shift_JIS cannot hold, for the Shift_JIS formats.
        let failed = |report: &Path| -> Vec<String> {
            let text = std::fs::read_to_string(report).unwrap();
            text.lines()
                .skip(1)
                .filter(|l| l.split('\t').nth(1) != Some("ok"))
                .map(|l| {
                    assert!(
                        matches!(flag, "kif" | "ki2")
                            && l.contains("cannot be written in Shift_JIS"),
                        "{flag}: {l}"
                    );
                    l.split('\t').next().unwrap().to_string()
                })
                .collect()
        };
        for to_stdout in [true, false] {
            let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_kifconv"));
            command
                .args(&args)
                .args(["--to", flag, "-q", "--report", report.to_str().unwrap()]);
            if !to_stdout {
                command.args(["-o", out_dir.to_str().unwrap()]);
            }
            let out = command.output().unwrap();
            let refused = failed(&report);
            let kept: Vec<&(std::path::PathBuf, Vec<Record>)> = inputs
                .iter()
                .filter(|(p, _)| !refused.contains(&p.display().to_string()))
                .collect();
            if to_stdout {
                let back = sniffed(&out.stdout);
                assert!(back.errors.is_empty(), "{flag}: {:?}", back.errors.first());
                let expected: Vec<Record> = kept
                    .iter()
                    .flat_map(|(_, records)| library_round_trip(records, flag))
                    .collect();
                assert_eq!(
                    back.records.len(),
                    expected.len(),
                    "{flag} to standard output"
                );
                for (i, (a, b)) in back.records.iter().zip(&expected).enumerate() {
                    assert!(
                        same_game(a, b),
                        "{flag} to standard output: game {i}\n{a:?}\n{b:?}"
                    );
                }
                continue;
            }
            // With -o: the report names each input's outputs.
            let text = std::fs::read_to_string(&report).unwrap();
            let outputs: std::collections::HashMap<&str, Vec<&str>> = text
                .lines()
                .skip(1)
                .map(|l| {
                    let cols: Vec<&str> = l.split('\t').collect();
                    (
                        cols[0],
                        cols[6].split(" | ").filter(|s| !s.is_empty()).collect(),
                    )
                })
                .collect();
            for (path, records) in kept {
                let name = path.display().to_string();
                let mut back = Vec::new();
                for file in &outputs[name.as_str()] {
                    let read = sniffed(&std::fs::read(file).unwrap());
                    assert!(read.errors.is_empty(), "{flag}: {file}");
                    back.extend(read.records);
                }
                let expected = library_round_trip(records, flag);
                assert_eq!(back.len(), expected.len(), "{flag} -o: {name}");
                for (a, b) in back.iter().zip(&expected) {
                    assert!(same_game(a, b), "{flag} -o: {name}\n{a:?}\n{b:?}");
                }
            }
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// Found by the mutation test: Western text `▲７六歩 △３四歩` reads as two
/// unknown terminal words; KIF must not write the first as a line that
/// reads back as a move (a side mark starts a move in KIF).
#[test]
fn an_unknown_ending_word_that_looks_like_a_move_is_not_written_as_one() {
    let records = read_text("▲７六歩    △３四歩\n", Format::Western).unwrap();
    assert_eq!(records[0].tree.len(), 1, "no move");
    for (target, format) in [(Target::Kif, Format::Kif), (Target::Ki2, Format::Ki2)] {
        let back = read_text(&text(&records[0], target), format).unwrap();
        assert_eq!(back[0].tree.mainline().count(), 0, "{target:?}");
    }
}

/// Found by the mutation soak: a comment with a lone CR in it (a JKF string
/// can hold one) was written on one line, and every reader ends a line at
/// a CR, so CSA read the rest of the comment as a line of CSA and failed,
/// and the other formats read it as something else than a comment. The
/// JKF reader now cuts such a comment (or header) into the lines the text
/// readers would read, every writer cuts a comment it is given (a library
/// user's, say) at every kind of line ending, and CSA keeps a header value
/// with a line break as a comment, as KIF, KI2 and Western do.
#[test]
fn a_comment_with_a_carriage_return_is_written_as_its_lines() {
    let jkf = r#"{"header":{"棋戦":"e\rf"},"moves":[{},
        {"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU","color":0},
         "comments":["a\r\nb\rc"]},
        {"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","color":1},
         "comments":["x\ry"]}]}"#;
    let mut record = read_text(jkf, Format::Jkf).unwrap().remove(0);
    let comments = |record: &Record| -> Vec<String> {
        let tree = &record.tree;
        tree.mainline()
            .flat_map(|id| tree.node(id).comments().to_vec())
            .collect()
    };
    let lines = ["a", "b", "c", "x", "y"];
    assert_eq!(comments(&record), lines);
    // A header of several lines is several headers, as with LF.
    let values: Vec<_> = record.headers.iter().map(|h| h.value.as_str()).collect();
    assert_eq!(values, ["e", "f"]);
    // The same comments, and a header with a CR, as a library user might
    // set them.
    record.headers = vec![kifconv::record::Header {
        key: "棋戦".into(),
        value: "e\rf".into(),
    }];
    let ids: Vec<_> = record.tree.mainline().collect();
    record.tree.node_mut(ids[0]).notes_mut().comments = vec!["a\r\nb\rc".into()];
    record.tree.node_mut(ids[1]).notes_mut().comments = vec!["x\ry".into()];
    let moves = |record: &Record| record.tree.mainline_moves().collect::<Vec<_>>();
    for (target, format) in [
        (Target::Kifu, Format::Kif),
        (Target::Ki2u, Format::Ki2),
        (Target::Csa, Format::Csa),
        (Target::Jkf, Format::Jkf),
        (Target::Western, Format::Western),
    ] {
        let written = text(&record, target);
        assert!(!written.contains('\r'), "{target:?}:\n{written}");
        let back = read_text(&written, format)
            .unwrap_or_else(|e| panic!("{target:?}: {}\n{written}", e.render("written")));
        assert_eq!(moves(&back[0]), moves(&record), "{target:?}:\n{written}");
        assert_eq!(comments(&back[0]), lines, "{target:?}:\n{written}");
        assert!(
            back[0].warnings.is_empty(),
            "{target:?}: {:?}",
            back[0].warnings
        );
    }
}
