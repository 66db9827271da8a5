//! The log's events, and the games a log revealed.

use super::rules::Rules;
use super::sales::jackpot::{Outcome, Pot, Progressive};
use super::sales::Product;
use crate::play::calls::Calls;
use serde::{Deserialize, Serialize};

/// One event of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The hall started (or started again) with these card files.
    Session {
        files: Vec<FileEntry>,
        sold: Option<String>,
        /// What the hall repaired on opening the log (an unfinished last
        /// line dropped), said once here.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        /// The night file the hall plays, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        night: Option<NightEntry>,
        /// The night's own name, drawn when its log is new (the first
        /// session's): how a jackpot ledger names the night.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// What the night sells (none: `--sold` or every face).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        products: Vec<Product>,
        /// The progressive jackpots as the ledger had them when the hall
        /// opened.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        jackpots: Vec<Pot>,
        /// The night file's currency, so every amount of the night is
        /// named in it (older logs: the first game's).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        currency: String,
    },
    /// A serial range of a product issued to the floor: sale `sale` (from
    /// 1), `units` units for `amount`.
    Sale {
        sale: u64,
        product: String,
        first: u64,
        last: u64,
        units: u64,
        amount: u64,
    },
    /// Faces of sale `sale` returned unsold before their games, refunded.
    SaleReturn {
        sale: u64,
        product: String,
        first: u64,
        last: u64,
        units: u64,
        amount: u64,
    },
    /// Sale `sale` taken back whole (keyed by mistake), with the reason:
    /// `amount` (what it still held) is no longer taken.
    SaleVoid {
        sale: u64,
        reason: String,
        amount: u64,
    },
    /// The head count the caller keyed.
    Attendance { count: u64 },
    /// A jackpot ledger's line: a progressive jackpot begun.
    JackpotOpen { rules: Progressive },
    /// A jackpot ledger's line: a night's game of the jackpot, `night`
    /// the night's id, and where the pot stands after it.
    JackpotNight {
        night: String,
        title: String,
        outcome: Outcome,
        pot: u64,
        within: usize,
    },
    /// A jackpot ledger's line: a night's game of the jackpot about to
    /// start (written before the game's start is logged), so no other
    /// night offers the pot until this one's outcome is in the ledger.
    JackpotPlay {
        night: String,
        title: String,
        name: String,
        game: u64,
        /// The night's log, as the hall was given it: where to open the
        /// hall to settle a play cut short.
        log: String,
    },
    /// A game: its stages (patterns, in order), prize and commitment.
    GameStart {
        game: u64,
        balls: u8,
        stages: Vec<String>,
        prize: String,
        last_call: bool,
        /// SHA-256 of the seed; empty in a game of balls from a blower.
        commitment: String,
        /// Name, paper, money and special games (none: a plain game).
        #[serde(default, skip_serializing_if = "Rules::is_plain")]
        rules: Rules,
    },
    /// The room's seed, mixed into the order (given after the commitment
    /// and before the first call); None: the first call came without one,
    /// and the order rests on the hall's seed alone.
    RoomSeed {
        game: u64,
        room_seed: Option<String>,
    },
    /// Call number `call` (from 1) of the game, drawn by the hall or
    /// keyed in from a blower.
    Call {
        game: u64,
        call: usize,
        ball: u8,
        #[serde(default)]
        source: Source,
    },
    /// A wild game's digit, from its first ball.
    Wild { game: u64, digit: u8 },
    /// A prize won at `call`: every sold face holding it then, the claim
    /// accepted first, and each one's share of the amount (if it has one).
    Payout {
        game: u64,
        stage: String,
        call: usize,
        /// `jackpot` or `consolation`, in a jackpot game's last stage.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
        amount: Option<u64>,
        #[serde(default)]
        currency: String,
        winners: Vec<String>,
        shares: Vec<u64>,
    },
    /// The consolation by closeness ([`super::rules::Near`]), paid with
    /// the last stage's prize: the `faces` sold faces `to_go` numbers from
    /// it at `call`, and each one's share; past the most a prize is paid
    /// to, none are listed and nothing is paid.
    NearPayout {
        game: u64,
        stage: String,
        call: usize,
        /// The distance paid (the nearest found, when the rule says so;
        /// 0: no face was near).
        to_go: u8,
        faces: u64,
        amount: u64,
        #[serde(default)]
        currency: String,
        winners: Vec<String>,
        shares: Vec<u64>,
    },
    /// The open game's last payout taken back by the caller (a win
    /// accepted by mistake), with the reason: its prize is open again, and
    /// the calls it stood on may be recalled.
    Void {
        game: u64,
        stage: String,
        call: usize,
        reason: String,
    },
    /// The last call taken back (a mistaken call): `call` is no longer shown.
    Recall { game: u64, call: usize, ball: u8 },
    /// A claim and its verdict, at `call` calls, for `stage`.
    Claim {
        game: u64,
        card: String,
        stage: String,
        call: usize,
        win: bool,
        reason: String,
        accepted: bool,
        /// The player's claim (from the queue) this decided: judged at the
        /// `call` and `stage` it arrived at.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        queued: Option<u64>,
    },
    /// A player's claim joined the queue, judged on arrival.
    Queued {
        game: u64,
        id: u64,
        card: String,
        stage: String,
        call: usize,
        win: bool,
        reason: String,
    },
    /// An accepted win moved the game on to `stage`.
    Stage { game: u64, stage: String },
    /// The game ended: its seed revealed.
    GameEnd { game: u64, seed: String },
    /// The game ended unrevealed: its seed was lost (the seed file gone),
    /// so its calls can never be checked against the commitment.
    GameVoid {
        game: u64,
        reason: String,
        /// A progressive jackpot's pot stands as it was carried in (the
        /// game was never played out); lines of older builds lack it and
        /// carried the pot as not won.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        keeps_pot: bool,
    },
}

/// Where a call's ball came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The hall's committed generator.
    #[default]
    Rng,
    /// A ball drawn from a blower, keyed in by the caller.
    Blower,
}

/// The night file a session plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NightEntry {
    pub path: String,
    pub sha256: String,
    pub title: String,
    pub games: usize,
}

/// A card file as the session's first line records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub id: String,
    pub sha256: String,
    pub count: u64,
    pub game: String,
}

/// A game a log revealed: its numbers, seed and room seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    pub balls: u8,
    pub seed: String,
    pub room_seed: Option<String>,
}

impl Ended {
    /// The game's whole order.
    pub fn calls(&self) -> Calls {
        let room = self.room_seed.as_deref().unwrap_or("");
        Calls::of_hall(self.balls, &self.seed, room, usize::from(self.balls))
    }
}

/// The games a log revealed, in log order (the chain checked first); a
/// game of balls from a blower revealed no seed and is not among them.
pub fn revealed(text: &str) -> Result<Vec<Ended>, super::log::LogError> {
    let (lines, _) = super::log::read(text)?;
    let (mut balls, mut room_seed) = (0, None);
    let mut out = Vec::new();
    for line in lines {
        match line.event {
            Event::GameStart { balls: b, .. } => (balls, room_seed) = (b, None),
            Event::RoomSeed { room_seed: r, .. } => room_seed = r,
            // A blower's game has no seed: nothing of the generator's.
            Event::GameEnd { seed, .. } if seed.is_empty() => {}
            Event::GameEnd { seed, .. } => out.push(Ended {
                balls,
                seed,
                room_seed: room_seed.take(),
            }),
            _ => {}
        }
    }
    Ok(out)
}
