//! Prizes paid, in words as the pages show them. Who shares a prize is
//! the game's rule, decided in [`super::books`].

use super::money::show;
use super::state::PayoutShown;
use super::Event;

/// The most faces one prize is paid to (a larger crowd is refused, so a
/// payout line stays a line).
pub const MAX_WINNERS: usize = 10_000;

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
    let minor = shares.iter().fold(0u64, |a, &b| a.saturating_add(b));
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
        minor,
    }
}
