//! `generate`'s flags: what a user can ask of a run, their help, and their
//! translation into a `pipeline::file::Plan`, with the library's refusals
//! in the flags' words.

use anyhow::{Context, Result};
use bingomint::cardfile::FileFormat;
use bingomint::game::Spec;
use bingomint::pipeline::shard::Shard;
use bingomint::seed::Seed;
use clap::builder::PossibleValuesParser;
use std::path::PathBuf;

/// Generate a file of unique cards (75- or 80-ball, or items with --items) or strips (90-ball).
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
  bingomint generate --count 100000 --seed 42 --exclude cards.bmc \\
      --first-serial 10000001 --out more.bmc
  bingomint generate --game 90 --count 1000000 --out strips.bmc
  bingomint generate --game 90 --count 1000 --continue strips.bmc \\
      --out order2.bmc
  bingomint generate --game 90 --rules es --count 50000 --seed 7 --out es.bmc
  bingomint generate --items data/items/words.txt --count 30 --seed class-7 \\
      --out words.bmc
  bingomint generate --items loteria --count 1000 --out tablas.bmc
  bingomint generate --count 1000000000 --memory 6G --temp-dir /scratch \\
      --out big.bmc      # needs: /scratch with ~40 GB free")]
pub struct Args {
    /// The game.
    #[arg(short, long, default_value = "75", value_parser = crate::cmd::games_with_items())]
    pub(super) game: String,

    #[command(flatten)]
    pub(super) items: crate::cmd::items::ItemsArgs,

    /// 90-ball rule set: uk (ticket columns hold 1–3 numbers) or es (1–2,
    /// and no three blanks or four numbers in a run in a row) [default: uk].
    #[arg(long, value_parser = PossibleValuesParser::new(Spec::RULE_SETS))]
    pub(super) rules: Option<String>,

    /// Number of cards (75- or 80-ball) or strips (90-ball): 1000000,
    /// 1_000_000, 1,000,000 or 1e6.
    #[arg(short = 'n', long, default_value = "1000000", value_parser = crate::cmd::parse_count)]
    pub(super) count: u64,

    /// `--cards` is simulate's and the hall's word: here a tip to --count.
    #[arg(long = "cards", hide = true, value_name = "N")]
    pub(super) cards: Option<String>,

    /// Output card file.
    #[arg(short, long, value_name = "FILE")]
    pub(super) out: PathBuf,

    /// Seed: a decimal integer, or any text (mapped to 64 bits by XXH3).
    /// Without it a seed is taken from the operating system and printed.
    #[arg(long)]
    pub(super) seed: Option<String>,

    /// Put a star on one of the 24 numbered cells of each card (75-ball).
    #[arg(long)]
    pub(super) star: bool,

    /// Output format: native (checksums, seed, provenance) or v3 (the
    /// original generator's 128-byte header and 25-byte records).
    #[arg(long, default_value = "native", value_parser = ["native", "v3"])]
    pub(super) format: String,

    /// Card files whose cards the new file must not repeat (same game).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(super) exclude: Vec<PathBuf>,

    /// The first face's number (for 90-ball a ticket's: 60,000 strips hold
    /// tickets 1–360,000), with --exclude of the earlier file; or --continue.
    #[arg(long, value_name = "N", default_value_t = 1, alias = "series-start")]
    pub(super) first_serial: u64,

    /// Continue an earlier file's series: numbered on from its last face,
    /// none of its cards repeated (print numbers strips, books … on too).
    #[arg(long = "continue", value_name = "FILE")]
    #[arg(conflicts_with = "first_serial")]
    pub(super) continues: Option<PathBuf>,

    /// Mint shard I of N of a stock of --count cards (75- and 80-ball):
    /// this run makes its part, in proportion, numbered on from the shards
    /// before it; no two shards share a card, with no network between
    /// them. A Slurm job array (--array=1-N): --shard
    /// $SLURM_ARRAY_TASK_ID/N; a Kubernetes Indexed Job: --shard
    /// $((JOB_COMPLETION_INDEX + 1))/N.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub(super) shard: Option<Shard>,

    /// Use --exclude files even if some of their cards fail their checksum.
    #[arg(long, requires = "exclude")]
    pub(super) allow_damaged: bool,

    /// Memory budget: a run whose key set and mapped records would take more
    /// de-duplicates out of core, through key partitions on disk, with the
    /// same cards. K, M, G, T are powers of 1024 (8G = 8 GiB) [default: a
    /// third of the memory available].
    #[arg(long, value_name = "SIZE", value_parser = crate::cmd::parse_size)]
    pub(super) memory: Option<u64>,

    /// Where an out-of-core run keeps its key partitions (about 8 bytes a
    /// card, removed at the end) [default: the output's directory].
    #[arg(long, value_name = "DIR")]
    pub(super) temp_dir: Option<PathBuf>,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    pub(super) threads: Option<usize>,

    /// No progress bar and no summary line (errors still show).
    #[arg(short, long)]
    pub(super) quiet: bool,

    /// Replace the output file if it exists.
    #[arg(long)]
    pub(super) force: bool,
}

impl Args {
    pub(super) fn format(&self) -> FileFormat {
        if self.format == "v3" {
            FileFormat::V3
        } else {
            FileFormat::Native
        }
    }

    pub(super) fn seed(&self) -> Result<Seed> {
        match &self.seed {
            Some(text) => Ok(Seed::parse(text)),
            None => Seed::from_entropy().context("cannot read a seed from the operating system"),
        }
    }
}

/// `--shard I/N`.
pub(crate) fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| e.to_string())
}
