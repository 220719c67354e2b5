//! The `kifconv` command: arguments in, a checked configuration, the batch
//! runner or a small tool, an exit code out (0 converted, 1 some inputs
//! failed, 2 usage or fatal error).
//!
//! It lives in the library, behind the default `cli` feature, so that it can
//! use the crate's internals while library users see none of them: its
//! public items are [`main`], which the `kifconv` binary calls, and
//! [`api::run`], the batch runner for programs (the Python package). A library built
//! with `default-features = false` has no `cli` module and none of its
//! dependencies (clap, indicatif, the archive readers, mimalloc).

pub mod api;
mod archive;
mod args;
mod batch;
mod book;
mod convert;
mod entries;
mod filter;
mod inputs;
mod output;
mod report;
mod tools;
mod tsume;
mod walk;

use args::{Cli, Command};
use clap::{CommandFactory, Parser};

/// Runs the `kifconv` command on this process's arguments, standard input
/// and output, and returns its exit code: 0 when every input was converted,
/// 1 when some failed, 2 on a usage or fatal error. Everything it reports
/// goes to standard output and standard error itself.
///
/// The whole of the binary's `main`:
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     kifconv::cli::main()
/// }
/// ```
pub fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run())
}

/// When the first argument names a subcommand and also a file or folder
/// here (a folder named `book`), how to give it as an input instead.
fn subcommand_path_hint() -> Option<String> {
    let first = std::env::args_os().nth(1)?;
    let name = first.to_str()?;
    let command = Cli::command();
    let is_subcommand = command.get_subcommands().any(|c| c.get_name() == name);
    (is_subcommand && std::path::Path::new(name).exists()).then(|| {
        format!("note: `{name}` is a subcommand; to read the file or folder named {name}, write ./{name}")
    })
}

/// Runs the command line; returns the exit code.
fn run() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            if e.use_stderr() {
                if let Some(hint) = subcommand_path_hint() {
                    eprintln!("{hint}");
                }
            }
            return code;
        }
    };
    match cli.command {
        Some(Command::Flip { sfen, moves }) => tools::flip(&sfen, &moves),
        Some(Command::Mate {
            sfen, depth: None, ..
        }) => tools::mate(&sfen),
        Some(Command::Mate {
            sfen,
            depth: Some(depth),
            nodes,
        }) => tsume::mate(&sfen, depth, nodes),
        Some(Command::Tsume { action }) => match action {
            args::TsumeCommand::Check(args) => tsume::check(&args),
            args::TsumeCommand::Generate(args) => tsume::generate(&args),
        },
        Some(Command::Book { action }) => match action {
            args::BookCommand::Build(args) => book::build(args),
            args::BookCommand::Query(args) => book::query(args),
            args::BookCommand::Merge(args) => book::merge(args),
        },
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
