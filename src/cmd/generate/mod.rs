//! `bingomint generate`: mint a file of unique cards.
//!
//! Flags → a game spec and a plan → `pipeline::file::generate` → summary.

mod args;

use super::{clear_stale, outln, rate, spinning, with_threads, Bar, Outcome};
use anyhow::{anyhow, Result};
pub use args::Args;
use bingomint::cardfile::writer::refuse_existing;
use bingomint::cardfile::HEADER_SIZE;
use bingomint::game::Spec;
use bingomint::pipeline::default_memory;
use bingomint::pipeline::exclude::ExcludeError;
use bingomint::pipeline::file::{generate, GenerateError, Made, Plan};
use bingomint::pipeline::outcore::OutOfCoreError;
use bingomint::seed::Seed;
use std::time::Instant;

/// Runs `generate`.
pub fn run(args: Args) -> Result<Outcome> {
    if let Some(n) = &args.cards {
        return Err(anyhow!(
            "--cards is how simulate and the hall name card files; generate takes how many with --count {n} (or -n {n})"
        ));
    }
    let spec = match args.items.spec(&args.game)? {
        Some(spec) => spec,
        None => super::spec_from_flags(&args.game, args.rules.as_deref(), args.star)?,
    };
    let plan = Plan {
        spec,
        count: args.count,
        seed: 0,
        format: args.format(),
        out: &args.out,
        force: args.force,
        exclude: &args.exclude,
        allow_damaged: args.allow_damaged,
        memory: args.memory.unwrap_or_else(default_memory),
        spill_dir: args.temp_dir.as_deref(),
    };
    plan.validate().map_err(|e| args.refused(e))?;
    if let Some(warning) = spec.items().and_then(|deck| deck.fill_warning()) {
        eprintln!("bingomint: note: {warning}");
    }
    if let Some(most) = spec.items().and_then(|deck| deck.most_cards()) {
        if args.count > most {
            return Err(anyhow!(
                "--count {}: with --distinct lines at most {most} cards of this list can share no line \
                 (each line's set of items is used once); lower --count, or add items",
                args.count
            ));
        }
    }
    let excluded: Vec<&std::path::Path> = args.exclude.iter().map(|p| p.as_path()).collect();
    super::not_an_input(&args.out, "--out", &excluded)?;
    refuse_existing(&args.out, args.force)?;
    clear_stale(Some(&args.out), args.force)?;
    let seed = args.seed()?;
    let plan = Plan {
        seed: seed.value,
        ..plan
    };
    let started = Instant::now();
    let (made, prepared) = with_threads(args.threads, || {
        spinning(spec.slow_start(), args.quiet, || spec.prepare());
        let prepared = started.elapsed().as_secs_f64();
        let bar = Bar::new(args.count, spec.noun(), args.quiet);
        let made = generate(&plan, &bar);
        bar.finish();
        (made, prepared)
    })?;
    let made = made.map_err(explain)?;
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64();
        summary(&args, spec, &seed, &made, (secs, prepared))?;
    }
    Ok(Outcome::Success)
}

/// The run's line: `secs` in all, `prepared` of them building what the
/// game draws from (the 90-ball tables), which the rate leaves out.
fn summary(
    args: &Args,
    spec: Spec,
    seed: &Seed,
    made: &Made,
    (secs, prepared): (f64, f64),
) -> Result<()> {
    let cards = made.stats.cards;
    let bytes = HEADER_SIZE as f64 + cards as f64 * spec.record_size() as f64;
    let drawing = (secs - prepared).max(1e-6);
    let excluded = if args.exclude.is_empty() {
        String::new()
    } else {
        // Named as the excluded files hold them: strips, or single tickets.
        let noun = (args.exclude.first())
            .and_then(|p| bingomint::cardfile::CardFile::open(p).ok())
            .map_or(spec.noun(), |f| f.header().spec.noun());
        format!(
            " against {},",
            bingomint::text::count_of(made.excluded, &format!("excluded {noun}"))
        )
    };
    let excluded = match made.partitions {
        Some((p, disk)) => {
            format!("{excluded} de-duplicated in {p} key partitions ({disk} on disk),")
        }
        None => excluded,
    };
    let n = made.stats.redrawn;
    let redrawn = match spec.items().is_some_and(|d| d.distinct_lines) {
        true => bingomint::text::count_of(n, "draw") + " sharing a line",
        false => format!("{n} duplicate{}", if n == 1 { "" } else { "s" }),
    };
    // A rate means something only for a run long enough to time: a few
    // cards (or the 90-ball tables' start-up) would give a silly figure.
    let speed = if cards >= 10_000 && drawing >= 0.01 {
        format!(
            ", {} {}s/s, {:.0} MB/s",
            rate(cards as f64 / drawing),
            spec.noun(),
            bytes / drawing / 1e6
        )
    } else {
        String::new()
    };
    let secs = match spec.slow_start() {
        Some(what) if prepared >= 0.05 => format!("{secs:.2} s ({prepared:.2} s of it {what})"),
        _ => format!("{secs:.2} s"),
    };
    outln!(
        "{cards} {},{excluded} {redrawn} redrawn, {secs}{speed} -> {} (seed {seed}, format {})",
        spec.made(cards),
        args.out.display(),
        args.format,
    );
    Ok(())
}

/// Why minting failed, in the flags' words.
fn explain(e: GenerateError) -> anyhow::Error {
    use GenerateError as G;
    use OutOfCoreError as O;
    match e {
        G::Exclude(ExcludeError::File(e)) => crate::cmd::damaged(e, true).context("--exclude"),
        G::Exclude(e) => anyhow!("--exclude {e}"),
        G::OutOfCore(e @ O::Invalid { .. }) => anyhow!("--exclude {e}"),
        G::OutOfCore(e @ O::Space { .. }) => anyhow!(
            "{e}: choose another --temp-dir, or raise --memory to keep more of them in memory"
        ),
        G::Mint(e) | G::OutOfCore(O::Mint(e)) => crate::cmd::mint_error(
            e,
            "lower it or drop an --exclude file",
            "lower --count (a later run can add a new series with --exclude)",
        ),
        G::Write(e) | G::OutOfCore(O::Write(e)) => e.into(),
        G::Date(e) => e.into(),
    }
}
