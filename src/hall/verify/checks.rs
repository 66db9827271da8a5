//! A game's checks once it ends: its calls against its revealed seed (or
//! a blower's rules), every claim judged again on the calls it saw, every
//! payout found again.

use super::{finding, Finding, Game, Summary};
use crate::hall::event as ev;
use crate::hall::event::Source;
use crate::hall::judge::Cards;
use crate::hall::money::{split, MAX_MINOR};
use crate::hall::payout::MAX_WINNERS;
use crate::hall::rules::Share;
use crate::hall::{commitment, HallError};
use crate::play::calls::Calls;
use crate::play::pattern::Pattern;

/// The most a night's payouts may add up to: a million of the largest
/// prize, far inside `u64`.
const MAX_NIGHT: u64 = MAX_MINOR * 1_000_000;

pub(super) fn check_game(
    g: &Game,
    seed: &str,
    at: u64,
    cards: &Cards,
    summary: &mut Summary,
) -> Result<(), Finding> {
    check_calls(g, seed, at, summary)?;
    let spec = cards.files[0].header().spec;
    let pattern = |line: u64, stage: &str| {
        Pattern::parse(stage, spec).map_err(|e| finding(line, e.to_string()))
    };
    for (line, card, stage, calls, win) in &g.claims {
        let judged = cards.judge(
            card,
            &pattern(*line, stage)?,
            &g.rules.judged(g.balls, calls),
            g.last_call,
        );
        if judged.win != *win {
            let said = if *win { "a win" } else { "no win" };
            return Err(finding(
                *line,
                format!(
                    "the claim {card:?} was logged as {said}, but judged again: {}",
                    judged.reason
                ),
            ));
        }
        summary.claims += 1;
    }
    for (line, payout, calls, claimed) in &g.payouts {
        let paid = check_payout(
            g,
            Paid {
                line: *line,
                payout,
                calls,
                claimed,
            },
            cards,
            &pattern(*line, &payout.stage)?,
        )?;
        add_paid(summary, paid, *line)?;
        summary.payouts += 1;
    }
    // A game with money pays every prize it accepted a win of.
    if !g.rules.amounts.is_empty() || g.rules.jackpot.is_some() {
        let paid = |stage: &str| g.payouts.iter().any(|(_, p, ..)| p.stage == stage);
        if let Some((line, stage)) = g.wins.iter().find(|(_, s)| !paid(s)) {
            return Err(finding(
                *line,
                format!("an accepted win of {stage} that no payout line pays"),
            ));
        }
    }
    Ok(())
}

/// The game's calls: a blower's with no seed, commitment or room seed;
/// a seeded game's against its revealed order ([`check_order`]); counted.
fn check_calls(g: &Game, seed: &str, at: u64, summary: &mut Summary) -> Result<(), Finding> {
    if g.rules.blower {
        if !seed.is_empty() || !g.commitment.is_empty() || g.room.is_some() {
            return Err(finding(
                at,
                "a game of balls from a blower with a seed, a commitment or a room seed".into(),
            ));
        }
        summary.blower += 1;
        summary.blower_calls += g.calls.len() as u64;
    } else {
        check_order(g, seed, at)?;
    }
    summary.calls += g.calls.len() as u64;
    Ok(())
}

/// `paid` added to the night's sum, which no night's takings pass.
pub(super) fn add_paid(summary: &mut Summary, paid: u64, line: u64) -> Result<(), Finding> {
    summary.paid = (summary.paid.checked_add(paid))
        .filter(|&p| p <= MAX_NIGHT)
        .ok_or_else(|| {
            finding(
                line,
                "the night's payouts add up past any night's takings".into(),
            )
        })?;
    Ok(())
}

/// A payout's line, the calls it was paid at, and the cards claimed for
/// its prize by then.
struct Paid<'a> {
    line: u64,
    payout: &'a ev::Payout,
    calls: &'a [u8],
    claimed: &'a [String],
}

