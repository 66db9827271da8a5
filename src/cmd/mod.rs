//! One module per subcommand, each with its `Args` (the help text) and its
//! `run`: parse flags → build a spec → call the library → print a summary.
//! What they share: the worker pool, standard output and output files
//! (here; output files in `output.rs`), what flags mean and the library's errors in their words
//! (`flags.rs`), and the progress display (`progress.rs`).

use anyhow::{Context, Result};

pub mod audit;
pub mod boards;
pub mod calls;
pub mod check;
pub mod count;
pub mod export;
pub mod generate;
pub mod hall;
pub mod import;
pub mod info;
pub mod items;
pub mod link;
pub mod patterns;
pub mod play;
pub mod print;
pub mod show;
pub mod simulate;
pub mod verify;
pub mod winners;

mod flags;
mod games;
mod output;
mod progress;
pub use flags::*;
pub use games::{games, games_with_items};
pub use output::{cannot_write, clear_stale, not_an_input, write_bytes};
pub use progress::{spinning, Bar};

/// Writes to standard output like `print!`, but a failed write (a closed
/// pipe, a full disk) is returned as an error instead of a panic: `main`
/// ends quietly on a closed pipe and names the problem otherwise.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cmd::write_stdout(format_args!($($arg)*))?
    };
}

/// `out!` with a newline, like `println!`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cmd::write_stdout(format_args!("{}\n", format_args!($($arg)*)))?
    };
}
pub(crate) use {out, outln};

/// Writes `text` to standard output (see [`out!`]).
pub fn write_stdout(text: std::fmt::Arguments) -> Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_fmt(text)
        .and_then(|()| stdout.flush())
        .context("cannot write to standard output")
}

/// How a command ended when it did not fail.
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: the answer is no (a bad card found, …).
    Negative,
}

/// Most worker threads a run may ask for.
pub const MAX_THREADS: usize = 1024;

/// Runs `work` on a rayon pool of `threads` threads (all cores when None).
pub fn with_threads<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    anyhow::ensure!(
        threads != Some(0),
        "--threads must be at least 1 (or leave it out to use every core)"
    );
    if let Some(n) = threads.filter(|&n| n > MAX_THREADS) {
        anyhow::bail!(
            "--threads {n} is more than {MAX_THREADS}; use at most {MAX_THREADS} \
             (or leave it out to use every core)"
        );
    }
    bingomint::pipeline::in_pool(threads, work).context("cannot start worker threads")
}

/// A rate with a sensible unit: `850`, `12.3 k`, `24.1 M`.
pub fn rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.1} M", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.1} k", per_second / 1e3)
    } else {
        format!("{per_second:.0}")
    }
}

/// Columns of the terminal on standard output: `$COLUMNS`, else the
/// terminal's own size.
pub fn terminal_width() -> Option<usize> {
    if let Some(n) = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()) {
        return Some(n);
    }
    // SAFETY: TIOCGWINSZ fills a winsize struct for the descriptor.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}
