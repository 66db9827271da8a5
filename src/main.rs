//! The `bingomint` binary: parse the command line, run one command, map the
//! outcome to an exit code (0 success, 1 a negative answer, 2 an error, 0 on
//! a closed pipe).

use clap::Parser;
use std::process::ExitCode;

mod cli;
mod cmd;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
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

/// A reader closed our stdout (`bingomint export … | head`): not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
