//! `bingomint generate`: mint a file of unique cards.
//!
//! Flags → a game spec and a plan → `pipeline::file::generate` → summary.

mod args;
mod refused;
mod series;
mod shard;
mod summary;

use super::{clear_stale, spinning, with_threads, Bar, Outcome};
use anyhow::{anyhow, Result};
pub(crate) use args::parse_shard;
pub use args::Args;
use bingomint::cardfile::writer::refuse_existing;
use bingomint::pipeline::default_memory;
use bingomint::pipeline::exclude::ExcludeError;
use bingomint::pipeline::file::{generate, GenerateError, Plan};
use bingomint::pipeline::outcore::OutOfCoreError;
use std::time::Instant;
use summary::summary;

/// Runs `generate`.
pub fn run(mut args: Args) -> Result<Outcome> {
    series::continues(&mut args)?;
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
        first_face: args.first_serial,
        shard: None,
    };
    let plan = match args.shard {
        Some(s) => shard::part(&args, spec, s, plan)?,
        None => plan,
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
    if args.first_serial > 1 {
        series::continues_clear(&args, spec.faces() as u64)?;
    }
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
        let bar = Bar::new(plan.count, spec.noun(), args.quiet);
        let made = generate(&plan, &bar);
        bar.finish();
        (made, prepared)
    })?;
    let made = made.map_err(explain)?;
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64();
        summary(&args, &plan, &seed, &made, (secs, prepared))?;
    }
    Ok(Outcome::Success)
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
        G::Shard(why) => anyhow!("--shard: {why}"),
    }
}
