//! `bingomint generate`: mint a file of unique cards.
//!
//! The plan: open the output (temporary name) → load `--exclude` keys →
//! draw chunks in parallel → repair duplicates → checksum → header → publish.

use super::{check_memory, open_intact, progress_bar, spinner, with_threads, FromFile, Outcome};
use anyhow::{bail, Context, Result};
use bingomint::cardfile::header::{today, Header};
use bingomint::cardfile::reader::records_checksum;
use bingomint::cardfile::writer::refuse_existing;
use bingomint::cardfile::{CardFile, CardWriter, Format, HEADER_SIZE};
use bingomint::dedup::{KeySet, Pending, EXCLUDED};
use bingomint::game::uk90::rules::Rules;
use bingomint::game::uk90::Uk90;
use bingomint::game::us75::{StarRule, Us75};
use bingomint::game::{Game, GameId, RuleViolation};
use bingomint::pipeline::{self, claim_in_waves, wave_chunks, Stats, CHUNK, MAX_CARDS};
use bingomint::seed::{Seed, ALGORITHM_VERSION};
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
  bingomint generate --game 90 --rules es --count 50000 --seed 7 --out es.bmc")]
pub struct Args {
    /// Game: 75 (US 75-ball cards, 5×5 with a free centre) or 90 (UK 90-ball
    /// strips of six 3×9 tickets).
    #[arg(long, default_value = "75", value_parser = ["75", "90"])]
    game: String,

    /// 90-ball rule set: uk (ticket columns hold 1–3 numbers) or es (1–2,
    /// and no three blanks or four numbers in a run in a row) [default: uk].
    #[arg(long, value_parser = ["uk", "es"])]
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

    /// File layout: native (checksums, seed, provenance) or v3 (the original
    /// generator's 128-byte header and 25-byte records).
    #[arg(long, default_value = "native", value_parser = ["native", "v3"])]
    format: String,

    /// Card files whose cards the new file must not repeat (same game).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    exclude: Vec<PathBuf>,

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
    fn format(&self) -> Format {
        if self.format == "v3" {
            Format::V3
        } else {
            Format::Native
        }
    }

    fn rules(&self) -> Rules {
        match self.rules.as_deref() {
            Some("es") => Rules::Es,
            _ => Rules::Uk,
        }
    }

