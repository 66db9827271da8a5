//! The battery on games' call orders, drawn as a live game draws them.

use super::args::Generator;
use super::{auditor, pooled, About, Args};
use crate::cmd::Bar;
use anyhow::{Context, Result};
use bingomint::audit::{self, Battery};
use bingomint::game::Spec;
use bingomint::pipeline::Progress;
use bingomint::play::calls::Calls;
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
    let k = usize::from(balls);
    let base = args.seed.as_deref();
    bingomint::hall::fresh_seed().context("cannot read a seed from the operating system")?;
    let fresh = || bingomint::hall::fresh_seed().expect("the entropy source answered a moment ago");
    let (battery, seeds, order) = match args.generator {
        // Game g's 64-bit seed under the base seed, or from a fresh hall
        // seed of the older form's hash.
        Generator::Mint => {
            let base = base.map(Seed::parse);
            let order = |g: u64| {
                let seed = match &base {
                    Some(s) => audit::calls::game_seed(s.value, g),
                    None => Seed::parse(&fresh()).value,
                };
                Calls::seeded(balls, seed, k)
            };
            let seeds = match &base {
                Some(s) => format!("game g: XXH3 of g under the base seed {s} (reproducible)"),
                None => {
                    "every game's 64-bit seed the XXH3 of a fresh seed from the operating system"
                        .into()
                }
            };
            let order_text = "a Fisher–Yates shuffle of every number from the game seed's calls stream (xoshiro256++)";
            (run(args, balls, args.games, &order)?, seeds, order_text)
        }
        // As a live hall draws: game g's hall seed, the order from ChaCha20.
        Generator::Hall => {
            let order = |g: u64| {
                let seed = match base {
                    Some(b) => audit::calls::hall_seed(b, g),
                    None => fresh(),
                };
                Calls::of_hall(balls, &seed, "", k)
            };
            let seeds = match base {
                Some(b) => format!("game g: hall2- and the SHA-256 of \"{b}/g\" (reproducible)"),
                None => "every game's seed fresh from the operating system, as a live hall makes it (hall2-, 256 bits)".into(),
            };
            let order_text = "as a live hall draws it: ChaCha20 keyed by the SHA-256 of the whole seed (docs/hall.md), no room seed";
            (run(args, balls, args.games, &order)?, seeds, order_text)
        }
    };
    about(args, battery, seeds, order.to_string(), game.to_string())
}

/// `--call-orders --log LOG…`: the games the logs revealed.
fn logged(args: &Args) -> Result<(Battery, About, String)> {
    let mut ended = Vec::new();
    for log in &args.log {
        let text = std::fs::read_to_string(log)
            .with_context(|| format!("cannot read '{}'", log.display()))?;
        let found = bingomint::hall::revealed(&text).map_err(|e| {
            anyhow::anyhow!(
                "--log '{}': {e}; `bingomint hall verify` says more",
                log.display()
            )
        })?;
        ended.extend(found);
    }
    let balls = ended.first().map(|e| e.balls).unwrap_or(75);
    anyhow::ensure!(
        ended.iter().all(|e| e.balls == balls),
        "--log: the logs hold games of different numbers of balls; audit one game at a time"
    );
    anyhow::ensure!(
        ended.len() >= 100,
        "--log: the logs revealed {} games; the calls tests need at least 100 (give more nights' logs)",
        ended.len()
    );
    let battery = run(args, balls, ended.len() as u64, &|g| {
        ended[g as usize].calls()
    })?;
    let what = format!(
        "the {} games revealed in {} hall logs",
        ended.len(),
        args.log.len()
    );
    let order = "each game's own: its revealed seed and room seed, drawn as the hall drew them";
    about(args, battery, what, order.into(), balls.to_string())
}

fn run(
    args: &Args,
    balls: u8,
    games: u64,
    order: &(dyn Fn(u64) -> Calls + Sync),
) -> Result<Battery> {
    let bar = Bar::new(games, "game", args.quiet);
    let done = |n: u64| bar.advance(n);
    let battery = pooled(args, || audit::calls::battery(balls, games, order, &done))?;
    bar.finish();
    Ok(battery)
}

fn about(
    args: &Args,
    battery: Battery,
    seeds: String,
    order: String,
    game: String,
) -> Result<(Battery, About, String)> {
    let mut about = vec![
        ("calls".to_string(), battery.subject.clone()),
        ("seeds".into(), seeds),
        ("call order".into(), order),
    ];
    about.extend(auditor(args)?);
    Ok((battery, about, game))
}
