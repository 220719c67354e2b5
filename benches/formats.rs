//! Per-format, per-stage benchmarks: decode, parse (syntax only), resolve
//! (moves checked on a board and a record built), the whole read, and every
//! writer.
//!
//! Two sizes of input:
//! - `fixture`: every file of `fixtures/<format>/` (a few small records);
//! - `archive`: when `KIFCONV_BENCH_ARCHIVE` names a folder laid out like
//!   `../shared/bench` (`kif-sjis.zip`, `ki2-sjis.zip`, `csa.zip`,
//!   `games.usi`), its games: KIF, KI2 and CSA as the zips hold them
//!   (Shift_JIS), USI from `games.usi`, and JKF and Western written from
//!   the KIF records at set-up. `KIFCONV_BENCH_GAMES` keeps the first N.
//!
//! ```text
//! cargo bench --bench formats
//! KIFCONV_BENCH_ARCHIVE=../shared/bench cargo bench --bench formats
//! ```
//!
//! Throughput is reported in moves (mainline and variations) per second for
//! the stages that see moves, and in bytes per second for decoding.

use divan::counter::{BytesCount, ItemsCount};
use divan::{black_box, Bencher};
use kifconv::decode::{self, EncodingChoice, ExtensionHint};
use kifconv::read::{self as reading, read_bytes, read_games, Format, Parsed};
use kifconv::record::Record;
use kifconv::write::{write_files_read, Options, OutputEncoding};
use kifconv::Target;
use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Size {
    Fixture,
    Archive,
}

/// One input set: a format at a size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Case {
    format: Format,
    size: Size,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = match self.size {
            Size::Fixture => "fixture",
            Size::Archive => "archive",
        };
        write!(f, "{}/{size}", format_name(self.format))
    }
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::Kif => "kif",
        Format::Ki2 => "ki2",
        Format::Csa => "csa",
        Format::Usi => "usi",
        Format::Jkf => "jkf",
        Format::Western => "western",
        _ => unreachable!("a format this bench does not know"),
    }
}

const FORMATS: [Format; 6] = [
    Format::Kif,
    Format::Ki2,
    Format::Csa,
    Format::Usi,
    Format::Jkf,
    Format::Western,
];

/// The formats whose readers have a syntax stage separate from resolving
/// (JKF builds its record directly from JSON; a USI line is read and
/// played in one step).
const STAGED: [Format; 4] = [Format::Kif, Format::Ki2, Format::Csa, Format::Western];

struct Inputs {
    /// File names (for the extension hint) and bytes.
    files: Vec<(PathBuf, Vec<u8>)>,
    /// The same files decoded.
    texts: Vec<String>,
    /// Every record read from them.
    records: Vec<Record>,
    bytes: u64,
    moves: u64,
}

impl Inputs {
    fn new(format: Format, files: Vec<(PathBuf, Vec<u8>)>) -> Inputs {
        let texts: Vec<String> = files
            .iter()
            .map(|(path, bytes)| {
                decode::decode(bytes, EncodingChoice::Auto, ExtensionHint::from_path(path))
                    .text
                    .into_owned()
            })
            .collect();
        let records: Vec<Record> = texts
            .iter()
            .flat_map(|text| read_games(text, format).expect("bench inputs read"))
            .filter_map(Result::ok)
            .collect();
        Inputs {
            bytes: files.iter().map(|(_, b)| b.len() as u64).sum(),
            moves: records.iter().map(|r| r.tree.len() as u64 - 1).sum(),
            files,
            texts,
            records,
        }
    }
}

fn archive_dir() -> Option<PathBuf> {
    std::env::var_os("KIFCONV_BENCH_ARCHIVE").map(PathBuf::from)
}

fn game_limit() -> usize {
    std::env::var("KIFCONV_BENCH_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX)
}

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = FORMATS
        .iter()
        .map(|&format| Case {
            format,
            size: Size::Fixture,
        })
        .collect();
    if archive_dir().is_some() {
        cases.extend(FORMATS.iter().map(|&format| Case {
            format,
            size: Size::Archive,
        }));
    }
    cases
}

