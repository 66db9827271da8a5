//! Who shares a prize, by the game's rule ([`Share`]): the faces claimed
//! for it at its call (paper halls: sleepers lose), or every sold face
//! holding it then (electronic play). Equal shares of its amount in minor
//! units; the units that do not divide go one each to the earliest: the
//! claim accepted, then the claims waiting for the same prize in arrival
//! order, then (all holders) the rest in file and face order.

use super::super::event as ev;
use super::super::judge::Cards;
use super::super::money::split;
use super::super::payout::MAX_WINNERS;
use super::super::rules::Share;
use super::super::{Event, Refusal};
use super::Books;

impl Books {
    /// The payout of stage `k` won at `call` by the claim on `claimed`.
    pub(in crate::hall) fn payout(
        &self,
        cards: &Cards,
        k: usize,
        call: usize,
        claimed: (usize, u64),
    ) -> Result<ev::Payout, Refusal> {
        let open = self.the_open()?;
        let calls = open.calls_at(call);
        let stage = &open.stages[k];
        // The players' claims waiting for this prize, made by its call.
        let waiting: Vec<(usize, u64)> = (self.queue.waiting().iter())
            .filter(|w| w.stage == *stage && w.call <= call && w.at != claimed)
            .map(|w| w.at)
            .collect();
        let mut faces = match open.rules.share {
            Share::AllHolders => {
                let mut all =
                    cards.winning(&open.patterns[k], &calls, open.last_call, MAX_WINNERS)?;
                all.retain(|&f| f != claimed);
                let place = |f: &(usize, u64)| waiting.iter().position(|w| w == f);
                all.sort_by_key(|f| (place(f).unwrap_or(usize::MAX), *f));
                all
            }
            Share::Claimed => {
                let mut claimants = Vec::new();
                for &(f, n) in waiting.iter().filter(|(f, _)| *f < cards.files.len()) {
                    let holds = cards
                        .holds(f, n, &open.patterns[k], &calls, open.last_call)
                        .unwrap_or(false);
                    if holds && cards.sold(f, n) && !claimants.contains(&(f, n)) {
                        claimants.push((f, n));
                    }
                }
                claimants
            }
        };
        faces.insert(0, claimed);
        let winners: Vec<String> = faces.iter().map(|&(f, n)| cards.label(f, n)).collect();
        let due = open.rules.due(k, open.stages.len(), call);
        Ok(ev::Payout {
            game: open.game,
            stage: stage.clone(),
            call,
            kind: due.and_then(|d| d.kind),
            amount: due.map(|d| d.amount),
            currency: open.rules.currency.clone(),
            shares: due.map_or(Vec::new(), |d| split(d.amount, winners.len())),
            winners,
        })
    }

    /// The consolation by closeness due when stage `k` is won at `call`:
    /// none unless the game has one and `k` is its last stage.
    pub(in crate::hall) fn near_payout(
        &self,
        cards: &Cards,
        k: usize,
        call: usize,
    ) -> Result<Option<Event>, Refusal> {
        let open = self.the_open()?;
        let Some(near) = open.rules.near.filter(|_| k + 1 == open.stages.len()) else {
            return Ok(None);
        };
        let calls = open.calls_at(call);
        let away = cards.away(&open.patterns[k], &calls, near.to_go, MAX_WINNERS)?;
        let winners: Vec<String> = (away.listed.iter())
            .map(|&(f, n)| cards.label(f, n))
            .collect();
        Ok(Some(Event::NearPayout(ev::NearPayout {
            game: open.game,
            stage: open.stages[k].clone(),
            call,
            to_go: away.to_go,
            faces: away.faces,
            amount: near.prize,
            currency: open.rules.currency.clone(),
            shares: split(near.prize, winners.len()),
            winners,
        })))
    }
}
