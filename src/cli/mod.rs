//! The `kifconv` command: arguments in, a checked configuration, the batch
//! runner or a small tool, an exit code out (0 converted, 1 some inputs
//! failed, 2 usage or fatal error).

mod archive;
mod args;
mod batch;
mod convert;
mod entries;
mod filter;
mod inputs;
mod output;
mod report;
mod tools;
mod walk;

use args::{Cli, Command};
use clap::{CommandFactory, Parser};

/// Runs the command line; returns the exit code.
pub fn run() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Some(Command::Flip { sfen, moves }) => tools::flip(&sfen, &moves),
        Some(Command::Mate { sfen }) => tools::mate(&sfen),
        // Rendered whole, then written: a closed pipe or a full disk is
        // handled in one place, never a panic.
        Some(Command::Completions { shell }) => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "kifconv", &mut text);
            tools::print(&text)
        }
        Some(Command::Man) => {
            let mut text = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut text) {
                Ok(()) => tools::print(&text),
                Err(e) => {
                    eprintln!("error: cannot render the manual page: {e}");
                    2
                }
            }
        }
        None => match cli.convert.into_config() {
            Ok(config) => batch::run(&config),
            Err(message) => {
                eprintln!("error: {message}");
                2
            }
        },
    }
}
