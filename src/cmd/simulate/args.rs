//! `simulate`'s flags: what a user can ask of a simulation, and their help.

use bingomint::game::Spec;
use std::path::PathBuf;

/// Simulate games: calls until the first win, and how many share it.
///
/// Each game calls the numbers in a fresh uniform order (reproducible from
/// --seed) against the same faces: N fresh random cards (--cards, or
/// --tickets/--strips for 90-ball) drawn from the seed, or the cards of a
/// file (--from, --range). Reports the mean, median and percentiles of the
/// calls until the first face completes the pattern, how many faces
/// complete at that same call (ties split prizes), and the distribution.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint simulate --game 75 --cards 1000 --pattern coverall --games 100000 \\
      --plot coverall.svg
  bingomint simulate --game 90 --strips 200 --pattern full-house --games 20000
  bingomint simulate --cards 300 --pattern coverall --within 50 --games 100000
  bingomint simulate --from cards.bmc --range 1..9000 --pattern line \\
      --games 20000 --json")]
pub struct Args {
    /// The game, for fresh cards.
    #[arg(short, long, default_value = "75", value_parser = crate::cmd::games())]
    pub(super) game: String,

    /// 90-ball rule set for fresh strips.
    #[arg(long, value_parser = Spec::RULE_SETS)]
    pub(super) rules: Option<String>,

    /// Fresh 75- or 80-ball cards in play.
    #[arg(long, value_name = "N", conflicts_with_all = ["tickets", "strips", "from"])]
    pub(super) cards: Option<u64>,

    /// Fresh 90-ball tickets in play.
    #[arg(long, value_name = "N", conflicts_with_all = ["strips", "from"])]
    pub(super) tickets: Option<u64>,

    /// Fresh 90-ball strips in play (six tickets each).
    #[arg(long, value_name = "N", conflicts_with = "from")]
    pub(super) strips: Option<u64>,

    /// Play the cards of this file instead of fresh ones.
    #[arg(long, value_name = "FILE")]
    pub(super) from: Option<PathBuf>,

    /// With --from: the cards (or strips) in play, `A..B` or a list in
    /// order, `1..500,901..1000` [default: all].
    #[arg(long, value_name = "A..B", requires = "from")]
    pub(super) range: Option<String>,

    /// The pattern (see `bingomint patterns`), or a mask.
    #[arg(short, long)]
    pub(super) pattern: String,

    /// Games to play.
    #[arg(long, default_value_t = 10_000)]
    pub(super) games: u64,

    /// Seed of the cards and call orders: a number or any text; 1 unless
    /// given (not fresh, as generate's), so a simulation's figures repeat.
    #[arg(long, default_value = "1")]
    pub(super) seed: String,

    /// Also say the chance of a win within N calls (a jackpot's
    /// question), with its 95 % interval.
    #[arg(long, value_name = "N")]
    pub(super) within: Option<u8>,

    /// Print the figures as JSON.
    #[arg(long)]
    pub(super) json: bool,

    /// Draw the distribution of calls to the first win as an SVG histogram.
    #[arg(long, value_name = "FILE.svg")]
    pub(super) plot: Option<PathBuf>,

    /// Replace the --plot file if it exists.
    #[arg(long)]
    pub(super) force: bool,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    pub(super) threads: Option<usize>,

    /// No progress bar (the results still print).
    #[arg(short, long)]
    pub(super) quiet: bool,
}
