//! The battery on games' call orders, drawn as a live game draws them.

use super::{auditor, pooled, About, Args};
use crate::cmd::Bar;
use anyhow::{Context, Result};
use bingomint::audit::{self, Battery};
use bingomint::game::Spec;
use bingomint::pipeline::Progress;
use bingomint::seed::Seed;

/// The battery on --games call orders, or on the games hall logs revealed.
pub fn calls(args: &Args) -> Result<(Battery, About, String)> {
    if !args.log.is_empty() {
        return logged(args);
    }
    let game = args.game.as_deref().unwrap_or("75");
    let balls = Spec::named(game)
        .context("--game: choose one of the games listed")?
        .balls();
    let base = args.seed.as_deref().map(Seed::parse);
    if base.is_none() {
        bingomint::hall::fresh_seed().context("cannot read a seed from the operating system")?;
    }
    // Without --seed each game's seed is made as a live hall makes it.
    let seed_of = |g: u64| match &base {
        Some(s) => audit::calls::game_seed(s.value, g),
        None => {
            Seed::parse(
                &bingomint::hall::fresh_seed().expect("the entropy source answered a moment ago"),
            )
            .value
        }
    };
    let battery = run(args, balls, args.games, &seed_of)?;
    let seeds = match &base {
        Some(s) => format!("game g: XXH3 of g under the base seed {s} (reproducible)"),
        None => "every game's seed fresh from the operating system, as a live hall makes it".into(),
    };
    about(args, battery, seeds, game.to_string())
}

/// `--calls --log LOG…`: the games the logs revealed.
fn logged(args: &Args) -> Result<(Battery, About, String)> {
    let mut seeds = Vec::new();
    for log in &args.log {
        let text = std::fs::read_to_string(log)
            .with_context(|| format!("cannot read '{}'", log.display()))?;
        let found = bingomint::hall::revealed(&text).map_err(|e| {
            anyhow::anyhow!(
                "--log '{}': {e}; `bingomint hall verify` says more",
                log.display()
            )
        })?;
        seeds.extend(found);
    }
    let balls = seeds.first().map(|s| s.0).unwrap_or(75);
    anyhow::ensure!(
        seeds.iter().all(|s| s.0 == balls),
        "--log: the logs hold games of different numbers of balls; audit one game at a time"
    );
    anyhow::ensure!(
        seeds.len() >= 100,
        "--log: the logs revealed {} games; the calls tests need at least 100 (give more nights' logs)",
        seeds.len()
    );
    let values: Vec<u64> = seeds.iter().map(|(_, s)| Seed::parse(s).value).collect();
    let battery = run(args, balls, values.len() as u64, &|g| values[g as usize])?;
    let what = format!(
        "the {} games revealed in {} hall logs",
        values.len(),
        args.log.len()
    );
    about(args, battery, what, balls.to_string())
}

fn run(
    args: &Args,
    balls: u8,
    games: u64,
    seed_of: &(dyn Fn(u64) -> u64 + Sync),
) -> Result<Battery> {
    let bar = Bar::new(games, "game", args.quiet);
    let done = |n: u64| bar.advance(n);
    let battery = pooled(args, || audit::calls::battery(balls, games, seed_of, &done))?;
    bar.finish();
    Ok(battery)
}

fn about(
    args: &Args,
    battery: Battery,
    seeds: String,
    game: String,
) -> Result<(Battery, About, String)> {
    let mut about = vec![
        ("calls".to_string(), battery.subject.clone()),
        ("seeds".into(), seeds),
        (
            "call order".into(),
            "a Fisher–Yates shuffle of every number from the game seed's calls stream".into(),
        ),
    ];
    about.extend(auditor(args)?);
    Ok((battery, about, game))
}
