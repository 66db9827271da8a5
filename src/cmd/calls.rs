//! `bingomint calls`: a reproducible call order, one number a line.

use super::{out, Outcome};
use anyhow::{Context, Result};
use bingomint::game::Spec;
use bingomint::play::calls::Calls;
use bingomint::seed::Seed;

/// Print a call order: a uniform shuffle of the game's numbers from a seed.
///
/// The first line is a comment recording the game and seed, so the file can
/// be handed to `check`, `winners` and `show` as --calls-file (they skip
/// `#` lines). The same seed gives the same order on any machine.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint calls --game 75 --seed hall-7:2026-11-23:game-3
  bingomint calls --game 90 --seed 42 --count 30 > calls.txt")]
pub struct Args {
    /// The game.
    #[arg(long, default_value = "75", value_parser = super::games())]
    game: String,

    /// Seed: a number or any text [default: fresh from the operating system].
    #[arg(long)]
    seed: Option<String>,

    /// Print only the first K calls [default: all of them].
    #[arg(short = 'n', long, value_name = "K")]
    count: Option<usize>,
}

/// Runs `calls`.
pub fn run(args: Args) -> Result<Outcome> {
    let balls = Spec::named(&args.game)
        .context("--game: choose one of the games listed")?
        .balls();
    let seed = match &args.seed {
        Some(text) => Seed::parse(text),
        None => Seed::from_entropy().context("cannot read a seed from the operating system")?,
    };
    if args.count == Some(0) {
        anyhow::bail!("--count must be at least 1 (or leave it out for all {balls} calls)");
    }
    let count = args.count.unwrap_or(usize::from(balls));
    if count > usize::from(balls) {
        anyhow::bail!("--count {count} is more than the {balls} numbers of the game");
    }
    let calls = Calls::seeded(balls, seed.value, count);
    let mut text = format!("# bingomint calls: game {balls}, seed {seed}, {count} calls\n");
    for n in calls.order() {
        text.push_str(&format!("{n}\n"));
    }
    out!("{text}");
    Ok(Outcome::Success)
}
