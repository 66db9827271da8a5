//! `bingomint count`: how many distinct cards or strips a game has, exactly.

use super::{outln, Outcome};
use anyhow::Result;
use bingomint::game::Spec;
use clap::builder::PossibleValuesParser;

/// Count a game's distinct cards or strips, exactly.
///
/// The distinct cards (75-ball, 80-ball, items), or the valid rows, ticket layouts,
/// strip layouts and numbered strips (90-ball) of a game, as exact integers,
/// from the same tables the generator draws from.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint count --game 75
  bingomint count --game 90
  bingomint count --game 90 --rules es
  bingomint count --items data/items/words.txt --size 5x5
  bingomint count --items loteria")]
pub struct Args {
    /// The game.
    #[arg(short, long, default_value = "75", value_parser = super::games_with_items())]
    game: String,

    #[command(flatten)]
    items: super::items::ItemsArgs,

    /// 90-ball rule set: uk or es [default: uk].
    #[arg(long, value_parser = PossibleValuesParser::new(Spec::RULE_SETS))]
    rules: Option<String>,
}

/// Runs `count`.
pub fn run(args: Args) -> Result<Outcome> {
    let spec = match args.items.spec(&args.game)? {
        Some(spec) => spec,
        None => super::spec_from_flags(&args.game, args.rules.as_deref(), false)?,
    };
    let (title, lines) = spec.counts();
    if let Some(title) = title {
        outln!("{title}");
    }
    for (label, value) in lines {
        outln!("{label} {value}");
    }
    Ok(Outcome::Success)
}
