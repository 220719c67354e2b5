//! The `kifconv` command: arguments in, converted records out.

use clap::{Parser, ValueEnum};
use kifconv::parse::usi;
use kifconv::{KingRule, Position};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(version, about = "Convert shogi game records between formats")]
struct Args {
    /// The record to read (for now: a file of USI position lines).
    file: PathBuf,
    /// What to print for each game.
    #[arg(long, value_enum, default_value_t = Target::Sfen)]
    to: Target,
}

#[derive(Clone, Copy, ValueEnum)]
enum Target {
    /// The position after the last move, as SFEN.
    Sfen,
    /// The game as a USI position line.
    Usi,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let path = args.file.display();
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        match convert(line, args.to) {
            Ok(out) => println!("{out}"),
            Err(message) => {
                eprintln!("{path}:{}: error: {message}\n  | {line}", i + 1);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn convert(line: &str, to: Target) -> Result<String, String> {
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
