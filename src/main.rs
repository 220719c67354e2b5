//! The `kifconv` command: arguments in, converted records out.

use clap::{Parser, ValueEnum};
use kifconv::decode::EncodingChoice;
use kifconv::emit::usi as usi_out;
use kifconv::read::{self, Format};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(version, about = "Convert shogi game records between formats")]
struct Args {
    /// The record to read: KIF, KIFU, KI2, KI2U, CSA, or USI position lines / SFEN.
    file: PathBuf,
    /// What to print for each game.
    #[arg(long, value_enum, default_value_t = Target::Usi)]
    to: Target,
    /// The input format, when the content and the file name do not tell.
    #[arg(long, value_enum)]
    from: Option<Source>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Target {
    /// The game as a USI position line.
    Usi,
    /// The position after the last mainline move, as SFEN.
    Sfen,
    /// KIF in UTF-8 (Kakinoki's format; `kif` is the same in Shift_JIS).
    Kifu,
    /// KIF in Shift_JIS (CP932).
    Kif,
    /// KI2 in UTF-8.
    Ki2u,
    /// KI2 in Shift_JIS (CP932).
    Ki2,
    /// CSA V3.0 (several games separated by `/`).
    Csa,
    /// Western (Hodges) notation with tags.
    Western,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Source {
    Kif,
    Ki2,
    Csa,
    Usi,
    Western,
    Jkf,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let display = args.file.display().to_string();
    let bytes = match std::fs::read(&args.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{display}: error: {e}");
            return ExitCode::from(2);
        }
    };
    let format = args.from.map(|source| match source {
        Source::Kif => Format::Kif,
        Source::Ki2 => Format::Ki2,
        Source::Csa => Format::Csa,
        Source::Usi => Format::Usi,
        Source::Western => Format::Western,
        Source::Jkf => Format::Jkf,
    });
    match convert_record(&bytes, &args.file, &display, format, args.to) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => ExitCode::from(code),
    }
}

fn convert_record(
    bytes: &[u8],
    path: &Path,
    display: &str,
    format: Option<Format>,
    to: Target,
) -> Result<(), u8> {
    let read = read::read_bytes(bytes, path, format, EncodingChoice::Auto).map_err(|e| {
        eprint!("{}", e.render(display));
        1
    })?;
    let mut out = std::io::stdout().lock();
    for record in &read.records {
        for warning in &record.warnings {
            let quoted = if warning.text.is_empty() {
                String::new()
            } else {
                format!(": `{}`", warning.text)
            };
            eprintln!(
                "{display}:{}:{}: warning: {}{quoted}",
                warning.line, warning.column, warning.message
            );
        }
        let bytes = match to {
            Target::Usi => format!("{}\n", usi_out::position_line(record)).into_bytes(),
            Target::Sfen => format!("{}\n", usi_out::final_sfen(record)).into_bytes(),
            Target::Kifu => kifconv::emit::kif::write(record, "UTF-8").into_bytes(),
            Target::Kif => {
                let text = kifconv::emit::kif::write(record, "Shift_JIS");
                encoding_rs::SHIFT_JIS.encode(&text).0.into_owned()
            }
            Target::Ki2u => kifconv::emit::ki2::write(record).into_bytes(),
            Target::Csa => kifconv::emit::csa::write(record, Default::default()).into_bytes(),
            Target::Western => kifconv::emit::western::write(record).into_bytes(),
            Target::Ki2 => {
                let text = kifconv::emit::ki2::write(record);
                encoding_rs::SHIFT_JIS.encode(&text).0.into_owned()
            }
        };
        if out.write_all(&bytes).is_err() {
            return Ok(()); // a closed pipe ends quietly
        }
    }
    for error in &read.errors {
        eprint!("{}", error.render(display));
    }
    if read.errors.is_empty() {
        Ok(())
    } else {
        Err(1)
    }
}
