//! Prizes paid. A prize goes to every sold face that holds it at the call
//! its first accepted claim was judged at, in equal shares of its amount
//! (minor units); the units that do not divide go one each to the
//! earliest: the claim accepted, then the faces with claims waiting for the
//! same prize in arrival order, then the rest in file and face order.

use super::money::{show, split};
use super::state::PayoutShown;
use super::{Event, Hall, HallError};

/// The most faces one prize is paid to (a larger crowd is refused, so a
/// payout line stays a line).
pub const MAX_WINNERS: usize = 10_000;

impl Hall {
    /// The payout of stage `k` won at `call` by the claim on `claimed`.
    pub(super) fn payout(
        &self,
        k: usize,
        call: usize,
        claimed: (usize, u64),
    ) -> Result<Event, HallError> {
        let open = self.the_open()?;
        let calls = open.calls_at(call);
        let mut faces =
            self.cards
                .winning(&open.patterns[k], &calls, open.last_call, MAX_WINNERS)?;
        faces.retain(|&f| f != claimed);
        let stage = &open.stages[k];
        let waiting: Vec<(usize, u64)> = (self.queue.waiting().iter())
            .filter(|w| w.stage == *stage)
            .map(|w| w.at)
            .collect();
        let place = |f: &(usize, u64)| waiting.iter().position(|w| w == f);
        faces.sort_by_key(|f| (place(f).unwrap_or(usize::MAX), *f));
        faces.insert(0, claimed);
        let winners: Vec<String> = faces.iter().map(|&(f, n)| self.cards.label(f, n)).collect();
        let due = open.rules.due(k, open.stages.len(), call);
        Ok(Event::Payout {
            game: open.game,
            stage: stage.clone(),
            call,
            kind: due.and_then(|d| d.kind).map(String::from),
            amount: due.map(|d| d.amount),
            currency: open.rules.currency.clone(),
            shares: due.map_or(Vec::new(), |d| split(d.amount, winners.len())),
            winners,
        })
    }

    /// A payout read back: the prize won, its faces paid, the night's sum.
    pub(super) fn replay_payout(&mut self, event: &Event) -> Result<(), &'static str> {
        let Some(paid) = shown_of(event) else {
            return Ok(());
        };
        let Event::Payout { shares, .. } = event else {
            unreachable!("shown_of answers only for a payout")
        };
        let open = self.open.as_mut().ok_or("a payout with no game open")?;
        if !open.stages.contains(&paid.stage) {
            return Err("a payout of no stage of the game");
        }
        open.payouts.push(paid);
        // Amounts are checked when a game starts; a forged log's are not,
        // and must not wrap the night's sum.
        let sum = shares.iter().fold(0u64, |a, &b| a.saturating_add(b));
        self.paid = self.paid.saturating_add(sum);
        Ok(())
    }
}

/// A payout event in words, as the pages show it.
pub(super) fn shown_of(event: &Event) -> Option<PayoutShown> {
    let Event::Payout {
        stage,
        call,
        kind,
        amount,
        currency,
        winners,
        shares,
        ..
    } = event
    else {
        return None;
    };
    Some(shown(
        stage, *call, kind, *amount, currency, winners, shares,
    ))
}

/// A payout in words: `£50.00 shared by 3: £16.67, £16.67, £16.66`.
fn shown(
    stage: &str,
    call: usize,
    kind: &Option<String>,
    amount: Option<u64>,
    currency: &str,
    winners: &[String],
    shares: &[u64],
) -> PayoutShown {
    let shares: Vec<String> = shares.iter().map(|&s| show(s, currency)).collect();
    let what = match kind {
        Some(kind) => format!("{kind} "),
        None => String::new(),
    };
    let text = match (amount, winners.len()) {
        (Some(a), 1) => format!("{what}{} to {}", show(a, currency), winners[0]),
        (Some(a), n) => format!(
            "{what}{} shared by {n}: {}",
            show(a, currency),
            shares.join(", ")
        ),
        (None, 1) => format!("won by {}", winners[0]),
        (None, n) => format!("shared by {n}: {}", winners.join(", ")),
    };
    PayoutShown {
        stage: stage.to_string(),
        call,
        kind: kind.clone(),
        text,
        winners: winners.to_vec(),
        shares,
    }
}
