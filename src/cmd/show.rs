//! `bingomint show`: one card, strip or ticket as a text grid.

use super::{open_intact, FromFile, Outcome};
use anyhow::{bail, Result};
use bingomint::cardfile::CardFile;
use bingomint::export::{strip, text};
use bingomint::game::uk90::Uk90;
use bingomint::game::us75::Us75;
use bingomint::game::{Game, GameId};
use std::path::PathBuf;

/// Show one card, strip or ticket as a grid.
///
/// 75-ball: B I N G O heading, FREE centre, star marked *. 90-ball: the
/// strip's six tickets, or one ticket with --ticket.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint show cards.bmc --card 66057
  bingomint show strips.bmc --card 12      # strip 12: tickets 67-72
  bingomint show strips.bmc --ticket 70")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Card number (75-ball) or strip number (90-ball), from 1.
    #[arg(
        short,
        long,
        required_unless_present = "ticket",
        conflicts_with = "ticket"
    )]
    card: Option<u64>,

    /// Ticket number (90-ball), from 1: strip n holds tickets 6(n−1)+1 … 6n.
    #[arg(short, long)]
    ticket: Option<u64>,
}

/// Runs `show`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = open_intact(&args.file)?;
    match file.header().game {
        GameId::Us75 => show_card(&args, &file),
        GameId::Uk90 => show_strip(&args, &file),
    }
}

/// The record of card/strip `n`, decoded, or an error naming the flag.
fn decode<G: Game>(file: &CardFile, game: &G, flag: &str, shown: u64, n: u64) -> Result<G::Card> {
    let count = file.header().count;
    let noun = file.header().game.noun();
    let Some(record) = file.record(n) else {
        let last = if flag == "--ticket" { 6 * count } else { count };
        let what = if flag == "--ticket" { "ticket" } else { noun };
        bail!(
            "{flag} {shown} is out of range: '{}' holds {what}s 1 to {last}",
            file.path()
        );
    };
    match game.decode(record) {
        Ok(card) => Ok(card),
        Err(why) => bail!("{noun} {n} in '{}' is damaged: {why}", file.path()),
    }
}

fn show_card(args: &Args, file: &CardFile) -> Result<Outcome> {
    if args.ticket.is_some() {
        bail!("--ticket is for 90-ball strips; use --card with a 75-ball file");
    }
    let n = args.card.unwrap_or(0);
    let card = decode(file, &Us75::reader(file)?, "--card", n, n)?;
    println!("card {n} of {} ({})", file.header().count, file.path());
    print!("{}", text::grid(&card));
    if card.star().is_some() {
        println!("* star");
    }
    Ok(Outcome::Success)
}

fn show_strip(args: &Args, file: &CardFile) -> Result<Outcome> {
    let game = Uk90::reader(file)?;
    let (n, only, flag, shown) = match (args.card, args.ticket) {
        (Some(n), _) => (n, None, "--card", n),
        (None, Some(t)) if t > 0 => ((t - 1) / 6 + 1, Some(((t - 1) % 6) as usize), "--ticket", t),
        (None, t) => (0, None, "--ticket", t.unwrap_or(0)),
    };
    let strip = decode(file, &game, flag, shown, n)?;
    let first = 6 * (n - 1) + 1;
    println!(
        "strip {n} of {} ({}, rules {}): tickets {first}–{}",
        file.header().count,
        file.path(),
        game.rules().name(),
        first + 5
    );
    for t in 0..6 {
        if only.is_none_or(|o| o == t) {
            println!("ticket {}", first + t as u64);
            print!("{}", strip::ticket_grid(&strip, t));
        }
    }
    Ok(Outcome::Success)
}
