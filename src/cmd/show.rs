//! `bingomint show`: one card as a text grid.

use super::{open_intact, us75_reader, Outcome};
use anyhow::{bail, Result};
use bingomint::export::text;
use bingomint::game::Game;
use std::path::PathBuf;

/// Show one card as a grid: B I N G O heading, FREE centre, star marked *.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  bingomint show cards.bmc --card 66057")]
pub struct Args {
    /// The card file.
    file: PathBuf,

    /// Card number, from 1.
    #[arg(short, long)]
    card: u64,
}

/// Runs `show`.
pub fn run(args: Args) -> Result<Outcome> {
    let file = open_intact(&args.file)?;
    let count = file.header().count;
    let Some(record) = file.record(args.card) else {
        bail!(
            "--card {} is out of range: '{}' holds cards 1 to {count}",
            args.card,
            file.path()
        );
    };
    let card = match us75_reader(&file).decode(record) {
        Ok(card) => card,
        Err(why) => bail!("card {} in '{}' is damaged: {why}", args.card, file.path()),
    };
    println!("card {} of {count} ({})", args.card, file.path());
    print!("{}", text::grid(&card));
    if card.star().is_some() {
        println!("* star");
    }
    Ok(Outcome::Success)
}
