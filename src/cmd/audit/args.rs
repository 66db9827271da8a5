//! `audit`'s flags, their help, and what they mean.

use anyhow::Result;
use std::path::PathBuf;

/// Run the test labs' statistical battery on a card file, or on the calls,
/// and write a report: chi-square, permutation, runs, serial correlation,
/// gap, poker and coupon-collector tests, and exact uniqueness.
///
/// Many tests at --alpha each would fail some fair files by chance; the
/// verdict uses Holm's procedure, so a fair file fails with probability at
/// most --alpha in all. Writes the report as HTML (one page, opens
/// offline) and JSON (every figure): FILE.audit.html and FILE.audit.json
/// unless --out names the files. Exits 0 on a pass, 1 on a fail.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint audit cards.bmc
  bingomint audit strips.bmc --out strips-audit.html --alpha 0.001
  bingomint audit s1.bmc --with s2.bmc s3.bmc   # needs: s1.bmc
  bingomint audit --call-orders --game 75 --games 100000
  bingomint audit --raw 64M --seed 42 --out raw.bin
  bingomint audit --raw 1T --out - | dieharder -g 200 -a   # needs: dieharder")]
pub struct Args {
    /// The card file to audit.
    #[arg(required_unless_present_any = ["calls", "raw"])]
    pub file: Option<PathBuf>,

    /// Audit FILE together with these as one stock (the shards of a stock,
    /// `generate --shard`): the battery on their cards taken in one seeded
    /// interleaving (a shard's cards alone are of its part of the space,
    /// so their order within the stock means nothing), and no face in two
    /// of them. The union is held in memory: the records and 8 bytes a
    /// card.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "file")]
    pub with: Vec<PathBuf>,

    /// Audit call orders instead of a file: --games of them, each drawn as
    /// a live game draws it (`--calls` elsewhere lists numbers called; here
    /// it is an older spelling of this).
    #[arg(long = "call-orders", alias = "calls", conflicts_with_all = ["file", "raw"])]
    pub calls: bool,

    /// The game of --call-orders and --raw [default: 75; with --raw and a FILE,
    /// the file's].
    #[arg(short, long, value_parser = super::super::games())]
    pub game: Option<String>,

    /// With --call-orders: test the games these hall logs revealed (their
    /// chains checked first) instead of drawing new ones.
    #[arg(long, value_name = "LOG", requires = "calls")]
    pub log: Vec<PathBuf>,

    /// Games whose calls --call-orders tests.
    #[arg(long, value_name = "N", default_value_t = 100_000, requires = "calls")]
    pub games: u64,

    /// Seed of --call-orders and --raw: a number or any text [default: --call-orders,
    /// every game's seed fresh from the operating system; --raw, the
    /// FILE's seed, else fresh].
    #[arg(long)]
    pub seed: Option<String>,

    /// Write this many bytes of the generator's raw output (the words the
    /// card draws take, 8 bytes little-endian) to --out instead, for a
    /// lab's own batteries. K, M, G, T are powers of 1024.
    #[arg(long, value_name = "BYTES", value_parser = super::super::parse_size)]
    pub raw: Option<u64>,

    /// The generator of --call-orders and --raw: mint (xoshiro256++, as cards and
    /// simulations draw) or hall (ChaCha20 keyed by the whole seed, as a
    /// live hall's calls are drawn).
    #[arg(long, value_enum, default_value_t = Generator::Mint)]
    pub generator: Generator,

    /// With --raw: the numbers as drawn (every face's numbers, one byte
    /// each), not the generator's words.
    #[arg(long, requires = "raw")]
    pub scaled: bool,

    /// Family-wise significance level: the chance a fair file fails.
    #[arg(long, default_value_t = 0.01)]
    pub alpha: f64,

    /// The report's file, HTML or JSON by its ending (.html, .json); give
    /// it twice for both [default: FILE.audit.html and FILE.audit.json, or
    /// calls-GAME.audit.*]. With --raw, the one file for the words, or -
    /// for standard output.
    #[arg(short, long, value_name = "FILE")]
    pub out: Vec<PathBuf>,

    /// Overwrite an existing report or --raw file.
    #[arg(long)]
    pub force: bool,

    /// Memory budget of the uniqueness check (see `verify --memory`).
    #[arg(long, value_name = "SIZE", value_parser = super::super::parse_size)]
    pub memory: Option<u64>,

    /// Where an out-of-core uniqueness check keeps its key partitions.
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<PathBuf>,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    pub threads: Option<usize>,

    /// Print only the verdict line.
    #[arg(short, long)]
    pub quiet: bool,
}

impl Args {
    /// Refuses values no audit can use.
    pub fn check(&self) -> Result<()> {
        if !(self.alpha > 0.0 && self.alpha <= 0.5) {
            anyhow::bail!(
                "--alpha {}: give a level above 0 and at most 0.5, such as 0.01",
                self.alpha
            );
        }
        if self.calls && self.log.is_empty() && self.games < 1000 {
            anyhow::bail!(
                "--games {}: the calls tests need at least 1000 games (100000 is the default)",
                self.games
            );
        }
        if self.raw.is_some() && self.out.len() != 1 {
            anyhow::bail!("--raw needs one --out: a file, or - for standard output");
        }
        if self.raw.is_none() {
            for out in &self.out {
                super::files::ReportFormat::of(out)?;
            }
        }
        Ok(())
    }
}

/// `--generator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Generator {
    /// xoshiro256++ under a 64-bit seed: cards, simulations.
    Mint,
    /// ChaCha20 under the SHA-256 of the whole seed: a live hall's calls.
    Hall,
}
