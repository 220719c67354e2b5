//! The `kifconv` command: arguments in, a checked configuration, the batch
//! runner or a small tool, an exit code out (0 converted, 1 some inputs
//! failed, 2 usage or fatal error).

mod args;
mod batch;
mod convert;
mod inputs;
mod tools;

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
        Some(Command::Completions { shell }) => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "kifconv",
                &mut std::io::stdout(),
            );
            0
        }
        Some(Command::Man) => {
            let man = clap_mangen::Man::new(Cli::command());
            match man.render(&mut std::io::stdout()) {
                Ok(()) => 0,
                Err(_) => 2,
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
