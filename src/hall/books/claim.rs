//! Claims decided: judged at the console, or sent from a player's phone
//! to wait in the queue ([`super::super::queue`]) until the caller decides.
//! A queued claim is judged at the call and stage it arrived at, so two
//! players who complete a line on the same call both win it, whichever the
//! caller reaches first. A prize is paid to the faces its rule of sharing
//! names ([`super::super::payout`]).

use super::super::judge::{Cards, Judged};
use super::super::open::Open;
use super::super::payout::{near_words, shown_of};
use super::super::state::Verdict;
use super::super::{Event, Refusal};
use super::Books;
use crate::hall::event as ev;

/// A claim as the caller asks it judged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimAsked {
    /// The reference printed on the card (a queued claim's own if none).
    pub card: Option<String>,
    /// Accept it if it wins (pay and move on); a queued claim not
    /// accepted is rejected.
    pub accept: bool,
    /// The player's waiting claim decided.
    pub queued: Option<u64>,
    /// The prize claimed, with prizes open at once.
    pub named: Option<String>,
}

impl Books {
    /// Judges a claim; accepting a win pays the prize ([`Event::Payout`])
    /// and moves the game to its next stage, or ends it after the last
    /// prize: the claim, its payout and the move are one append. A win of
    /// a prize paid already (a shared prize, reached later in the queue) is
    /// accepted when the payout included its face.
    pub(super) fn claim(
        &self,
        cards: &Cards,
        asked: &ClaimAsked,
    ) -> Result<(Verdict, Vec<Event>), Refusal> {
        let (card, stages, call) = self.target(asked)?;
        let (k, mut judged) = self.judge_first(cards, &card, &stages, call)?;
        let open = self.the_open()?;
        let (won_at, paid_here) = won_before(open, k, &mut judged);
        let accepted = asked.accept && judged.win && (won_at.is_none() || paid_here);
        // A win not yet paid: who would share it, shown before it is
        // accepted and paid when it is.
        let payout = match (judged.win, won_at, judged.at) {
            (true, None, Some(face)) => Some(self.payout(cards, k, call, face)?),
            _ => None,
        };
        let sharers = (payout.as_ref()).map_or(Vec::new(), |p| p.winners[1..].to_vec());
        let split = payout.as_ref().map(|p| shown_of(p).text);
        let payout = payout.filter(|_| accepted);
        let stage = open.stages[k].clone();
        let mut events = vec![Event::Claim(ev::Claim {
            game: open.game,
            card: card.clone(),
            stage: stage.clone(),
            call,
            win: judged.win,
            reason: judged.reason.clone(),
            accepted,
            queued: asked.queued,
        })];
        let shown = payout.as_ref().map(shown_of);
        if let Some(payout) = payout {
            events.push(Event::Payout(payout));
            events.extend(self.near_payout(cards, k, call)?);
            events.extend(self.move_on(k)?);
        }
        let verdict = Verdict {
            card,
            win: judged.win,
            reason: judged.reason,
            label: judged.label,
            found: judged.at.is_some(),
            face: judged.face,
            stage,
            call,
            also_winning: sharers,
            accepted,
            queued: asked.queued,
            payout: shown.filter(|_| accepted),
            split: split.filter(|_| !accepted),
            near: events.iter().find_map(|e| e.near().map(near_words)),
        };
        Ok((verdict, events))
    }

    /// How Accept would pay the waiting claim `id` now, if it is a win of
    /// a prize not paid yet.
    pub fn split(&self, cards: &Cards, id: u64) -> Option<String> {
        let w = self.queue.get(id).filter(|w| w.win)?;
        let open = self.open.as_ref()?;
        let k = open.stages.iter().position(|s| *s == w.stage)?;
        if open.won(k).is_some() || w.at.0 >= cards.files.len() {
            return None;
        }
        let payout = self.payout(cards, k, w.call, w.at).ok()?;
        Some(shown_of(&payout).text)
    }

    /// What a claim is judged on: the face, the stages, the call (a queued
    /// claim's, as it arrived).
    fn target(&self, asked: &ClaimAsked) -> Result<(String, Vec<usize>, usize), Refusal> {
        let open = self.the_open()?;
        open.claimable()?;
        match (asked.queued, asked.card.as_deref()) {
            (Some(id), card) => {
                let w = self.queue.get(id).ok_or(Refusal::NotWaiting(id))?;
                if let Some(given) = card.map(str::trim).filter(|g| *g != w.card) {
                    return Err(Refusal::OtherCard {
                        id,
                        queued: w.card.clone(),
                        given: given.to_string(),
                    });
                }
                let stage = open.stages.iter().position(|s| *s == w.stage);
                Ok((w.card.clone(), vec![stage.unwrap_or(open.stage)], w.call))
            }
            (None, Some(card)) => Ok((
                card.trim().to_string(),
                open.candidates(asked.named.as_deref())?,
                open.called(),
            )),
            (None, None) => Err(Refusal::NoFace("name the card claimed".into())),
        }
    }

    /// What follows stage `k`'s payout: the next stage (stages in order,
    /// when `k` is the stage played), or the end after the last stage or
    /// when every prize open at once is won.
    pub(super) fn move_on(&self, k: usize) -> Result<Option<Event>, Refusal> {
        let open = self.the_open()?;
        let game = open.game;
        let all_won = (0..open.stages.len()).all(|j| j == k || open.won(j).is_some());
        let seed = open.revealed_seed()?;
        let end = || Event::GameEnd(ev::GameEnd { game, seed });
        Ok(match open.stages.get(k + 1) {
            _ if open.rules.concurrent => all_won.then(end),
            _ if k != open.stage => None,
            Some(stage) => Some(Event::Stage(ev::Stage {
                game,
                stage: stage.clone(),
            })),
            None => Some(end()),
        })
    }

