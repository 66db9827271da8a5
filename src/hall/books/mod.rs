//! The night's books: the state a log's events build ([`Books::apply`])
//! and the rules that turn the caller's and the players' commands into
//! events ([`Books::decide`]). Pure: no file, socket or clock is touched
//! here, so every rule is tested in-process (tests.rs). The live hall, its
//! resume and `hall verify` apply the same events with the same
//! [`Books::apply`]; `Hall` (shell.rs) is a shell over the log, the seed
//! file and the cards, and carries out every decision by one door
//! (`Hall::execute`).
//!
//! `Books`' methods, by file:
//!
//! | file | decides (pure: events and an answer, or a refusal) | applies (books an event) | reads |
//! |---|---|---|---|
//! | `decide.rs` | `decide` (the one entry: every `Command`), `start`, `room_seed`, `call`, `recall`, `end`, `void` | | |
//! | `claim.rs` | `claim`, `bingo`, `reject_not_wins`, `complete_payout`, `move_on`; `target`, `judge_first` | | `split` (how Accept would pay a waiting claim) |
//! | `share.rs` | `payout` (who shares a prize), `near_payout` (the consolation by closeness) | | |
//! | `sale.rs` | `fix_money` (a game's prizes from sales and its jackpot offer, at its start) | `apply_session`, `apply_sale`, `apply_attendance`, `apply_start_money`, `end_money` | `floor`, `not_sold`, `sold_tonight`, `sale_finding`, `take_sold` |
//! | `reverse.rs` | `reverse` (an ended game's last payout taken back) | `apply_reversal` | |
//! | `apply.rs` | | `apply` (the one entry: every `Event`), `apply_start`, `apply_call`, `apply_recall`, `apply_end`, `apply_void`, `apply_claim`, `apply_queued`, `apply_payout`, `apply_near` | |
//! | `mod.rs` | | `know_seed` (the seed read back from its file) | `the_open`, `sales`, `outcomes`, `pots`, `night_id`, `attendance` |

mod apply;
mod claim;
mod decide;
mod reverse;

mod sale;
mod share;
#[cfg(test)]
mod tests;

pub use super::event::{Mismatch, Needs};
pub use claim::ClaimAsked;
pub use decide::{Answer, Command, Decision, Draw};

use super::open::Open;
use super::queue::Queue;
use super::sales::jackpot::{Outcome, Pot};
use super::sales::Sales;
use super::state::{ClaimSeen, Revealed};
use super::Refusal;
use std::collections::BTreeSet;

/// The most people a head count takes: more than any hall seats, far
/// below any sum's limit.
pub const MAX_ATTENDANCE: u64 = 1_000_000;

/// The night as its log's events leave it.
#[derive(Default)]
pub struct Books {
    /// The open game.
    pub(in crate::hall) open: Option<Open>,
    /// Games started tonight (the next is `games + 1`).
    pub(in crate::hall) games: u64,
    /// The last game's revealed seed.
    pub(in crate::hall) revealed: Option<Revealed>,
    /// The open game's claims, in order.
    pub(in crate::hall) claims: Vec<ClaimSeen>,
    pub(in crate::hall) queue: Queue,
    /// The programme's games started (from 1).
    pub(in crate::hall) played: BTreeSet<usize>,
    /// Paid tonight, in minor units.
    pub(in crate::hall) paid: u64,
    /// An accepted win whose payout line is not in the log yet (stage,
    /// call, card): only a crash of an older hall, which wrote the two
    /// apart, leaves one; the resume pays it ([`Command::CompletePayout`]).
    pub(in crate::hall) unpaid: Option<(usize, usize, String)>,
    /// The night's id (its first session's).
    pub(in crate::hall) night_id: Option<String>,
    /// What is sold, and every sale.
    pub(in crate::hall) sales: Sales,
    /// The progressive jackpots, as they stand (the ledger's when the
    /// night opened, moved on by each game of them ended).
    pub(in crate::hall) pots: Vec<Pot>,
    /// Each progressive jackpot's game tonight, ended.
    pub(in crate::hall) outcomes: Vec<Outcome>,
    /// The head count keyed.
    pub(in crate::hall) attendance: Option<u64>,
    /// The faces the last game started plays, when the night sells by
    /// serial range, and whether the shell has taken them since.
    pub(in crate::hall) game_sold: Option<Vec<std::ops::RangeInclusive<u64>>>,
    sold_changed: bool,
    /// The open game's consolation by closeness paid (minor units).
    near_paid: u64,
    /// The last game ended, while no other has started: its last payout
    /// may be taken back ([`reverse`]).
    ended: Option<reverse::Ended>,
    /// The line just applied, when it was a sale's: a pack's issue or
    /// void follows it.
    last_sale: Option<super::sales::line::SaleLine>,
}

impl Books {
    /// The open game, or [`Refusal::NoGame`].
    pub(in crate::hall) fn the_open(&self) -> Result<&Open, Refusal> {
        self.open.as_ref().ok_or(Refusal::NoGame)
    }

    /// The night's sales.
    pub fn sales(&self) -> &Sales {
        &self.sales
    }

    /// Each progressive jackpot's game tonight, ended.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The progressive jackpots as they stand.
    pub fn pots(&self) -> &[Pot] {
        &self.pots
    }

    /// The night's id.
    pub fn night_id(&self) -> Option<&str> {
        self.night_id.as_deref()
    }

    /// The head count keyed, if any.
    pub fn attendance(&self) -> Option<u64> {
        self.attendance
    }

    /// Knows the open game's seed (read from the seed file, never logged
    /// before the game ends): its order is drawn.
    pub(in crate::hall) fn know_seed(&mut self, seed: String) {
        if let Some(open) = self.open.as_mut() {
            open.seed = Some(seed);
            open.reorder();
        }
    }
}
