//! `bingomint boards`: objective boards (game bingo) from a Lockout schema v3
//! goal set: one for a race, or a million unique ones.
//!
//! Flags → the set compiled for the size (`Engine`) → `boards::mint` (board
//! values, duplicates redrawn) → warnings → `boards::output::write_all`.

mod args;

use super::{outln, with_threads, Bar, Outcome};
use anyhow::{anyhow, Result};
use args::engine_error;
pub use args::Args;
use bingomint::boards::check::report;
use bingomint::boards::engine::Engine;
use bingomint::boards::output::{check_request, make, summary, Batch, BatchError, RequestError};
use bingomint::boards::render::Renderer;
use bingomint::boards::set::{ObjectiveSet, SetFileError};
use bingomint::boards::{BoardSeed, SeedError};
use bingomint::cardfile::writer::refuse_existing;
use std::time::Instant;

/// Batches of at least this many boards get a progress bar.
const BAR_FROM: u64 = 100_000;

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
        super::not_an_input(out, "--out", &[&args.set])?;
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
/// problem); say what it holds and whether its limits can be met at --size:
/// exit 0 when they all held, 1 when one gave way or goals repeat.
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
    let held = made.map_err(|e| {
        anyhow!(
            "--set '{set_name}' cannot make {} boards: {}",
            args.size,
            engine_error(&e)
        )
    })?;
    if held {
        outln!(
            "OK: every limit of '{set_name}' held on {} boards",
            args.size
        );
        Ok(Outcome::Success)
    } else {
        outln!(
            "FAILED: '{set_name}' cannot keep every limit on {} boards (see above)",
            args.size
        );
        Ok(Outcome::Negative)
    }
}
