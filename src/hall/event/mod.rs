//! The log's events, typed: each a payload of its own (`money.rs`: the
//! session's and its sales'; `game.rs`: a game's), named by the `event`
//! field of its line. The bytes a line is written as are a promise: an
//! older build's log reads back and is written again the same (the
//! fixtures under `tests/fixtures/hall/` hold it so). What the log once
//! said with a sentinel (an empty commitment for a blower's game, an
//! empty seed revealed, a payout's kind as a word) is an enum here,
//! written as the same text. A jackpot ledger's lines are events of
//! their own ([`LedgerEvent`]): a night's log cannot hold one.

mod game;
mod mismatch;
mod money;

pub use crate::hall::sales::ledger::{JackpotNight, JackpotOpen, JackpotPlay, LedgerEvent};
pub use crate::hall::sales::packs::{Action, Electronic, PackLine};
pub use game::{
    Call, Claim, Commitment, GameEnd, GameStart, GameVoid, NearPayout, Payout, PayoutKind, Queued,
    Recall, RevealedSeed, Reversal, RoomSeed, Source, Stage, Void, Wild,
};
pub use mismatch::{Mismatch, Needs};
pub use money::{
    Attendance, CashCount, CashFloat, FileEntry, NightEntry, Sale, SaleLine, SaleReturn, SaleVoid,
    Session,
};

use serde::{Deserialize, Serialize};

/// One event of a night's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The hall started (or started again) with these card files.
    Session(Session),
    /// A serial range of a product issued to the floor.
    Sale(Sale),
    /// Faces of a sale returned unsold before their games, refunded.
    SaleReturn(SaleReturn),
    /// A sale taken back whole (keyed by mistake).
    SaleVoid(SaleVoid),
    /// An electronic pack's transaction: issued, loaded onto a device,
    /// voided and refunded.
    Pack(PackLine),
    /// A cash drawer's float, at the session's start.
    CashFloat(CashFloat),
    /// A drawer's cash counted at the end, against the books.
    CashCount(CashCount),
    /// The head count the caller keyed.
    Attendance(Attendance),
    /// A game: its stages (patterns, in order), prize and commitment.
    GameStart(GameStart),
    /// The room's seed, mixed into the order (or its absence, said).
    RoomSeed(RoomSeed),
    /// A call of the game.
    Call(Call),
    /// A wild game's digit, from its first ball.
    Wild(Wild),
    /// A prize won.
    Payout(Payout),
    /// The consolation by closeness, paid with the last stage's prize.
    NearPayout(NearPayout),
    /// The open game's last payout taken back.
    Void(Void),
    /// The last call taken back.
    Recall(Recall),
    /// A claim and its verdict.
    Claim(Claim),
    /// A player's claim joined the queue.
    Queued(Queued),
    /// An accepted win moved the game on.
    Stage(Stage),
    /// The game ended: its seed revealed.
    GameEnd(GameEnd),
    /// The game ended unrevealed.
    GameVoid(GameVoid),
    /// An ended game's last payout taken back.
    PayoutReversed(Reversal),
}

impl Event {
    /// The consolation by closeness, if the event is one.
    pub fn near(&self) -> Option<&NearPayout> {
        match self {
            Event::NearPayout(n) => Some(n),
            _ => None,
        }
    }
}
