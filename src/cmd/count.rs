//! `bingomint count`: how many distinct cards or strips a game has, exactly.

use super::Outcome;
use anyhow::{bail, Result};
use bingomint::game::uk90::rules::Rules;
use bingomint::game::uk90::tables::Tables;
use num_bigint::BigUint;

/// Count a game's distinct cards or strips, exactly.
///
/// The distinct cards (75-ball), or the valid rows, ticket layouts,
/// strip layouts and numbered strips (90-ball) of a game, as exact integers,
/// from the same tables the generator draws from.
#[derive(clap::Args)]
#[command(after_help = "\\
Examples:
  bingomint count --game 75
  bingomint count --game 90
  bingomint count --game 90 --rules es")]
pub struct Args {
    /// Game: 75 or 90.
    #[arg(long, default_value = "75", value_parser = ["75", "90"])]
    game: String,

    /// 90-ball rule set: uk or es [default: uk].
    #[arg(long, value_parser = ["uk", "es"])]
    rules: Option<String>,
}

/// Runs `count`.
pub fn run(args: Args) -> Result<Outcome> {
    if args.game == "75" {
        if args.rules.is_some() {
            bail!("--rules is for 90-ball strips; add --game 90 or leave --rules out");
        }
        // Ordered draws: 15·14·13·12·11 for B, I, G, O, and 15·14·13·12 for N.
        let cards = BigUint::from(360_360u64).pow(4) * BigUint::from(32_760u64);
        println!("75-ball cards (distinct number grids): {cards}");
        println!(
            "with a star on one of 24 cells:        {}",
            cards * BigUint::from(24u32)
        );
        return Ok(Outcome::Success);
    }
    let rules = if args.rules.as_deref() == Some("es") {
        Rules::Es
    } else {
        Rules::Uk
    };
    // A fresh build: `count` is also a check that the tables come out the same.
    let tables = Tables::build(rules);
    let c = tables.counts();
    println!("90-ball, rule set {}", rules.name());
    println!("valid rows:                      {}", c.rows);
    println!("ticket column-count vectors:     {}", c.vectors);
    println!("ticket layouts:                  {}", c.ticket_layouts);
    println!("strip layouts (tickets ordered): {}", c.strip_layouts);
    println!("numbered strips:                 {}", c.numbered_strips);
    Ok(Outcome::Success)
}
