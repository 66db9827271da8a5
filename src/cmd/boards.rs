//! `bingomint boards`: objective boards (game bingo) from a Lockout schema v3
//! goal set: one for a race, or a million unique ones.
//!
//! Flags → the set compiled for the size (`Engine`) → `boards::mint` (board
//! values, duplicates redrawn) → warnings → `boards::output::write_all`.

use super::{with_threads, Bar, Outcome};
use anyhow::{anyhow, Result};
use bingomint::boards::board::{Size, Weighting};
use bingomint::boards::check::report;
use bingomint::boards::engine::{Engine, EngineError};
use bingomint::boards::output::{check_request, make, summary, Batch, BatchError, RequestError};
use bingomint::boards::render::{cell_width_for, Renderer};
use bingomint::boards::set::{ObjectiveSet, SetFileError};
use bingomint::boards::{BoardSeed, SeedError};
use bingomint::cardfile::writer::refuse_existing;
use bingomint::export::Format;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Generate objective boards (game bingo) from a Lockout schema v3 goal set.
///
/// Every board honours the set's limits: individual limits (repeats take
/// distinct range values), board category limits, line category limits on
/// every row, column and (square boards) diagonal, no objective twice in a
/// line, forced positions. When a board cannot meet them, bounded
/// backtracking runs first; only then does a constraint give way, in a fixed
/// order (line categories, board categories, repeats in a line, individual
/// limits), reported on stderr and in the board's "relaxed" list.
///
/// Each board is printed with a seed string (SEED:v1:N) that draws it again
/// alone; a batch of --count boards holds no two equal boards (same
/// objectives with the same values in the same cells) and is identical for
/// any --threads.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint boards --set smo.json --size 5x5 --seed MV2XRO
  bingomint boards --set smo.json --size 7x5 --count 100000 --seed s1 --format jsonl --out boards.jsonl
  bingomint boards --set smo.json --size 5x5 --seed MV2XRO --format bingosync --out card.json
  bingomint boards --set smo.json --seed MV2XRO:v1:17        # board 17 of that batch, again
  bingomint boards --set smo.json --check --size 7x7")]
pub struct Args {
    /// The goal set: Lockout schema v3 JSON.
    #[arg(long, value_name = "FILE")]
    set: PathBuf,

    /// Board size: rows x columns, 3–10 each (5x5, 7x5, …).
    #[arg(long, default_value = "5x5", value_parser = |text: &str| text.parse::<Size>())]
    size: Size,

    /// Number of unique boards.
    #[arg(short = 'n', long, default_value_t = 1)]
    count: u64,

    /// Seed: any text or number (players share it), or a board's own seed
    /// string SEED:v1:N to draw board N again. Without it a seed is taken
    /// from the operating system and printed.
    #[arg(long)]
    seed: Option<String>,

    /// Output format: text (grid), json (array), jsonl (a board per line),
    /// bingosync (BingoSync's custom board, 5x5, one board), csv (a row per
    /// board).
    #[arg(long, default_value = "text", value_parser = ["text", "json", "jsonl", "bingosync", "csv"])]
    format: String,

    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,

    /// Worker threads [default: every core].
    #[arg(long)]
    threads: Option<usize>,

    /// No progress bar or summary (warnings still go to stderr).
    #[arg(short, long)]
    quiet: bool,

    /// Validate the set (every problem at once) and report whether its limits
    /// can be met at --size, from a sample of boards; writes no boards.
    #[arg(long)]
    check: bool,

    /// How "weighting" acts: lockout (the chance, in %, that an objective
    /// joins a board's pool, as Lockout does) or proportional (each pick in
    /// proportion to weighting).
    #[arg(long, default_value = "lockout", value_parser = ["lockout", "proportional"])]
    weighting: String,
}

/// Batches of at least this many boards get a progress bar.
const BAR_FROM: u64 = 100_000;

impl Args {
    fn format(&self) -> Format {
        self.format.parse().expect("clap checked the name")
    }

    fn weighting(&self) -> Weighting {
        self.weighting.parse().expect("clap checked the name")
    }