/// The faces a prize is due to by the game's rule of sharing: every sold
/// face holding it at `calls`, or those of them claimed.
fn due_to(
    g: &Game,
    paid: &Paid,
    cards: &Cards,
    pattern: &Pattern,
) -> Result<Vec<String>, HallError> {
    let calls = g.rules.judged(g.balls, paid.calls);
    let mut due = Vec::new();
    match g.rules.share {
        Share::AllHolders => {
            let found = cards.winning(pattern, &calls, g.last_call, MAX_WINNERS)?;
            due.extend(found.iter().map(|&(f, n)| cards.label(f, n)));
        }
        Share::Claimed => {
            for card in paid.claimed {
                let Ok((f, n)) = cards.find(card) else {
                    continue;
                };
                let label = cards.label(f, n);
                if cards.sold(f, n)
                    && cards.holds(f, n, pattern, &calls, g.last_call)?
                    && !due.contains(&label)
                {
                    due.push(label);
                }
            }
        }
    }
    Ok(due)
}

/// A payout found again: the faces the game's rule of sharing pays at its
/// call, the amount its rules give, the shares of it. Returns what it paid.
fn check_payout(g: &Game, paid: Paid, cards: &Cards, pattern: &Pattern) -> Result<u64, Finding> {
    let line = paid.line;
    let ev::Payout {
        stage,
        call,
        kind,
        amount,
        winners,
        shares,
        ..
    } = paid.payout;
    let bad = |what: String| finding(line, what);
    let mut due = due_to(g, &paid, cards, pattern).map_err(|e| bad(e.to_string()))?;
    let mut logged = winners.clone();
    due.sort();
    logged.sort();
    if due != logged {
        let whose = match g.rules.share {
            Share::AllHolders => "sold faces hold it then",
            Share::Claimed => "faces claimed for it hold it then",
        };
        return Err(bad(format!(
            "the payout of {stage} at call {call} names {} faces, but {} {whose}",
            winners.len(),
            due.len()
        )));
    }
    let k = g.stages.iter().position(|s| s == stage).unwrap_or(0);
    let rule = g.rules.due(k, g.stages.len(), *call);
    if rule.map(|d| d.amount) != *amount || rule.and_then(|d| d.kind) != *kind {
        let said = amount.map_or("no amount".into(), |a| g.rules.money(a));
        let right = rule.map_or("no amount".into(), |d| g.rules.money(d.amount));
        return Err(bad(format!(
            "the payout of {stage} at call {call} is {said}, but the game's rules give {right}"
        )));
    }
    let split = amount.map_or(Vec::new(), |a| split(a, winners.len()));
    if *shares != split {
        return Err(bad(format!("the payout of {stage} at call {call} is shared as {shares:?}, but equal shares are {split:?}")));
    }
    Ok(shares.iter().sum())
}

/// A game's calls against its revealed seed (and room seed).
fn check_order(g: &Game, seed: &str, at: u64) -> Result<(), Finding> {
    if commitment(seed) != g.commitment {
        return Err(Finding {
            line: at,
            what: format!(
                "the revealed seed's SHA-256 is not the commitment {}",
                g.commitment
            ),
        });
    }
    let live = crate::play::live::is_live(seed);
    let room = match &g.room {
        Some((_, room)) => room.as_deref().unwrap_or(""),
        // A live game logs its room seed (or that it has none) before the
        // first call; an older one has none.
        None if live && !g.calls.is_empty() => {
            return Err(Finding {
                line: g.calls[0].0,
                what: "the first call came with no room seed line before it".into(),
            })
        }
        None => "",
    };
    if let (false, Some((line, _))) = (live, &g.room) {
        return Err(Finding {
            line: *line,
            what: "a room seed for a game whose seed is of the older form".into(),
        });
    }
    let order = Calls::of_hall(g.balls, seed, room, usize::from(g.balls));
    for &(line, call, ball) in &g.calls {
        // Calls are checked one after another when read: call - 1 is a
        // place in the order.
        let Some(&due) = call.checked_sub(1).and_then(|i| order.order().get(i)) else {
            return Err(Finding {
                line,
                what: format!("call {call} is past the game's {} numbers", g.balls),
            });
        };
        if ball != due {
            return Err(Finding {
                line,
                what: format!("call {call} was {ball}, but the committed order gives {due}"),
            });
        }
    }
    Ok(())
}

pub(super) fn name(source: Source) -> &'static str {
    match source {
        Source::Rng => "hall's generator",
        Source::Blower => "blower",
    }
}
