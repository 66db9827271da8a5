//! One module per subcommand, each with its `Args` (the help text) and its
//! `run`: parse flags → build a spec → call the library → print a summary.
//! What they share lives here: the worker pool, the progress display.

use anyhow::{Context, Result};
use bingomint::pipeline::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

pub mod boards;
pub mod calls;
pub mod check;
pub mod count;
pub mod export;
pub mod generate;
pub mod info;
pub mod patterns;
pub mod play;
pub mod print;
pub mod show;
pub mod simulate;
pub mod verify;
pub mod winners;

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
/// `--game`'s choices: every game, each described in `--help`.
pub fn games() -> clap::builder::PossibleValuesParser {
    use bingomint::game::Spec;
    clap::builder::PossibleValuesParser::new(Spec::GAMES.map(|name| {
        let help = Spec::named(name).map_or("", |spec| spec.describe());
        clap::builder::PossibleValue::new(name).help(help)
    }))
}

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

/// Fails, naming the damaged cards, when any of `cards` of `file` fail their
/// checksum; with `allow` (`--allow-damaged`) says so on stderr and goes on.
pub fn require_sound(
    file: &bingomint::cardfile::CardFile,
    cards: std::ops::RangeInclusive<u64>,
    allow: bool,
) -> Result<()> {
    if !allow {
        return Ok(file.require_sound(cards)?);
    }
    let damage = file.integrity(cards);
    if damage.damaged_cards() > 0 {
        eprintln!(
            "bingomint: warning: '{}': {}s {} fail their checksum; used anyway (--allow-damaged)",
            file.path(),
            file.header().spec.noun(),
            damage.describe(5)
        );
    }
    Ok(())
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

/// A progress bar on stderr counting `noun`s, when stderr is a terminal and
/// not `--quiet`; hidden otherwise. The library reports to it as a
/// [`Progress`].
///
/// With `BINGOMINT_TIMINGS` set, every phase a stage enters is also printed
/// on stderr with the seconds since the bar started: where a long run's
/// time goes.
pub struct Bar(ProgressBar, Option<std::time::Instant>);

fn timings() -> Option<std::time::Instant> {
    std::env::var_os("BINGOMINT_TIMINGS").map(|_| std::time::Instant::now())
}

impl Bar {
    pub fn new(count: u64, noun: &str, quiet: bool) -> Bar {
        if quiet || !std::io::stderr().is_terminal() {
            return Bar(ProgressBar::hidden(), timings());
        }
        let bar = ProgressBar::with_draw_target(Some(count), ProgressDrawTarget::stderr());
        let template = format!(
            "{{spinner}} [{{elapsed_precise}}] [{{bar:40}}] {{human_pos}}/{{human_len}} {noun}s, ETA {{eta}} {{msg}}"
        );
        bar.set_style(
            ProgressStyle::with_template(&template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        Bar(bar, timings())
    }

    /// A bar that shows nothing.
    pub fn hidden() -> Bar {
        Bar(ProgressBar::hidden(), timings())
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }

    fn phase(&self, what: &str) {
        if let Some(start) = self.1 {
            self.0.suspend(|| {
                eprintln!("[{:8.2} s] {what}", start.elapsed().as_secs_f64());
            });
        }
        self.0.set_message(what.to_string());
    }
}

/// Runs `work` behind a spinner showing `message` on stderr (hidden as the
/// bar is).
pub fn spinning<T>(message: Option<String>, quiet: bool, work: impl FnOnce() -> T) -> T {
    let Some(message) = message.filter(|_| !quiet && std::io::stderr().is_terminal()) else {
        return work();
    };
    let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    spinner.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    spinner.set_message(message);
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    let result = work();
    spinner.finish_and_clear();
    result
}

/// Says what runs killed outright left beside `out` (their temporary
/// files), or, with `--force`, removes them and says so.
pub fn clear_stale(out: Option<&std::path::Path>, force: bool) -> Result<()> {
    let Some(out) = out else {
        return Ok(());
    };
    for (path, pid) in bingomint::cardfile::writer::stale_temporaries(out) {
        let shown = path.display();
        if force {
            bingomint::cardfile::writer::remove_stale(&path)
                .with_context(|| format!("cannot remove '{shown}'"))?;
            eprintln!(
                "bingomint: removed '{shown}', left by an interrupted run (process {pid} is gone)"
            );
        } else {
            eprintln!(
                "bingomint: note: '{shown}' was left by an interrupted run (process {pid} is gone); \
                 delete it, or add --force to have it removed"
            );
        }
    }
    Ok(())
}

/// The context of an error writing to `out` (standard output when None).
pub fn cannot_write(out: Option<&std::path::Path>) -> String {
    match out {
        Some(path) => format!("cannot write '{}'", path.display()),
        None => "cannot write to standard output".to_string(),
    }
}

/// Parses a size such as `8G`, `512M`, `1.5GiB` or `1000000` (bytes); K, M,
/// G and T are powers of 1024, with or without `iB`/`B`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(format!(
                "'{text}': use a number with K, M, G or T, such as 8G or 512M"
            ))
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}': use a number with K, M, G or T, such as 8G or 512M"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 / 2.0 {
        return Err(format!("'{text}' is not a size this machine can have"));
    }
    Ok(bytes as u64)
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
fn terminal_width() -> Option<usize> {
    if let Some(n) = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()) {
        return Some(n);
    }
    // SAFETY: TIOCGWINSZ fills a winsize struct for the descriptor.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}
