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
A hall seed (`hall2-` and 64 hex digits, revealed when a hall game ends)
gives that game's order exactly as the hall drew it: ChaCha20 keyed by the
whole seed and the room's seed (--room-seed), as docs/hall.md states.
Seeds of the older form `hall-` and 32 hex digits give their games' orders
as before.

Examples:
  bingomint calls --game 75 --seed hall2-5e1f…c09a \\
      --room-seed \"table 4\"     # needs: the seed a hall game revealed
  bingomint calls --game 90 --seed 42 --count 30 > calls.txt")]
pub struct Args {
    /// The game.
    #[arg(short, long, default_value = "75", value_parser = super::games())]
    game: String,

    /// Seed: a number or any text [default: fresh from the operating system].
    #[arg(long)]
    seed: Option<String>,

    /// The room seed a hall game mixed in (the board showed it); only with
    /// a hall seed (`hall2-…`).
    #[arg(long, value_name = "TEXT", requires = "seed")]
    room_seed: Option<String>,

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
    let live = args
        .seed
        .as_deref()
        .filter(|s| bingomint::play::live::is_live(s));
    let (calls, about) = match (live, &args.room_seed) {
        (Some(text), room) => {
            let room = room.as_deref().map(str::trim).unwrap_or("");
            let about = if room.is_empty() {
                format!("seed {text}, no room seed")
            } else {
                format!("seed {text}, room seed {room:?}")
            };
            (Calls::of_hall(balls, text, room, count), about)
        }
        (None, Some(_)) => anyhow::bail!(
            "--room-seed: only a hall seed (hall2- and 64 hex digits) mixes in a room seed; give that --seed, or leave out --room-seed"
        ),
        (None, None) => (Calls::seeded(balls, seed.value, count), format!("seed {seed}")),
    };
    let mut text = format!("# bingomint calls: game {balls}, {about}, {count} calls\n");
    for n in calls.order() {
        text.push_str(&format!("{n}\n"));
    }
    out!("{text}");
    Ok(Outcome::Success)
}
