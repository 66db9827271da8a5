//! An ended game's last payout taken back (a win accepted by mistake, found
//! after the game ended): decided here ([`Books::reverse`]) and booked
//! ([`Books::apply_reversal`]). The game stays ended, as its seed is out;
//! the payout and the consolation by closeness paid with it are no longer
//! paid. A game of a progressive jackpot is not reversed: the ledger
//! carried its outcome on when it ended.

use super::super::event::{self as ev, Event};
use super::super::open::Open;
use super::{Books, Mismatch, Refusal};

/// The last ended game, as far as its last payout may be taken back.
#[derive(Clone, Debug, Default)]
pub(in crate::hall) struct Ended {
    pub game: u64,
    /// Its last payout not taken back: (stage, call, the amount a reversal
    /// takes back: its shares and the consolation paid with it).
    pub last: Option<(String, usize, u64)>,
    /// The progressive jackpot it played, if any.
    pub progressive: Option<String>,
}

impl Ended {
    /// Game `open` as it ends, `near` the consolation paid with its last
    /// stage (minor units).
    pub fn of(open: &Open, near: u64) -> Ended {
        let last_stage = open.stages.last();
        let last = open.payouts.last().map(|p| {
            let with = if Some(&p.stage) == last_stage {
                near
            } else {
                0
            };
            (p.stage.clone(), p.call, p.minor.saturating_add(with))
        });
        Ended {
            game: open.game,
            last,
            progressive: open.rules.progressive.as_ref().map(|p| p.name.clone()),
        }
    }
}

impl Books {
    /// What a void would take back now no game is open: the last ended
    /// game's last payout, unless a progressive jackpot's.
    pub(in crate::hall) fn reversible(&self) -> Option<crate::hall::state::Reversible> {
        let e = self.ended.as_ref().filter(|e| e.progressive.is_none())?;
        let (stage, call, _) = e.last.clone()?;
        Some(crate::hall::state::Reversible {
            game: e.game,
            stage,
            call,
        })
    }

    /// The last ended game's last payout (of `stage`, if named) taken back
    /// for `reason`: when no game is open, what a void asks.
    pub(super) fn reverse(&self, stage: Option<&str>, reason: &str) -> Result<Vec<Event>, Refusal> {
        let ended = self.ended.as_ref().ok_or(Refusal::NoGame)?;
        if let Some(name) = &ended.progressive {
            return Err(Refusal::ReverseJackpot {
                game: ended.game,
                name: name.clone(),
            });
        }
        let (last, call, amount) =
            (ended.last.clone()).ok_or(Refusal::NothingToReverse(ended.game))?;
        if let Some(asked) = stage.filter(|s| *s != last) {
            return Err(Refusal::VoidNotLast {
                last,
                asked: asked.to_string(),
            });
        }
        let reason = crate::shown::shown(reason, crate::shown::max::PRIZE)
            .map_err(|e| Refusal::Rules(format!("reason: {e}")))?;
        if reason.is_empty() {
            return Err(Refusal::VoidReason);
        }
        Ok(vec![Event::PayoutReversed(ev::Reversal {
            game: ended.game,
            stage: last,
            call,
            amount,
            reason,
        })])
    }

    /// A reversal booked: the amount out of the night's sum, once.
    pub(super) fn apply_reversal(&mut self, e: &ev::Reversal) -> Result<(), Mismatch> {
        let ended = (self.ended.as_mut())
            .filter(|x| x.game == e.game && x.progressive.is_none())
            .ok_or(Mismatch::ReversalNotLast)?;
        if ended.last.as_ref() != Some(&(e.stage.clone(), e.call, e.amount)) || e.reason.is_empty()
        {
            return Err(Mismatch::ReversalNotLast);
        }
        ended.last = None;
        self.paid = self.paid.saturating_sub(e.amount);
        Ok(())
    }
}