fn staged_cases() -> Vec<Case> {
    cases()
        .into_iter()
        .filter(|c| STAGED.contains(&c.format))
        .collect()
}

/// Every input set, loaded once.
fn inputs(case: Case) -> &'static Inputs {
    static ALL: OnceLock<Vec<(Case, Inputs)>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        // In order: the archive's JKF and Western are written from its KIF.
        let mut all: Vec<(Case, Inputs)> = Vec::new();
        for c in cases() {
            let loaded = load(c, &all);
            all.push((c, loaded));
        }
        all
    });
    &all.iter()
        .find(|(c, _)| *c == case)
        .expect("a listed case")
        .1
}

fn load(case: Case, loaded: &[(Case, Inputs)]) -> Inputs {
    match case.size {
        Size::Fixture => Inputs::new(case.format, fixture_files(case.format)),
        Size::Archive => {
            let dir = archive_dir().expect("archive cases only with the variable");
            let files = match case.format {
                Format::Kif => zip_files(&dir.join("kif-sjis.zip")),
                Format::Ki2 => zip_files(&dir.join("ki2-sjis.zip")),
                Format::Csa => zip_files(&dir.join("csa.zip")),
                Format::Usi => {
                    let text = std::fs::read_to_string(dir.join("games.usi")).expect("games.usi");
                    let lines: String = text
                        .lines()
                        .take(game_limit())
                        .flat_map(|l| [l, "\n"])
                        .collect();
                    vec![(PathBuf::from("games.usi"), lines.into_bytes())]
                }
                Format::Jkf | Format::Western => {
                    let kif = Case {
                        format: Format::Kif,
                        size: Size::Archive,
                    };
                    let (_, kif) = loaded.iter().find(|(c, _)| *c == kif).expect("KIF first");
                    written_from(case.format, &kif.records)
                }
                _ => unreachable!("a format this bench does not know"),
            };
            Inputs::new(case.format, files)
        }
    }
}

/// The options the writers are timed with: UTF-8 (so that encoding costs
/// a copy), CSA V3.0.
fn utf8() -> Options {
    let mut options = Options::default();
    options.encoding = Some(OutputEncoding::Utf8);
    options
}

fn written_from(format: Format, records: &[Record]) -> Vec<(PathBuf, Vec<u8>)> {
    let (target, extension) = match format {
        Format::Jkf => (Target::Jkf, "jkf"),
        _ => (Target::Western, "psn"),
    };
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let file = write_files_read(std::slice::from_ref(r), target, &utf8())
                .expect("writes")
                .remove(0);
            (PathBuf::from(format!("{i}.{extension}")), file)
        })
        .collect()
}

fn fixture_files(format: Format) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(format_name(format));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        // Keep the files that read whole in this format (the fixture
        // folders also hold records meant to end in an error).
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            read_bytes(&bytes, &p, Some(format), EncodingChoice::Auto)
                .ok()
                .filter(|r| r.errors.is_empty())?;
            Some((p, bytes))
        })
        .collect()
}

fn zip_files(path: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut archive = zip::ZipArchive::new(file).expect("a zip");
    let mut files = Vec::new();
    for i in 0..archive.len() {
        if files.len() == game_limit() {
            break;
        }
        let mut entry = archive.by_index(i).expect("an entry");
        if entry.is_dir() {
            continue;
        }
        let name = PathBuf::from(String::from_utf8_lossy(entry.name_raw()).into_owned());
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("entry bytes");
        files.push((name, bytes));
    }
    files
}

/// The syntax stage alone ([`kifconv::read::parse`]); only for the
/// [`STAGED`] formats, where it finds no move on a board.
fn parse_only(format: Format, text: &str) -> Parsed<'_> {
    assert!(STAGED.contains(&format), "no separate syntax stage");
    reading::parse(text, format).expect("parses")
}

