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
  bingomint calls --game 90 --seed 42 --count 30 > calls.txt
  # An items game: each call's number, its label after the #:
  bingomint calls --items loteria --seed 7 --count 10
  # Music bingo: music.csv names each song's file; the playlist plays them
  # in called order.
  bingomint calls --items data/items/music.csv --seed pub-night \\
      --format m3u > night.m3u")]
pub struct Args {
    /// The game.
    #[arg(short, long, default_value = "75", value_parser = super::games_with_items())]
    game: String,

    /// The items game's list (implies --game items): a text or CSV file,
    /// or `loteria`; each call is printed with its label.
    #[arg(long, value_name = "FILE")]
    items: Option<String>,

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

    /// text (a call a line, as check and winners read it), or m3u: an
    /// items game's labels (paths of songs) as a playlist in called order.
    #[arg(long, default_value = "text", value_parser = ["text", "m3u"])]
    format: String,
}

/// Runs `calls`.
pub fn run(args: Args) -> Result<Outcome> {
    let items = super::items::ItemsArgs {
        items: args.items.clone(),
        // The calls are the list's, whatever the cards' shape: the smallest
        // card (3x3 with a free centre) takes any list a card can be made of.
        size: Some("3x3".into()),
        ..Default::default()
    };
    let spec = match args.items {
        Some(_) => items.spec(&args.game)?.expect("--items names a list"),
        None if args.game == "items" => {
            anyhow::bail!("--game items needs its list: add --items FILE (or --items loteria)")
        }
        None => Spec::named(&args.game).context("--game: choose one of the games listed")?,
    };
    let balls = spec.balls();
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
    let text = match args.format.as_str() {
        "m3u" => bingomint::play::calls::playlist(spec, &about, calls.order())
            .context("--format m3u is for an items game: add --items FILE")?,
        _ => bingomint::play::calls::calls_file(spec, &about, calls.order()),
    };
    out!("{text}");
    Ok(Outcome::Success)
}
