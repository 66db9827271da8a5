//! One module per subcommand, each with its `Args` (the help text) and its
//! `run`. Shared helpers for the commands live here.

use crate::cli::Command;
use anyhow::{Context, Result};
use bingomint::cardfile::CardFile;
use bingomint::game::us75::{StarRule, Us75};
use bingomint::game::GameId;
use std::path::Path;

pub mod export;
pub mod generate;
pub mod info;
pub mod show;
pub mod verify;

/// How a command ended when it did not fail.
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: the answer is no (a bad card found, …).
    Negative,
}

/// Runs one command.
pub fn run(command: Command) -> Result<Outcome> {
    match command {
        Command::Generate(args) => generate::run(args),
        Command::Info(args) => info::run(args),
        Command::Show(args) => show::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Export(args) => export::run(args),
    }
}

/// Runs `work` on a rayon pool of `threads` threads (all cores when None).
pub fn with_threads<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        anyhow::ensure!(
            n > 0,
            "--threads must be at least 1 (or leave it out to use every core)"
        );
        builder = builder.num_threads(n);
    }
    let pool = builder.build().context("cannot start worker threads")?;
    Ok(pool.install(work))
}

/// Opens a card file whose header must be intact.
pub fn open_intact(path: &Path) -> Result<CardFile> {
    let file = CardFile::open(path)?;
    file.require_intact_header()?;
    Ok(file)
}

/// The 75-ball game that reads `file`'s records with the right star rule.
pub fn us75_reader(file: &CardFile) -> Us75 {
    debug_assert_eq!(file.header().game, GameId::Us75);
    Us75::new(match file.header().star {
        Some(true) => StarRule::On,
        Some(false) => StarRule::Off,
        None => StarRule::Any,
    })
}
