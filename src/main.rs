//! The `bingomint` binary: parse the command line, run one command, map the
//! outcome to an exit code (0 success, 1 a negative answer, 2 an error, 0 on
//! a closed pipe).

use clap::{CommandFactory, Parser};
use std::process::ExitCode;

mod cli;
mod cmd;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => match misplaced_flag(&e) {
            Some(said) => {
                eprintln!("error: {said}");
                return ExitCode::from(2);
            }
            None => e.exit(),
        },
    };
    match cli.command.run() {
        Ok(cmd::Outcome::Success) => ExitCode::SUCCESS,
        Ok(cmd::Outcome::Negative) => ExitCode::from(1),
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("bingomint: {:#}", cmd::advise(err));
            ExitCode::from(2)
        }
    }
}

/// A flag given to a command that has it not, but another has
/// (`export --book-pages`): said plainly, where clap would suggest
/// `-- --book-pages`, passing it as a value.
fn misplaced_flag(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let long = given.strip_prefix("--")?.split('=').next()?;
    let asked = std::env::args().nth(1)?;
    let top = cli::Cli::command();
    let has = |c: &clap::Command| c.get_arguments().any(|a| a.get_long() == Some(long));
    let theirs: Vec<&str> = (top.get_subcommands())
        .filter(|c| c.get_name() != asked && has(c))
        .map(|c| c.get_name())
        .collect();
    if theirs.is_empty() {
        return None;
    }
    Some(format!(
        "{asked} takes no --{long}; it is a flag of {}: see `bingomint {} --help`",
        theirs.join(", "),
        theirs[0]
    ))
}

/// A reader closed our stdout (`bingomint export … | head`): not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
