//! `bingomint generate`: mint a file of unique cards.
//!
//! Flags → a game spec and a plan → `pipeline::file::generate` → summary.

use super::{clear_stale, outln, rate, spinning, with_threads, Bar, Outcome};
use anyhow::{anyhow, Context, Result};
use bingomint::cardfile::writer::refuse_existing;
use bingomint::cardfile::{FileFormat, HEADER_SIZE};
use bingomint::game::Spec;
use bingomint::pipeline::default_memory;
use bingomint::pipeline::exclude::ExcludeError;
use bingomint::pipeline::file::{generate, GenerateError, Made, Plan, PlanError};
use bingomint::pipeline::outcore::OutOfCoreError;
use bingomint::seed::Seed;
use clap::builder::PossibleValuesParser;
use std::path::PathBuf;
use std::time::Instant;

/// Generate a file of unique cards (75-ball) or strips (90-ball).
///
/// Every card is drawn uniformly at random and is different from every other
/// card in the file (and in the --exclude files); 90-ball strips are drawn
/// uniformly over every valid strip, and every ticket in the file is unique.
/// The same --seed and parameters give a byte-identical file for any
/// --threads.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint generate --count 10000000 --out cards.bmc
  bingomint generate --count 800000 --seed 42 --star --format v3 --out cards.dat
  bingomint generate --count 100000 --seed 42 --exclude cards.bmc --out more.bmc
  bingomint generate --game 90 --count 1000000 --out strips.bmc
  bingomint generate --game 90 --rules es --count 50000 --seed 7 --out es.bmc
  bingomint generate --count 1000000000 --memory 6G --temp-dir /scratch --out big.bmc")]
pub struct Args {
    /// The game.
    #[arg(long, default_value = "75", value_parser = super::games())]
    game: String,

    /// 90-ball rule set: uk (ticket columns hold 1–3 numbers) or es (1–2,
    /// and no three blanks or four numbers in a run in a row) [default: uk].
    #[arg(long, value_parser = PossibleValuesParser::new(Spec::RULE_SETS))]
    rules: Option<String>,

    /// Number of cards (75-ball) or strips (90-ball).
    #[arg(short = 'n', long, default_value_t = 1_000_000)]
    count: u64,

    /// Output card file.
    #[arg(short, long, value_name = "FILE")]
    out: PathBuf,

    /// Seed: a decimal integer, or any text (mapped to 64 bits by XXH3).
    /// Without it a seed is taken from the operating system and printed.
    #[arg(long)]
    seed: Option<String>,

    /// Put a star on one of the 24 numbered cells of each card (75-ball).
    #[arg(long)]
    star: bool,

    /// Output format: native (checksums, seed, provenance) or v3 (the
    /// original generator's 128-byte header and 25-byte records).
    #[arg(long, default_value = "native", value_parser = ["native", "v3"])]
    format: String,

    /// Card files whose cards the new file must not repeat (same game).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    exclude: Vec<PathBuf>,

    /// Use --exclude files even if some of their cards fail their checksum.
    #[arg(long, requires = "exclude")]
    allow_damaged: bool,

    /// Memory budget: a run whose key set and mapped records would take more
    /// de-duplicates out of core, through key partitions on disk, with the
    /// same cards. K, M, G, T are powers of 1024 (8G = 8 GiB) [default: a
    /// third of the memory available].
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    memory: Option<u64>,

    /// Where an out-of-core run keeps its key partitions (about 12 bytes a
    /// card, removed at the end) [default: the output's directory].
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    threads: Option<usize>,

    /// Print nothing but errors.
    #[arg(short, long)]
    quiet: bool,

    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

impl Args {
    fn format(&self) -> FileFormat {
        if self.format == "v3" {
            FileFormat::V3
        } else {
            FileFormat::Native
        }
    }

    /// A plan the library refused, in the flags' words.
    fn refused(&self, e: PlanError) -> anyhow::Error {
        match e {
            PlanError::V3Game(_) => anyhow!(
                "--format v3 holds 75-ball cards only; use --format native with --game {}",
                self.game
            ),
            PlanError::Memory { least } => anyhow!(
                "--memory must be at least {} MiB (a run needs that much for one wave of cards)",
                least >> 20
            ),
            PlanError::NoCards => anyhow!("--count must be at least 1"),
            PlanError::TooMany { most } => anyhow!("--count must be at most {most}"),
            PlanError::V3TooMany { most } => anyhow!(
                "--format v3 holds at most {most} cards (its count is a 32-bit integer); \
                 use --format native"
            ),
        }
    }

    fn seed(&self) -> Result<Seed> {
        match &self.seed {
            Some(text) => Ok(Seed::parse(text)),
            None => Seed::from_entropy().context("cannot read a seed from the operating system"),
        }
    }
}

/// Runs `generate`.
pub fn run(args: Args) -> Result<Outcome> {
    let spec = super::spec_from_flags(&args.game, args.rules.as_deref(), args.star)?;
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
    refuse_existing(&args.out, args.force)?;
    clear_stale(Some(&args.out), args.force)?;
    let seed = args.seed()?;
    let plan = Plan {
        seed: seed.value,
        ..plan
    };
    let started = Instant::now();
    let made = with_threads(args.threads, || {
        spinning(spec.slow_start(), args.quiet, || spec.prepare());
        let bar = Bar::new(args.count, spec.noun(), args.quiet);
        let made = generate(&plan, &bar);
        bar.finish();
        made
    })?
    .map_err(explain)?;
    if !args.quiet {
        summary(&args, spec, &seed, &made, started.elapsed().as_secs_f64())?;
    }
    Ok(Outcome::Success)
}

/// Why minting failed, in the flags' words.
fn explain(e: GenerateError) -> anyhow::Error {
    use GenerateError as G;
    use OutOfCoreError as O;
    match e {
        G::Exclude(ExcludeError::File(e)) => super::damaged(e, true).context("--exclude"),
        G::Exclude(e) => anyhow!("--exclude {e}"),
        G::OutOfCore(e @ O::Invalid { .. }) => anyhow!("--exclude {e}"),
        G::OutOfCore(e @ O::Space { .. }) => anyhow!(
            "{e}: choose another --temp-dir, or raise --memory to keep more of them in memory"
        ),
        G::Mint(e) | G::OutOfCore(O::Mint(e)) => super::mint_error(
            e,
            "lower it or drop an --exclude file",
            "lower --count (a later run can add a new series with --exclude)",
        ),
        G::Write(e) | G::OutOfCore(O::Write(e)) => e.into(),
        G::Date(e) => e.into(),
    }
}

fn summary(args: &Args, spec: Spec, seed: &Seed, made: &Made, secs: f64) -> Result<()> {
    let cards = made.stats.cards;
    let bytes = HEADER_SIZE as f64 + cards as f64 * spec.record_size() as f64;
    let secs = secs.max(1e-6);
    let excluded = if args.exclude.is_empty() {
        String::new()
    } else {
        format!(" against {} excluded {}s,", made.excluded, spec.noun())
    };
    let excluded = match made.partitions {
        Some((p, disk)) => {
            format!("{excluded} de-duplicated in {p} key partitions ({disk} on disk),")
        }
        None => excluded,
    };
    outln!(
        "{cards} {},{excluded} {} duplicates redrawn, {secs:.2} s, {} {}s/s, {:.0} MB/s -> {} (seed {seed}, format {})",
        spec.made(cards),
        made.stats.redrawn,
        rate(cards as f64 / secs),
        spec.noun(),
        bytes / secs / 1e6,
        args.out.display(),
        args.format,
    );
    Ok(())
}
