//! The battery on games' call orders, drawn as a live game draws them.

use super::{auditor, pooled, About, Args};
use crate::cmd::Bar;
use anyhow::{Context, Result};
use bingomint::audit::{self, Battery};
use bingomint::game::Spec;
use bingomint::pipeline::Progress;
use bingomint::seed::Seed;

/// The battery on --games call orders.
pub fn calls(args: &Args) -> Result<(Battery, About, String)> {
    let game = args.game.as_deref().unwrap_or("75");
    let balls = Spec::named(game)
        .context("--game: choose one of the games listed")?
        .balls();
    let base = args.seed.as_deref().map(Seed::parse);
    if base.is_none() {
        Seed::from_entropy().context("cannot read a seed from the operating system")?;
    }
    let seed_of = |g: u64| match &base {
        Some(s) => audit::calls::game_seed(s.value, g),
        None => {
            getrandom::u64().expect("the operating system's entropy source answered a moment ago")
        }
    };
    let bar = Bar::new(args.games, "game", args.quiet);
    let done = |n: u64| bar.advance(n);
    let battery = pooled(args, || {
        audit::calls::battery(balls, args.games, &seed_of, &done)
    })?;
    bar.finish();
    let seeds = match &base {
        Some(s) => format!("game g: XXH3 of g under the base seed {s} (reproducible)"),
        None => "every game's seed fresh from the operating system, as a live game's".into(),
    };
    let mut about = vec![
        (
            "calls".to_string(),
            format!("{} games of {balls}-ball calls", args.games),
        ),
        ("seeds".into(), seeds),
        (
            "call order".into(),
            "a Fisher–Yates shuffle of every number from the game seed's calls stream".into(),
        ),
    ];
    about.extend(auditor(args)?);
    Ok((battery, about, game.to_string()))
}
