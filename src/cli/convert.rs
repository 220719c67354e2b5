//! One input through the library: read its games, transform them (flip,
//! mainline only), render them in the target format, encode the text.

use super::args::{Config, Destination, OutputEncoding, Positions, Target};
use kifconv::format::{
    csa::write as csa, jkf::write as jkf, ki2::write as ki2, kif::write as kif, usi::write as usi,
    western::write as western,
};
use kifconv::read::read_bytes;
use kifconv::record::Record;
use std::path::Path;

/// What converting one input gave: outputs (one per file to write: several
/// when a multi-game input goes to a one-game format), the rendered
/// warnings, and the errors of the games that failed.
#[derive(Debug, Default)]
pub struct Converted {
    pub outputs: Vec<Vec<u8>>,
    pub games: usize,
    pub moves: usize,
    pub warnings: Vec<String>,
    pub errors: Vec<String>,
}

/// Converts one input's bytes. `Err` is a failure of the whole input (it
/// could not be read at all); failed games of a multi-game input are in
/// `errors` beside the games that converted.
pub fn convert(
    bytes: &[u8],
    name: &str,
    path: &Path,
    config: &Config,
) -> Result<Converted, String> {
    let read = read_bytes(bytes, path, config.from, config.encoding).map_err(|e| e.render(name))?;
    let mut out = Converted {
        errors: read.errors.iter().map(|e| e.render(name)).collect(),
        ..Converted::default()
    };
    let mut records = Vec::with_capacity(read.records.len());
    for record in read.records {
        for w in &record.warnings {
            out.warnings.push(w.render(name));
        }
        let record = if config.mainline_only {
            record.mainline_only()
        } else {
            record
        };
        let record = if config.flip { record.flip() } else { record };
        out.games += 1;
        out.moves += record.tree.mainline().count();
        records.push(record);
    }
    if records.is_empty() {
        return Ok(out);
    }
    if let Some(w) = super::lost::warning(&records, config.target, config.mainline_only) {
        out.warnings.push(format!("{name}: warning: {w}"));
    }
    for text in render(&records, config).map_err(|e| format!("{name}: error: {e}\n"))? {
        out.outputs
            .push(encode(&text, config.out_encoding).map_err(|e| format!("{name}: error: {e}"))?);
    }
    Ok(out)
}

/// The texts to write: one for line and multi-game formats, one per game
/// for KIF and KI2.
fn render(records: &[Record], config: &Config) -> Result<Vec<String>, String> {
    Ok(match config.target {
        Target::Usi => vec![lines(records.iter().map(usi::position_line))],
        Target::Sfen => {
            let mut text = String::new();
            for record in records {
                match config.positions {
                    Positions::Last => push_line(&mut text, &usi::final_sfen(record)),
                    Positions::All => usi::all_plies(record)
                        .iter()
                        .for_each(|l| push_line(&mut text, l)),
                    Positions::AfterPlies(n) => match usi::sfen_after(record, n) {
                        Some(sfen) => push_line(&mut text, &sfen),
                        None => {
                            return Err(format!(
                                "--ply {n}: the mainline has only {} moves",
                                record.tree.mainline().count()
                            ))
                        }
                    },
                }
            }
            vec![text]
        }
        Target::Kif => records
            .iter()
            .map(|r| kif::write(r, declared(config)))
            .collect(),
        Target::Kifu => records
            .iter()
            .map(|r| kif::write(r, declared(config)))
            .collect(),
        Target::Ki2 | Target::Ki2u => records
            .iter()
            .map(|r| ki2::write_declared(r, declared(config)))
            .collect(),
        Target::Csa => vec![csa::write_all(
            records,
            config.csa_version,
            declared(config),
        )],
        // A file of one game is a pretty document; several games, and
        // anything to standard output (where inputs follow one another),
        // are NDJSON: one game a line.
        Target::Jkf if records.len() == 1 && config.destination != Destination::Stdout => {
            vec![jkf::write(&records[0])]
        }
        Target::Jkf => vec![jkf::write_all(records)],
        Target::Western => {
            let games: Vec<String> = records.iter().map(western::write).collect();
            vec![games.join("\n")]
        }
    })
}

/// The encoding name a KIF `#KIF` line declares.
fn declared(config: &Config) -> &'static str {
    match config.out_encoding {
        OutputEncoding::Sjis => "Shift_JIS",
        OutputEncoding::Utf8 => "UTF-8",
    }
}

fn push_line(text: &mut String, line: &str) {
    text.push_str(line);
    text.push('\n');
}

fn lines(items: impl Iterator<Item = String>) -> String {
    let mut text = String::new();
    for line in items {
        push_line(&mut text, &line);
    }
    text
}

/// Encodes text; Shift_JIS refuses characters CP932 does not have rather
/// than writing them as `&#…;` and losing them.
pub fn encode(text: &str, encoding: OutputEncoding) -> Result<Vec<u8>, String> {
    match encoding {
        OutputEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
        OutputEncoding::Sjis => {
            let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
            if had_errors {
                let bad = text
                    .chars()
                    .find(|c| {
                        let mut buf = [0u8; 4];
                        encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2
                    })
                    .unwrap_or('?');
                return Err(format!(
                    "`{bad}` cannot be written in Shift_JIS (CP932); use --out-encoding utf-8 or --to kifu/ki2u"
                ));
            }
            Ok(bytes.into_owned())
        }
    }
}
