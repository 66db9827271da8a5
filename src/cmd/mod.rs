//! One module per subcommand, each with its `Args` (the help text) and its
//! `run`. Shared helpers for the commands live here.

use crate::cli::Command;
use anyhow::{Context, Result};
use bingomint::cardfile::CardFile;
use bingomint::game::uk90::rules::Rules;
use bingomint::game::uk90::Uk90;
use bingomint::game::us75::{StarRule, Us75};
use bingomint::game::{Game, GameId};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;

pub mod boards;
pub mod count;
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
        Command::Count(args) => count::run(args),
        Command::Boards(args) => boards::run(args),
    }
}

/// Runs `work` on a rayon pool of `threads` threads (all cores when None).
pub fn with_threads<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    anyhow::ensure!(
        threads != Some(0),
        "--threads must be at least 1 (or leave it out to use every core)"
    );
    bingomint::pipeline::in_pool(threads, work).context("cannot start worker threads")
}

/// Fails with a clear message when the key set for `keys` keys would not fit
/// in the memory available now (Linux; elsewhere nothing is checked),
/// instead of letting the allocation abort the process later.
pub fn check_memory<K: std::hash::Hash + Eq + Copy>(keys: usize, what: &str) -> Result<()> {
    let needed = bingomint::dedup::KeySet::<K>::bytes_for(keys);
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
                .map(|kib| kib * 1024)
        });
    if let Some(available) = available {
        anyhow::ensure!(
            needed <= available,
            "{what} needs about {:.1} GB of memory to check uniqueness, but {:.1} GB is available; \
             lower --count (a later run can add a new series with --exclude)",
            needed as f64 / 1e9,
            available as f64 / 1e9
        );
    }
    Ok(())
}

/// Opens a card file whose header must be intact.
pub fn open_intact(path: &Path) -> Result<CardFile> {
    let file = CardFile::open(path)?;
    file.require_intact_header()?;
    Ok(file)
}

/// A game that can read its records from a card file.
pub trait FromFile: Game + Sized {
    /// The game, with the file's parameters, that checks its records.
    fn reader(file: &CardFile) -> Result<Self>;
}

impl FromFile for Us75 {
    fn reader(file: &CardFile) -> Result<Us75> {
        anyhow::ensure!(
            file.header().game == GameId::Us75,
            "'{}' holds {} strips, not 75-ball cards",
            file.path(),
            file.header().game.describe()
        );
        Ok(Us75::new(match file.header().star {
            Some(true) => StarRule::On,
            Some(false) => StarRule::Off,
            None => StarRule::Any,
        }))
    }
}

impl FromFile for Uk90 {
    fn reader(file: &CardFile) -> Result<Uk90> {
        let h = file.header();
        anyhow::ensure!(
            h.game == GameId::Uk90,
            "'{}' holds {}, not 90-ball strips",
            file.path(),
            h.game.describe()
        );
        let rules = Rules::from_byte(h.rules).with_context(|| {
            format!(
                "'{}': unknown 90-ball rule set {} in the header",
                file.path(),
                h.rules
            )
        })?;
        Ok(Uk90::new(rules))
    }
}

/// Runs `$body` with `$game` bound to the reader of `$file`'s game.
macro_rules! with_game {
    ($file:expr, |$game:ident| $body:expr) => {
        match $file.header().game {
            bingomint::game::GameId::Us75 => {
                let $game = <bingomint::game::us75::Us75 as $crate::cmd::FromFile>::reader($file)?;
                $body
            }
            bingomint::game::GameId::Uk90 => {
                let $game = <bingomint::game::uk90::Uk90 as $crate::cmd::FromFile>::reader($file)?;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// A bar on stderr counting `noun`s, when stderr is a terminal and not
/// `--quiet`; hidden otherwise.
pub fn progress_bar(count: u64, noun: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(count), ProgressDrawTarget::stderr());
    let template =
        format!("{{spinner}} [{{elapsed_precise}}] [{{bar:40}}] {{human_pos}}/{{human_len}} {noun}s, ETA {{eta}} {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// A spinner with a message on stderr (hidden as the bar is).
pub fn spinner(message: String, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    spinner.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    spinner.set_message(message);
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    spinner
}
