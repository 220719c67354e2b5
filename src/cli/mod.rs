//! The `kifconv` command: arguments in, a plan and a job for the batch
//! library ([`crate::batch`]) or a small tool, an exit code out (0
//! converted, 1 some inputs failed, 2 usage or fatal error). `args.rs`
//! holds clap's definitions; each command is a file that checks its
//! arguments and says the outcome.
//!
//! It lives in the library, behind the default `cli` feature; its one
//! public item is [`main`], which the `kifconv` binary calls. A library
//! built without the feature has none of the command's dependencies (clap,
//! indicatif, mimalloc).

mod analyze;
mod args;
mod book;
mod book_mine;
mod convert;
mod engine;
mod games;
mod report;
mod run;
#[cfg(feature = "serve")]
mod serve;
mod tools;
mod train;
mod tsume;
mod tsume_extract;

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

/// A usage or fatal error: `error: MESSAGE` on standard error, and the
/// exit code that says so (2).
fn fatal(message: impl std::fmt::Display) -> u8 {
    eprintln!("error: {message}");
    2
}

/// The command with every subcommand's display name set
/// (`kifconv-book-build`), as its manual pages are named.
fn built_command() -> clap::Command {
    let mut command = Cli::command();
    command.build();
    command
}

/// Prints the manual page of kifconv, or of the subcommand `path` names.
fn man_page(path: &[String]) -> u8 {
    let mut command = built_command();
    for name in path {
        match command.find_subcommand(name) {
            Some(sub) => command = sub.clone(),
            None => return fatal(format_args!("no subcommand `{}`", path.join(" "))),
        }
    }
    let mut text = Vec::new();
    match clap_mangen::Man::new(command).render(&mut text) {
        Ok(()) => tools::print(&text),
        Err(e) => fatal(format_args!("cannot render the manual page: {e}")),
    }
}

/// Writes a page for kifconv and for each subcommand into `dir`, each as
/// `<name>.1`; a page already there is replaced only with `force`.
fn man_pages(dir: &std::path::Path, force: bool) -> u8 {
    let mut pages = Vec::new();
    let mut stack = vec![built_command()];
    while let Some(command) = stack.pop() {
        // clap's own `help` subcommands are no pages of ours.
        stack.extend(
            command
                .get_subcommands()
                .filter(|c| c.get_name() != "help")
                .cloned(),
        );
        let name = command
            .get_display_name()
            .unwrap_or(command.get_name())
            .to_string();
        pages.push((dir.join(format!("{name}.1")), command));
    }
    if !force {
        if let Some((path, _)) = pages.iter().find(|(path, _)| path.exists()) {
            eprintln!(
                "error: {} exists; give --force to replace it",
                path.display()
            );
            return 2;
        }
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return fatal(format_args!("cannot create {}: {e}", dir.display()));
    }
    for (path, command) in pages {
        let mut text = Vec::new();
        let written = clap_mangen::Man::new(command)
            .render(&mut text)
            .and_then(|()| std::fs::write(&path, &text));
        if let Err(e) = written {
            return fatal(format_args!("cannot write {}: {e}", path.display()));
        }
    }
    0
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
            timed: true,
        }) => tsume::mate_timed(&sfen, depth, nodes),
        Some(Command::Mate {
            sfen,
            depth: Some(depth),
            nodes,
            ..
        }) => tsume::mate(&sfen, depth, nodes),
        Some(Command::Tsume { action }) => match action {
            args::TsumeCommand::Check(args) => tsume::check(args),
            args::TsumeCommand::Generate(args) => tsume::generate(&args),
            args::TsumeCommand::Extract(args) => tsume_extract::extract(args),
        },
        Some(Command::Analyze(args)) => analyze::run(args),
        Some(Command::Book { action }) => match action {
            args::BookCommand::Build(args) => book::build(args),
            args::BookCommand::Query(args) => book::query(args),
            args::BookCommand::Merge(args) => book::merge(args),
            args::BookCommand::Check(args) => book::check(args),
            args::BookCommand::Sort(args) => book::sort(args),
            args::BookCommand::Convert(args) => book::convert(args),
            args::BookCommand::PetaShock(args) => book::peta_shock(args),
            args::BookCommand::Mine(args) => book_mine::mine(args),
        },
        Some(Command::Train { action }) => match action {
            args::TrainCommand::Shuffle(args) => train::shuffle(args),
            args::TrainCommand::Split(args) => train::split(args),
            args::TrainCommand::Uniq(args) => train::uniq(args),
            args::TrainCommand::Filter(args) => train::filter(args),
            args::TrainCommand::Convert(args) => train::convert(args),
            args::TrainCommand::Check(args) => train::check(args),
        },
        Some(Command::Engine { action }) => match action {
            args::EngineCommand::Check(args) => engine::check(args),
        },
        // Rendered whole, then written: a closed pipe or a full disk is
        // handled in one place, never a panic.
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Completions { shell }) => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "kifconv", &mut text);
            tools::print(&text)
        }
        Some(Command::Man {
            dir: Some(dir),
            force,
            ..
        }) => man_pages(&dir, force),
        Some(Command::Man { command, .. }) => man_page(&command),
        None => convert::run(cli.convert),
    }
}