/// Bytes to text: encoding detection and Shift_JIS (or UTF-8) decoding.
#[divan::bench(args = cases())]
fn decode(bencher: Bencher, case: Case) {
    let inputs = inputs(case);
    bencher.counter(BytesCount::new(inputs.bytes)).bench(|| {
        for (path, bytes) in &inputs.files {
            black_box(decode::decode(
                black_box(bytes),
                EncodingChoice::Auto,
                ExtensionHint::from_path(path),
            ));
        }
    });
}

/// Text to move specs and headers, no board.
#[divan::bench(args = staged_cases())]
fn parse(bencher: Bencher, case: Case) {
    let inputs = inputs(case);
    bencher.counter(ItemsCount::new(inputs.moves)).bench(|| {
        for text in &inputs.texts {
            black_box(parse_only(case.format, black_box(text)));
        }
    });
}

/// Move specs to records: every move found on the board and played.
#[divan::bench(args = staged_cases())]
fn resolve(bencher: Bencher, case: Case) {
    let inputs = inputs(case);
    bencher
        .counter(ItemsCount::new(inputs.moves))
        .with_inputs(|| {
            inputs
                .texts
                .iter()
                .map(|t| parse_only(case.format, t))
                .collect::<Vec<_>>()
        })
        .bench_values(|parsed| {
            for games in parsed {
                for game in games.resolve() {
                    black_box(game.expect("resolves"));
                }
            }
        });
}

/// The whole read, as the command line does it: bytes to records.
#[divan::bench(args = cases())]
fn read(bencher: Bencher, case: Case) {
    let inputs = inputs(case);
    bencher.counter(ItemsCount::new(inputs.moves)).bench(|| {
        for (path, bytes) in &inputs.files {
            black_box(
                read_bytes(
                    black_box(bytes),
                    path,
                    Some(case.format),
                    EncodingChoice::Auto,
                )
                .expect("reads"),
            );
        }
    });
}

/// Writers, fed the records read from the KIF inputs.
#[derive(Clone, Copy, Debug)]
struct Emit {
    to: &'static str,
    size: Size,
}

impl fmt::Display for Emit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let case = Case {
            format: Format::Kif,
            size: self.size,
        };
        write!(f, "{} from {case}", self.to)
    }
}

fn emit_cases() -> Vec<Emit> {
    const TARGETS: [&str; 8] = ["usi", "sfen", "kif", "ki2", "csa", "jkf", "western", "flip"];
    cases()
        .into_iter()
        .filter(|c| c.format == Format::Kif)
        .flat_map(|c| TARGETS.map(|to| Emit { to, size: c.size }))
        .collect()
}

#[divan::bench(args = emit_cases())]
fn write(bencher: Bencher, case: Emit) {
    let inputs = inputs(Case {
        format: Format::Kif,
        size: case.size,
    });
    let records = &inputs.records;
    let target = match case.to {
        "usi" => Some(Target::Usi),
        "sfen" => Some(Target::Sfen),
        "kif" => Some(Target::Kifu),
        "ki2" => Some(Target::Ki2u),
        "csa" => Some(Target::Csa),
        "jkf" => Some(Target::Jkf),
        "western" => Some(Target::Western),
        _ => None,
    };
    let options = utf8();
    bencher
        .counter(ItemsCount::new(inputs.moves))
        .bench(|| match (case.to, target) {
            // Each game on its own, as a folder of outputs gets it (a JKF
            // game is a pretty document), in UTF-8.
            (_, Some(target)) => records
                .iter()
                .map(|r| {
                    write_files_read(std::slice::from_ref(r), target, &options)
                        .expect("writes")
                        .iter()
                        .map(Vec::len)
                        .sum::<usize>()
                })
                .sum::<usize>(),
            ("flip", None) => records.iter().map(|r| r.flip().tree.len()).sum(),
            _ => unreachable!(),
        });
}
