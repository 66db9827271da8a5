//! `bingomint simulate`: how many calls a pattern takes to fall with N
//! cards in play, and how often the prize is shared.
//!
//! Flags → the faces (fresh cards from the seed, or a file's) → games in
//! parallel (`play::simulate::play`) → the summary as text or JSON, and a
//! histogram.

mod args;
mod faces;

use super::play::pattern;
use super::{outln, with_threads, Bar, Outcome};
use anyhow::{anyhow, bail, Context, Result};
pub use args::Args;
use bingomint::play::simulate::{play, summarise, svg, Summary};
use bingomint::seed::Seed;
use faces::faces;
use std::time::Instant;

/// Most games one run may play.
const MAX_GAMES: u64 = 1_000_000_000;

/// Runs `simulate`.
pub fn run(args: Args) -> Result<Outcome> {
    if args.games == 0 || args.games > MAX_GAMES {
        bail!("--games must be from 1 to {MAX_GAMES}");
    }
    if let Some(plot) = &args.plot {
        if plot.extension().and_then(|e| e.to_str()) != Some("svg") {
            bail!(
                "--plot '{}': the histogram is written as SVG; give a file ending in .svg",
                plot.display()
            );
        }
        if let Some(from) = &args.from {
            super::not_an_input(plot, "--plot", &[from])?;
        }
        bingomint::cardfile::writer::refuse_existing(plot, args.force)
            .map_err(|e| anyhow!("--plot {e}: choose another file or add --force to replace it"))?;
        // Found now, not after the whole simulation.
        if let Some(dir) = plot.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                bail!(
                    "--plot '{}': the folder '{}' does not exist",
                    plot.display(),
                    dir.display()
                );
            }
        }
    }
    let seed = Seed::parse(&args.seed);
    let started = Instant::now();
    let summary = with_threads(args.threads, || -> Result<(Summary, String, String)> {
        let (spec, faces, what) = faces(&args, seed.value)?;
        let pattern = pattern(&args.pattern, spec)?;
        if !faces.iter().any(|face| pattern.possible(face)) {
            bail!(
                "--pattern {}: no way of it holds a number of any {} in play, so no game \
                 could be won",
                pattern.name(),
                spec.face_noun()
            );
        }
        let balls = spec.balls();
        if let Some(n) = args.within.filter(|&n| n == 0 || n > balls) {
            bail!("--within {n}: a game of {balls} numbers is won within 1 to {balls} calls");
        }
        let bar = Bar::new(args.games, "game", args.quiet);
        let games = play(&faces, &pattern, balls, args.games, seed.value, &bar);
        bar.finish();
        let mut summary = summarise(pattern.name(), faces.len() as u64, seed.value, &games);
        summary.within = args.within.map(|n| summary.within(n));
        Ok((summary, what, spec.face_noun().to_string()))
    })??;
    let (summary, what, face) = summary;
    let secs = started.elapsed().as_secs_f64().max(1e-6);
    if let Some(plot) = &args.plot {
        bingomint::cardfile::writer::write_text(Some(plot), args.force, |out| {
            out.write_all(svg(&summary).as_bytes())
                .with_context(|| format!("cannot write '{}'", plot.display()))
        })?;
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_summary(&summary, &what, &face, secs)?;
    }
    Ok(Outcome::Success)
}

fn print_summary(s: &Summary, what: &str, face: &str, secs: f64) -> Result<()> {
    let won = s.games - s.unwon;
    outln!(
        "pattern {} · {what} · {} games (seed {}) · {:.2} s, {} {face}-games/s",
        s.pattern,
        s.games,
        s.seed,
        secs,
        super::rate(s.games as f64 * s.faces as f64 / secs)
    );
    if won == 0 {
        outln!("no game was won: the pattern cannot be completed on these faces");
        return Ok(());
    }
    outln!(
        "calls to the first win: mean {:.2}, sd {:.2}, median {}, min {}, max {}",
        s.mean,
        s.sd,
        s.median,
        s.min,
        s.max
    );
    let pct: Vec<String> = s
        .percentiles
        .iter()
        .map(|(p, c)| format!("{p}%: {c}"))
        .collect();
    outln!("won by call (share of games): {}", pct.join(" · "));
    outln!(
        "{face}s completing at that call: {:.3} on average; shared in {:.2}% of games",
        s.mean_winners,
        s.shared * 100.0
    );
    if s.unwon > 0 {
        outln!("games with no winner: {}", s.unwon);
    }
    if let Some(w) = &s.within {
        outln!(
            "won within {} calls: {:.2}% of games ({} of {}; 95% interval {:.2}% to {:.2}%)",
            w.calls,
            w.share * 100.0,
            w.games,
            s.games,
            w.low * 100.0,
            w.high * 100.0
        );
    }
    outln!("calls  games  share  cumulative");
    let mut seen = 0;
    for &(call, games) in &s.first_win {
        seen += games;
        outln!(
            "{call:>5}  {games:>5}  {:>5.2}%  {:>6.2}%",
            games as f64 / s.games as f64 * 100.0,
            seen as f64 / s.games as f64 * 100.0
        );
    }
    Ok(())
}
