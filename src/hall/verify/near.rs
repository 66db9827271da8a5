//! A consolation by closeness checked: logged once, right after the
//! payout of the game's last stage and at its call, and found again by a
//! scan of every sold face: the same distance, count and faces, the
//! amount the rules give, equal shares.

use super::checks::add_paid;
use super::{finding, Finding, Game, Summary};
use crate::hall::event as ev;
use crate::hall::judge::Cards;
use crate::hall::money::split;
use crate::hall::payout::MAX_WINNERS;
use crate::hall::rules::Near;
use crate::play::pattern::Pattern;

impl Game {
    /// A consolation's line, where one may stand.
    pub(super) fn near(&mut self, at: u64, near: &ev::NearPayout) -> Result<(), Finding> {
        let (stage, call) = (&near.stage, &near.call);
        if self.rules.near.is_none() {
            return Err(finding(
                at,
                "a consolation by closeness in a game whose rules have none".into(),
            ));
        }
        if self.near.is_some() {
            return Err(finding(at, "a second consolation by closeness".into()));
        }
        let last = self.stages.last().map_or("", String::as_str);
        let follows =
            (self.payouts.last()).is_some_and(|(_, p, ..)| p.stage == last && p.call == *call);
        if stage != last || !follows {
            return Err(finding(at, format!("a consolation for {stage} at call {call} that does not follow the payout of the game's last stage ({last}) at that call")));
        }
        let calls = self.shown_to(at, *call)?;
        self.near = Some((at, near.clone(), calls));
        Ok(())
    }
}

/// The game's consolation, found again; a game whose last stage was paid
/// must have paid it. `at` is the game's end.
pub(super) fn check_near(
    g: &Game,
    at: u64,
    cards: &Cards,
    summary: &mut Summary,
) -> Result<(), Finding> {
    let Some(rule) = g.rules.near else {
        return Ok(());
    };
    let Some((line, near, calls)) = &g.near else {
        return none_paid(g, rule, at);
    };
    let ev::NearPayout {
        stage,
        call,
        to_go,
        faces,
        amount,
        winners,
        shares,
        ..
    } = near;
    let bad = |what: String| finding(*line, what);
    let spec = cards.files[0].header().spec;
    let pattern = Pattern::parse(stage, spec).map_err(|e| bad(e.to_string()))?;
    let judged = g.rules.judged(g.balls, calls);
    let away =
        (cards.away(&pattern, &judged, rule.to_go, MAX_WINNERS)).map_err(|e| bad(e.to_string()))?;
    let due: Vec<String> = (away.listed.iter())
        .map(|&(f, n)| cards.label(f, n))
        .collect();
    if (away.to_go, away.faces) != (*to_go, *faces) || due != *winners {
        return Err(bad(format!(
            "the consolation at call {call} pays {} faces {to_go} to go, but {} sold faces were {} to go then ({} listed)",
            winners.len(),
            away.faces,
            away.to_go,
            due.len()
        )));
    }
    if *amount != rule.prize {
        return Err(bad(format!(
            "the consolation at call {call} is {}, but the game's rules give {}",
            g.rules.money(*amount),
            g.rules.money(rule.prize)
        )));
    }
    let equal = split(*amount, winners.len());
    if *shares != equal {
        return Err(bad(format!(
            "the consolation at call {call} is shared as {shares:?}, but equal shares are {equal:?}"
        )));
    }
    add_paid(summary, shares.iter().sum(), *line)?;
    summary.payouts += 1;
    Ok(())
}

/// A game with a consolation `rule` that paid none: refused when its last
/// stage was paid (`at`: the game's end).
fn none_paid(g: &Game, rule: Near, at: u64) -> Result<(), Finding> {
    let last = g.stages.last().map_or("", String::as_str);
    if g.payouts.iter().any(|(_, p, ..)| p.stage == last) {
        return Err(finding(
            at,
            format!(
                "{last} was paid, but its consolation to the faces {} was not",
                rule.words()
            ),
        ));
    }
    Ok(())
}
