//! `kifconv engine check`: the USI conformance report of
//! [`crate::usi::check`], printed row by row, with its exit code.

use super::args::EngineCheckArgs;
use super::fatal;
use crate::usi::check::{self, Settings};

/// Runs the checks and prints the report: exit 0 when every check passed,
/// 1 when any failed, 2 when the engine cannot be started.
pub fn check(args: EngineCheckArgs) -> u8 {
    let settings = Settings {
        timeout: args.timeout,
        ..Settings::default()
    };
    match check::check(&args.command, &args.options, settings) {
        Ok(report) => {
            let printed = super::tools::print(report.to_string().as_bytes());
            match (printed, report.passed()) {
                (0, true) => 0,
                (0, false) => 1,
                (code, _) => code,
            }
        }
        Err(error) => fatal(error),
    }
}