    fn validate(&self) -> Result<()> {
        if self.game == "90" {
            if self.star {
                bail!("--star is for 75-ball cards; leave it out with --game 90");
            }
            if self.format() == Format::V3 {
                bail!("--format v3 holds 75-ball cards only; use --format native with --game 90");
            }
        } else if self.rules.is_some() {
            bail!("--rules is for 90-ball strips; add --game 90 or leave --rules out");
        }
        if self.count == 0 {
            bail!("--count must be at least 1");
        }
        refuse_existing(&self.out, self.force)?;
        if self.count > MAX_CARDS {
            bail!("--count must be at most {MAX_CARDS}");
        }
        if self.format() == Format::V3 && self.count > i32::MAX as u64 {
            bail!(
                "--format v3 holds at most {} cards (its count is a 32-bit integer); use --format native",
                i32::MAX
            );
        }
        Ok(())
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
    args.validate()?;
    let seed = args.seed()?;
    let started = Instant::now();
    let (stats, excluded) = with_threads(args.threads, || {
        if args.game == "90" {
            let rules = args.rules();
            let building = spinner(
                format!("building the 90-ball {} tables", rules.name()),
                args.quiet,
            );
            let game = Uk90::new(rules);
            building.finish_and_clear();
            generate(&args, &game, &seed, GameId::Uk90, rules.byte())
        } else {
            let star = if args.star {
                StarRule::On
            } else {
                StarRule::Off
            };
            generate(&args, &Us75::new(star), &seed, GameId::Us75, 0)
        }
    })??;
    if !args.quiet {
        summary(
            &args,
            &seed,
            &stats,
            excluded,
            started.elapsed().as_secs_f64(),
        );
    }
    Ok(Outcome::Success)
}

/// Returns what the pipeline did and how many excluded cards were loaded.
fn generate<G: FromFile>(
    args: &Args,
    game: &G,
    seed: &Seed,
    id: GameId,
    rules: u8,
) -> Result<(Stats, u64)> {
    let size = game.record_size() as u64;
    let excluded = open_exclusions(&args.exclude, id)?;
    let excluded_cards: u64 = excluded.iter().map(|f| f.header().count).sum();
    let keys = (args.count + excluded_cards) as usize * game.keys_per_card();
    check_memory::<G::Key>(keys, &format!("--count {}", args.count))?;
    let mut writer = CardWriter::create(
        &args.out,
        HEADER_SIZE as u64 + args.count * size,
        args.force,
    )?;
    let set = KeySet::with_capacity(keys);
    for file in &excluded {
        claim_excluded(file, &G::reader(file)?, &set)?;
    }
    let progress = progress_bar(args.count, id.noun(), args.quiet);
    let stats = pipeline::mint(game, seed.value, writer.records_mut(), &set, &progress)?;
    progress.set_message("checksum and sync");
    let header = Header {
        format: args.format(),
        game: id,
        rules,
        star: Some(args.star),
        count: args.count,
        record_size: size as u32,
        records_at: HEADER_SIZE as u32,
        created: today(),
        seed: Some(seed.value),
        algorithm: Some(ALGORITHM_VERSION),
        redrawn: Some(stats.redrawn),
        tool_version: Some(env!("CARGO_PKG_VERSION").to_string()),
        records_checksum: Some(records_checksum(writer.records())),
    };
    writer.finish(&header.encode())?;
    progress.finish_and_clear();
    Ok((stats, excluded_cards))
}

/// Opens every `--exclude` file and checks it holds the same game.
fn open_exclusions(paths: &[PathBuf], id: GameId) -> Result<Vec<CardFile>> {
    paths
        .iter()
        .map(|path| {
            let file = open_intact(path).context("--exclude")?;
            if file.header().game != id {
                bail!(
                    "--exclude '{}' holds {}, not {}",
                    path.display(),
                    file.header().game.describe(),
                    id.describe()
                );
            }
            Ok(file)
        })
        .collect()
}

/// Loads an excluded file's keys into the set, in parallel, all with the
/// index [`EXCLUDED`], which no drawn card can beat.
fn claim_excluded<G: Game>(file: &CardFile, game: &G, set: &KeySet<G::Key>) -> Result<()> {
    let size = file.header().record_size as usize;
    // Each chunk of records, with the first invalid card it finds.
    type Chunk<'a> = (&'a [u8], Option<(usize, RuleViolation)>);
    let mut chunks: Vec<Chunk> = file
        .records()
        .chunks(CHUNK * size)
        .map(|records| (records, None))
        .collect();
    let wave = wave_chunks(game.keys_per_card());
    claim_in_waves(&mut chunks, set, wave, |chunk, (records, invalid), keys| {
        for (j, record) in records.chunks_exact(size).enumerate() {
            match game.decode(record) {
                Ok(card) => {
                    for &key in game.keys(&card).as_ref() {
                        keys.push(Pending {
                            hash: set.hash(&key),
                            key,
                            index: EXCLUDED,
                        });
                    }
                }
                Err(why) => {
                    *invalid = Some((chunk * CHUNK + j + 1, why));
                    return;
                }
            }
        }
    });
    if let Some((n, why)) = chunks.into_iter().find_map(|(_, invalid)| invalid) {
        bail!("--exclude '{}': card {n} is not valid: {why}", file.path());
    }
    Ok(())
}

fn summary(args: &Args, seed: &Seed, stats: &Stats, excluded: u64, secs: f64) {
    let size = if args.game == "90" { 162.0 } else { 25.0 };
    let bytes = HEADER_SIZE as f64 + stats.cards as f64 * size;
    let what = if args.game == "90" {
        format!(
            "90-ball strips ({}, {} tickets)",
            args.rules().name(),
            stats.cards * 6
        )
    } else {
        "75-ball cards".to_string()
    };
    let secs = secs.max(1e-6);
    let excluded = if args.exclude.is_empty() {
        String::new()
    } else {
        format!(
            " against {excluded} excluded {}s,",
            if args.game == "90" { "strip" } else { "card" }
        )
    };
    println!(
        "{} {what},{excluded} {} duplicates redrawn, {:.2} s, {} {}s/s, {:.0} MB/s -> {} (seed {seed}, format {})",
        stats.cards,
        stats.redrawn,
        secs,
        rate(stats.cards as f64 / secs),
        if args.game == "90" { "strip" } else { "card" },
        bytes / secs / 1e6,
        args.out.display(),
        args.format,
    );
}

/// A rate with a sensible unit: `850`, `12.3 k`, `24.1 M`.
fn rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.1} M", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.1} k", per_second / 1e3)
    } else {
        format!("{per_second:.0}")
    }
}
