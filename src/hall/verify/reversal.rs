//! A payout taken back after its game ended (`payout_reversed`), checked
//! on its own: the last ended game's last payout (and the consolation paid
//! with it), its amount as paid, once, never a progressive jackpot's game.

use super::{Finding, Game, Summary};
use crate::hall::event as ev;

/// The last game ended while no other has started: its last payout, as
/// the log paid it, may be taken back once.
pub(super) struct LastEnded {
    game: u64,
    /// (stage, call, its shares and the consolation paid with it).
    last: Option<(String, usize, u64)>,
    progressive: bool,
}

impl LastEnded {
    pub(super) fn of(game: u64, g: &Game) -> LastEnded {
        let near = |stage: &str| {
            (g.near.as_ref())
                .filter(|(_, n, _)| n.stage == stage)
                .map_or(0, |(_, n, _)| {
                    n.shares.iter().fold(0u64, |a, &b| a.saturating_add(b))
                })
        };
        let last = g.payouts.last().map(|(_, p, ..)| {
            let shares = p.shares.iter().fold(0u64, |a, &b| a.saturating_add(b));
            (
                p.stage.clone(),
                p.call,
                shares.saturating_add(near(&p.stage)),
            )
        });
        LastEnded {
            game,
            last,
            progressive: g.rules.progressive.is_some(),
        }
    }

    /// A reversal's line `r` at line `at`: the last ended game's last
    /// payout, its amount, once; out of the night's sum.
    pub(super) fn reverse(
        this: &mut Option<LastEnded>,
        at: u64,
        r: &ev::Reversal,
        summary: &mut Summary,
    ) -> Result<(), Finding> {
        let bad = |what: String| Finding { line: at, what };
        let ended = (this.as_mut())
            .filter(|e| e.game == r.game)
            .ok_or_else(|| bad(format!("a payout of game {} taken back, which is not the last game ended (or another game started since)", r.game)))?;
        if ended.progressive {
            return Err(bad(format!(
                "a payout of game {} taken back, a game of a progressive jackpot the ledger carried on",
                r.game
            )));
        }
        let paid = (ended.last.take())
            .filter(|(stage, call, _)| (stage, *call) == (&r.stage, r.call))
            .ok_or_else(|| bad(format!("the payout of {} at call {} taken back, which is not game {}'s last payout (or was taken back already)", r.stage, r.call, r.game)))?;
        if paid.2 != r.amount {
            return Err(bad(format!(
                "the payout of {} at call {} taken back as {}, but it paid {} (with its consolation)",
                r.stage, r.call, r.amount, paid.2
            )));
        }
        if r.reason.trim().is_empty() {
            return Err(bad("a payout taken back with no reason".into()));
        }
        summary.paid = summary.paid.saturating_sub(r.amount);
        summary.reversed += 1;
        Ok(())
    }
}
