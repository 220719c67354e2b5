//! The `kifconv` command: arguments in, converted records out.

use clap::{Parser, ValueEnum};
use kifconv::decode::EncodingChoice;
use kifconv::emit::usi as usi_out;
use kifconv::parse::usi;
use kifconv::read::{self, Format};
use kifconv::{KingRule, Position};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(version, about = "Convert shogi game records between formats")]
struct Args {
    /// The record to read: KIF, KIFU, KI2, KI2U, or USI position lines.
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
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Source {
    Kif,
    Ki2,
    Usi,
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
    let is_usi = args.from == Some(Source::Usi)
        || args.from.is_none() && matches!(extension(&args.file).as_deref(), Some("usi" | "sfen"));
    let result = if is_usi {
        convert_usi_lines(&bytes, &display, args.to)
    } else {
        let format = match args.from {
            Some(Source::Kif) => Some(Format::Kif),
            Some(Source::Ki2) => Some(Format::Ki2),
            _ => None,
        };
        convert_record(&bytes, &args.file, &display, format, args.to)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => ExitCode::from(code),
    }
}

fn extension(path: &Path) -> Option<String> {
    Some(path.extension()?.to_str()?.to_ascii_lowercase())
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
        let line = match to {
            Target::Usi => usi_out::position_line(record),
            Target::Sfen => usi_out::final_sfen(record),
        };
        if writeln!(out, "{line}").is_err() {
            return Ok(()); // a closed pipe ends quietly
        }
    }
    Ok(())
}

fn convert_usi_lines(bytes: &[u8], display: &str, to: Target) -> Result<(), u8> {
    let text = String::from_utf8_lossy(bytes);
    let mut failed = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        match convert_usi_line(line, to) {
            Ok(out) => println!("{out}"),
            Err(message) => {
                eprintln!("{display}:{}: error: {message}\n  | {line}", i + 1);
                failed = true;
            }
        }
    }
    if failed {
        Err(1)
    } else {
        Ok(())
    }
}

fn convert_usi_line(line: &str, to: Target) -> Result<String, String> {
    let parsed = usi::parse_line(line).map_err(|e| e.to_string())?;
    let mut pos = Position::from_setup(parsed.start.clone(), KingRule::MayBeMissing)
        .map_err(|e| e.to_string())?;
    for (ply, text) in parsed.moves.iter().enumerate() {
        pos.play_usi(text, ply as u32 + 1)
            .map_err(|e| e.to_string())?;
    }
    Ok(match to {
        Target::Sfen => pos.sfen(),
        Target::Usi => {
            let start = if parsed.startpos {
                "startpos".to_string()
            } else {
                format!("sfen {}", parsed.start.sfen())
            };
            let mut out = format!("position {start}");
            if !parsed.moves.is_empty() {
                out.push_str(" moves ");
                out.push_str(&parsed.moves.join(" "));
            }
            out
        }
    })
}
