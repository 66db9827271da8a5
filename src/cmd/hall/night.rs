//! `hall --night FILE`: the night's programme read and checked against the
//! cards' game; `--check` says what it holds and exits.

use super::args::Args;
use crate::cmd::{outln, Outcome};
use anyhow::{Context, Result};
use bingomint::game::Spec;
use bingomint::hall::night::Night;
use bingomint::hall::rules::Plan;
use bingomint::hall::NightEntry;
use std::path::Path;

/// The night file at `path`, checked against the game of `spec` (else the
/// file's `balls`, else 75-ball).
pub(super) fn load(path: &Path, spec: Option<Spec>) -> Result<(Night, NightEntry)> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--night '{shown}': cannot read it"))?;
    let night = Night::parse(&text).map_err(|e| anyhow::anyhow!("--night '{shown}': {e}"))?;
    let spec = match (spec, night.balls) {
        (Some(spec), _) => spec,
        (None, Some(b)) => Spec::named(&b.to_string()).ok_or_else(|| {
            anyhow::anyhow!("--night '{shown}': balls: {b} is not a game: 75, 80 or 90")
        })?,
        (None, None) => Spec::named("75").expect("75-ball is a game"),
    };
    night
        .check(spec)
        .map_err(|e| anyhow::anyhow!("--night '{shown}': {e}"))?;
    let entry = NightEntry {
        path: path.display().to_string(),
        sha256: bingomint::input::sha256_file(path)
            .with_context(|| format!("cannot read '{shown}'"))?,
        title: night.title.clone(),
        games: night.games.len(),
    };
    Ok((night, entry))
}

/// A night that sells by serial range: its faces are one card file's, and
/// what each game plays is what was sold, not `--sold`.
pub(super) fn sells(night: &Night, args: &Args, files: usize) -> Result<()> {
    anyhow::ensure!(
        args.sold.is_none(),
        "--sold: the night file lists [[product]]s, so what is sold is what the console issues by serial range (POST /api/sales); leave out --sold, or the products"
    );
    anyhow::ensure!(
        files == 1,
        "--cards: a night of [[product]]s sells the faces of one card file; give one --cards (it has {files})"
    );
    let _ = night;
    Ok(())
}

/// A game of the programme in one line: its name, stages, prize, paper
/// and specials.
fn game_line(plan: &Plan) -> String {
    let r = &plan.rules;
    let mut line = format!(
        "{}: {}",
        r.name.as_deref().unwrap_or(""),
        plan.stages.join(if r.concurrent { " + " } else { " → " })
    );
    let prize = plan.prize_text();
    if !prize.is_empty() {
        line += &format!(" · {prize}");
    }
    if let Some(paper) = &r.paper {
        line += &format!(" · {paper} paper");
    }
    if let (Some(j), Some(p)) = (r.jackpot, &r.progressive) {
        line += &format!(
            " · progressive jackpot {:?} (its pot and calls from the ledger), else {}",
            p.name,
            r.money(j.consolation)
        );
    } else if let Some(j) = r.jackpot {
        line += &format!(
            " · jackpot {} within {} calls, else {}",
            r.money(j.prize),
            j.within,
            r.money(j.consolation)
        );
    }
    if r.precalls > 0 {
        line += &format!(" · {} precalls", r.precalls);
    }
    if r.wild {
        line += " · wild";
    }
    line
}

/// `hall --night FILE --check`: the programme, game by game.
pub(super) fn check(args: &Args) -> Result<Outcome> {
    let path = args.night.as_deref().expect("--check requires --night");
    let spec = match args.cards.first() {
        Some(first) => Some(
            super::open_cards(std::slice::from_ref(first))?.0[0]
                .header()
                .spec,
        ),
        None => None,
    };
    let (night, _) = load(path, spec)?;
    outln!(
        "OK: {}: {:?}, {} games",
        path.display(),
        night.title,
        night.games.len()
    );
    for (i, plan) in night.games.iter().enumerate() {
        outln!("{:>3}. {}", i + 1, game_line(plan));
    }
    for p in &night.products {
        let games = if let Some(game) = &p.linked {
            format!("the linked game {game} (none of the night's own)")
        } else if p.games.is_empty() {
            "every game".to_string()
        } else {
            let k: Vec<String> = p.games.iter().map(usize::to_string).collect();
            format!("games {}", k.join(", "))
        };
        outln!(
            "  product {:?}: {} for {} face{} ({}), {games}",
            p.name,
            bingomint::hall::money::show(p.price, &night.currency),
            p.faces,
            if p.faces == 1 { "" } else { "s" },
            p.kind()
        );
    }
    for p in &night.progressives {
        outln!("  progressive {:?}: {}", p.name, p.words(&night.currency));
    }
    Ok(Outcome::Success)
}
