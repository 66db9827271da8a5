//! `hall verify`: a log checked after the night. The chain of hashes, each
//! ended game's revealed seed against its commitment, every call against
//! the order that seed gives, every recall, and every claim judged again
//! on the card files. The first bad line is named.

use super::judge::Cards;
use super::log::read;
use super::{commitment, Event};
use crate::play::calls::Calls;
use crate::play::pattern::Pattern;
use crate::seed::Seed;

/// The first thing wrong, and its line.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    pub line: u64,
    pub what: String,
}

/// What a sound log held.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub lines: u64,
    pub games: u64,
    pub calls: u64,
    pub claims: u64,
    /// A game not ended (its calls cannot be checked before its seed is out).
    pub open: Option<u64>,
}

struct Game {
    balls: u8,
    stages: Vec<String>,
    last_call: bool,
    commitment: String,
    /// (line, call, ball) of every call made, and the calls shown now.
    calls: Vec<(u64, usize, u8)>,
    shown: Vec<u8>,
    /// (line, card, stage, calls shown, logged verdict).
    claims: Vec<(u64, String, String, usize, bool)>,
}

/// Checks the log `text` against `cards` (the session's card files).
pub fn verify(text: &str, cards: &mut Cards) -> Result<Summary, Finding> {
    let (lines, _) = read(text).map_err(|e| match e {
        super::log::LogError::Bad { line, why } => Finding { line, what: why },
        e => Finding {
            line: 0,
            what: e.to_string(),
        },
    })?;
    let mut summary = Summary {
        lines: lines.len() as u64,
        ..Summary::default()
    };
    let mut game: Option<(u64, Game)> = None;
    for line in &lines {
        let at = line.seq;
        let bad = |what: String| Finding { line: at, what };
        match &line.event {
            Event::Session { files, sold } => {
                for f in files {
                    if !cards.files.iter().any(|c| c.short_id() == f.id) {
                        return Err(bad(format!(
                            "the session used the file {} (id {}); give it with --cards",
                            f.path, f.id
                        )));
                    }
                }
                cards.sold = sold.as_deref().map(parse_sold).transpose().map_err(bad)?;
            }
            Event::GameStart {
                game: g,
                balls,
                stages,
                last_call,
                commitment,
                ..
            } => {
                if game.is_some() {
                    return Err(bad("a game starts while another is open".into()));
                }
                let new = Game {
                    balls: *balls,
                    stages: stages.clone(),
                    last_call: *last_call,
                    commitment: commitment.clone(),
                    calls: vec![],
                    shown: vec![],
                    claims: vec![],
                };
                game = Some((*g, new));
            }
            Event::Call { call, ball, .. } => {
                let (_, g) = game
                    .as_mut()
                    .ok_or_else(|| bad("a call with no game open".into()))?;
                if *call != g.shown.len() + 1 {
                    return Err(bad(format!(
                        "call {call} comes after {} calls shown",
                        g.shown.len()
                    )));
                }
                g.calls.push((at, *call, *ball));
                g.shown.push(*ball);
            }
            Event::Recall { call, ball, .. } => {
                let (_, g) = game
                    .as_mut()
                    .ok_or_else(|| bad("a recall with no game open".into()))?;
                if g.shown.last() != Some(ball) || *call != g.shown.len() {
                    return Err(bad(format!(
                        "recall of call {call} ({ball}), which is not the last call shown"
                    )));
                }
                g.shown.pop();
            }
            Event::Claim {
                card,
                stage,
                call,
                win,
                ..
            } => {
                let (_, g) = game
                    .as_mut()
                    .ok_or_else(|| bad("a claim with no game open".into()))?;
                if *call != g.shown.len() || !g.stages.contains(stage) {
                    return Err(bad(format!(
                        "a claim at call {call} for {stage}, which this game was not at"
                    )));
                }
                g.claims
                    .push((at, card.clone(), stage.clone(), *call, *win));
            }
            Event::Stage { .. } => {}
            Event::GameEnd { game: ended, seed } => {
                let (g_no, g) = game
                    .take()
                    .ok_or_else(|| bad("a game ends that never started".into()))?;
                if g_no != *ended {
                    return Err(bad(format!("game {ended} ends, but game {g_no} was open")));
                }
                check_game(&g, seed, at, cards, &mut summary)?;
                summary.games += 1;
            }
        }
    }
    summary.open = game.map(|(g, _)| g);
    Ok(summary)
}

fn check_game(
    g: &Game,
    seed: &str,
    at: u64,
    cards: &Cards,
    summary: &mut Summary,
) -> Result<(), Finding> {
    if commitment(seed) != g.commitment {
        return Err(Finding {
            line: at,
            what: format!(
                "the revealed seed's SHA-256 is not the commitment {}",
                g.commitment
            ),
        });
    }
    let value = Seed::parse(seed).value;
    let order = Calls::seeded(g.balls, value, usize::from(g.balls));
    for &(line, call, ball) in &g.calls {
        let due = order.order()[call - 1];
        if ball != due {
            return Err(Finding {
                line,
                what: format!("call {call} was {ball}, but the committed order gives {due}"),
            });
        }
        summary.calls += 1;
    }
    let spec = cards.files[0].header().spec;
    for (line, card, stage, call, win) in &g.claims {
        let pattern = Pattern::parse(stage, spec).map_err(|e| Finding {
            line: *line,
            what: e.to_string(),
        })?;
        let judged = cards.judge(
            card,
            &pattern,
            &Calls::seeded(g.balls, value, *call),
            g.last_call,
        );
        if judged.win != *win {
            let said = if *win { "a win" } else { "no win" };
            return Err(Finding {
                line: *line,
                what: format!(
                    "the claim {card:?} was logged as {said}, but judged again: {}",
                    judged.reason
                ),
            });
        }
        summary.claims += 1;
    }
    Ok(())
}

/// `--sold`: face ranges `A..B` or single faces, separated by commas.
pub fn parse_sold(text: &str) -> Result<Vec<std::ops::RangeInclusive<u64>>, String> {
    let mut ranges = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| format!("{part:?} is not a face number or a range like 1..5000"))
        };
        let range = match part.split_once("..") {
            Some((a, b)) => number(a)?..=number(b)?,
            None => number(part)?..=number(part)?,
        };
        if range.is_empty() || *range.start() == 0 {
            return Err(format!(
                "{part:?} is an empty range: faces start at 1 and a range runs low..high"
            ));
        }
        ranges.push(range);
    }
    if ranges.is_empty() {
        return Err("name the faces sold, such as 1..5000,7001..9000".into());
    }
    Ok(ranges)
}