    /// The payout the log holds an accepted claim for but not the payout
    /// line (a crash between the two lines of an older hall), and what the
    /// console says of it.
    pub(in crate::hall) fn complete_payout(
        &self,
        cards: &Cards,
    ) -> Result<(Vec<Event>, Option<String>), Refusal> {
        let Some((k, call, card)) = &self.unpaid else {
            return Ok((Vec::new(), None));
        };
        let (_, judged) = self.judge_first(cards, card, &[*k], *call)?;
        let Some(face) = judged.at.filter(|_| judged.win) else {
            return Ok((Vec::new(), None));
        };
        let mut events = vec![Event::Payout(self.payout(cards, *k, *call, face)?)];
        events.extend(self.near_payout(cards, *k, *call)?);
        events.extend(self.move_on(*k)?);
        let stage = &self.the_open()?.stages[*k];
        Ok((
            events,
            Some(format!(
                "the win of {stage} by {card:?} at call {call} was accepted, but the hall stopped before its payout was written: it is paid now"
            )),
        ))
    }

    /// `card` judged at `call` against each of `stages` in turn: the first
    /// it wins, else the first (with prizes open at once, the reason names
    /// the prize).
    pub(in crate::hall) fn judge_first(
        &self,
        cards: &Cards,
        card: &str,
        stages: &[usize],
        call: usize,
    ) -> Result<(usize, Judged), Refusal> {
        let open = self.the_open()?;
        let calls = open.calls_at(call);
        let mut first = None;
        for &k in stages {
            let judged = cards.judge(card, &open.patterns[k], &calls, open.last_call);
            if judged.win || judged.at.is_none() {
                return Ok((k, judged));
            }
            first.get_or_insert((k, judged));
        }
        let (k, mut judged) = first.ok_or(Refusal::NoPrizeOpen(open.game))?;
        if open.rules.concurrent && stages.len() > 1 {
            judged.reason = format!(
                "no open prize is won; {}: {}",
                open.stages[k], judged.reason
            );
        }
        Ok((k, judged))
    }

    /// A player's claim on `card` from `client`: checked (a sold face of
    /// the hall's, an open game, within the caps) and judged now, to join
    /// the queue.
    pub(super) fn bingo(
        &self,
        cards: &Cards,
        card: &str,
        client_waiting: usize,
        device: Option<&str>,
    ) -> Result<ev::Queued, Refusal> {
        let open = self.the_open()?;
        open.claimable()?;
        let card = card.trim();
        let (f, n) = cards.find(card)?;
        if !cards.sold(f, n) {
            return Err(self.not_sold(cards, f, n));
        }
        let pack = self.pack_claimed(f, n, device)?;
        let candidates = open.candidates(None)?;
        let (k, judged) = self.judge_first(cards, card, &candidates, open.called())?;
        self.queue.admits((f, n), client_waiting, judged.win)?;
        Ok(ev::Queued {
            game: open.game,
            id: self.queue.last + 1,
            card: card.to_string(),
            stage: open.stages[k].clone(),
            call: open.called(),
            win: judged.win,
            reason: judged.reason,
            pack,
        })
    }

    /// The electronic pack a player's claim on face `n` of file `f` names:
    /// its pack, when the claiming device holds it; refused from another
    /// device when packs play on one device only.
    fn pack_claimed(&self, f: usize, n: u64, device: Option<&str>) -> Result<Option<u64>, Refusal> {
        let sales = &self.sales;
        let Some((pack, _)) = sales.pack_of(n).filter(|_| f == 0) else {
            return Ok(None);
        };
        let on = pack.device.is_some() && pack.device.as_deref() == device;
        let one = sales.electronic.as_ref().is_some_and(|e| e.one_device);
        match (on, one) {
            (true, _) => Ok(Some(pack.sale)),
            (false, true) => Err(Refusal::Sale(super::super::sales::SaleError::OtherDevice {
                face: n,
                pack: pack.sale,
            })),
            (false, false) => Ok(None),
        }
    }

    /// Every waiting claim that was not a win when it arrived, rejected (a
    /// flood cleared in one action).
    pub(super) fn reject_not_wins(&self) -> Result<Vec<Event>, Refusal> {
        let game = self.the_open()?.game;
        Ok((self.queue.waiting().iter())
            .filter(|w| !w.win)
            .map(|w| {
                Event::Claim(ev::Claim {
                    game,
                    card: w.card.clone(),
                    stage: w.stage.clone(),
                    call: w.call,
                    win: false,
                    reason: w.reason.clone(),
                    accepted: false,
                    queued: Some(w.id),
                })
            })
            .collect())
    }
}

/// When prize `k` of `open` was won, and whether its payout included the
/// face `judged` (a win of it paid already, not to this face, says so).
fn won_before(open: &Open, k: usize, judged: &mut Judged) -> (Option<usize>, bool) {
    let won_at = open.won(k);
    let paid_here = (judged.label.as_ref())
        .is_some_and(|l| open.paid(k).is_some_and(|p| p.winners.contains(l)));
    if let (true, Some(at), false) = (judged.win, won_at, paid_here) {
        judged.reason = format!(
            "{}; but {} was won at call {at}, and this face was not among its winners",
            judged.reason, open.stages[k]
        );
    }
    (won_at, paid_here)
}