    /// Text-grid cell width: fitted to the terminal when printing to one.
    fn cell_width(&self) -> usize {
        let terminal = (self.out.is_none() && std::io::stdout().is_terminal())
            .then(super::terminal_width)
            .flatten();
        cell_width_for(terminal, self.size.cols)
    }
}

/// Runs `boards`.
pub fn run(args: Args) -> Result<Outcome> {
    let set = ObjectiveSet::from_file(&args.set).map_err(|e| match e {
        SetFileError::Read { .. } => anyhow::Error::new(e).context("--set"),
        SetFileError::Invalid(e) => e.into(),
    })?;
    let set_name = args.set.display().to_string();
    if args.check {
        return check(&args, &set, &set_name);
    }
    let engine = Engine::new(&set, args.size, args.weighting())
        .map_err(|e| anyhow!("--set '{set_name}': {}", engine_error(&e)))?;
    check_request(args.format(), args.size, args.count).map_err(|e| match e {
        RequestError::NoBoards => anyhow!("--count must be at least 1"),
        RequestError::TooMany { .. } => anyhow!("--count {e}"),
        RequestError::BingosyncSize(_) => {
            anyhow!("--format bingosync needs --size 5x5: {e}; use json or jsonl for other sizes")
        }
        RequestError::BingosyncCount => anyhow!(
            "--format bingosync writes one board; leave out --count (use jsonl for batches)"
        ),
    })?;
    if let Some(out) = &args.out {
        refuse_existing(out, args.force)?;
    }
    super::clear_stale(args.out.as_deref(), args.force)?;
    let (seed, fresh) =
        BoardSeed::for_run(args.seed.as_deref(), args.count).map_err(|e| match &e {
            SeedError::OneBoard { base, .. } => {
                anyhow!("--seed {e}; leave out --count, or pass --seed {base} for a batch")
            }
            SeedError::Entropy(_) => e.into(),
            _ => anyhow!("--seed {e}"),
        })?;
    if let Some(value) = fresh.filter(|_| !args.quiet) {
        eprintln!("bingomint: seed {value} (pass --seed {value} to draw the same boards)");
    }
    let renderer = Renderer::new(&set, &engine, &seed).with_cell_width(args.cell_width());
    let started = Instant::now();
    let batch = Batch {
        engine: &engine,
        seed: &seed,
        count: args.count,
        format: args.format(),
        renderer: &renderer,
        out: args.out.as_deref(),
        force: args.force,
    };
    let (stats, relaxed) = with_threads(args.threads, || {
        let bar = if args.count >= BAR_FROM {
            Bar::new(args.count, "board", args.quiet)
        } else {
            Bar::hidden()
        };
        let made = make(&batch, &bar, &mut |line| eprintln!("bingomint: {line}"));
        bar.finish();
        made
    })?
    .map_err(|e| match e {
        BatchError::Mint(e) => super::mint_error(
            e,
            "lower it, choose a larger --size, or add objectives or range values",
            "lower --count",
        ),
        e => e.into(),
    })?;
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64();
        if let Some(line) = summary(&batch, &set_name, &stats, relaxed, secs) {
            eprintln!("bingomint: {line}");
        }
    }
    Ok(Outcome::Success)
}

/// `--check`: the set is valid (or `from_file` already failed with every
/// problem); say what it holds and whether its limits can be met at --size.
fn check(args: &Args, set: &ObjectiveSet, set_name: &str) -> Result<Outcome> {
    // The report streams its lines; the first failed write ends the run.
    let mut failed = None;
    let mut print = |line: String| {
        if failed.is_none() {
            failed = super::write_stdout(format_args!("{line}\n")).err();
        }
    };
    let made = with_threads(args.threads, || {
        report(set, set_name, args.size, args.weighting(), &mut print)
    })?;
    if let Some(err) = failed {
        return Err(err);
    }
    made.map_err(|e| {
        anyhow!(
            "--set '{set_name}' cannot make {} boards: {}",
            args.size,
            engine_error(&e)
        )
    })?;
    Ok(Outcome::Success)
}

/// Why the set cannot make boards of `--size`, with the flag that helps.
fn engine_error(e: &EngineError) -> String {
    match e {
        EngineError::TooFewGoals { .. } => format!("{e}, or choose a smaller --size"),
        EngineError::Forced(_) => e.to_string(),
    }
}
