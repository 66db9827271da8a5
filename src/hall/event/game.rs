//! A game's events: its start, calls, claims, payouts and end.

pub use crate::hall::rules::PayoutKind;
use crate::hall::rules::Rules;
use serde::{Deserialize, Serialize};

/// A game: its stages (patterns, in order), prize and commitment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStart {
    pub game: u64,
    pub balls: u8,
    pub stages: Vec<String>,
    pub prize: String,
    pub last_call: bool,
    /// SHA-256 of the seed; a game of balls from a blower has none.
    pub commitment: Commitment,
    /// Name, paper, money and special games (none: a plain game).
    #[serde(default, skip_serializing_if = "Rules::is_plain")]
    pub rules: Rules,
}

/// What a game's calls are bound to before the first: the SHA-256 of the
/// hall's seed, or nothing (balls from a blower). Written as the hex, or
/// as an empty text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum Commitment {
    /// Balls from a blower: nothing to commit to.
    Blower,
    /// SHA-256 of the seed, lowercase hex.
    Sha256(String),
}

impl From<String> for Commitment {
    fn from(text: String) -> Commitment {
        if text.is_empty() {
            Commitment::Blower
        } else {
            Commitment::Sha256(text)
        }
    }
}

impl From<Commitment> for String {
    fn from(c: Commitment) -> String {
        match c {
            Commitment::Blower => String::new(),
            Commitment::Sha256(hex) => hex,
        }
    }
}

impl Commitment {
    /// The hex, empty for a blower's game (as shown and logged).
    pub fn hex(&self) -> &str {
        match self {
            Commitment::Blower => "",
            Commitment::Sha256(hex) => hex,
        }
    }
}

/// The room's seed, mixed into the order (given after the commitment and
/// before the first call); None: the first call came without one, and
/// the order rests on the hall's seed alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomSeed {
    pub game: u64,
    pub room_seed: Option<String>,
}

/// Call number `call` (from 1) of the game, drawn by the hall or keyed in
/// from a blower.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    pub game: u64,
    pub call: usize,
    pub ball: u8,
    #[serde(default)]
    pub source: Source,
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

/// A wild game's digit, from its first ball.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wild {
    pub game: u64,
    pub digit: u8,
}

/// A prize won at `call`: every sold face holding it then, the claim
/// accepted first, and each one's share of the amount (if it has one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Payout {
    pub game: u64,
    pub stage: String,
    pub call: usize,
    /// In a jackpot game's last stage: the jackpot, or the consolation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<PayoutKind>,
    pub amount: Option<u64>,
    #[serde(default)]
    pub currency: String,
    pub winners: Vec<String>,
    pub shares: Vec<u64>,
}

/// The consolation by closeness ([`crate::hall::rules::Near`]), paid with
/// the last stage's prize: the `faces` sold faces `to_go` numbers from it
/// at `call`, and each one's share; past the most a prize is paid to,
/// none are listed and nothing is paid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NearPayout {
    pub game: u64,
    pub stage: String,
    pub call: usize,
    /// The distance paid (the nearest found, when the rule says so; 0: no
    /// face was near).
    pub to_go: u8,
    pub faces: u64,
    pub amount: u64,
    #[serde(default)]
    pub currency: String,
    pub winners: Vec<String>,
    pub shares: Vec<u64>,
}

/// The open game's last payout taken back by the caller (a win accepted
/// by mistake), with the reason: its prize is open again, and the calls
/// it stood on may be recalled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Void {
    pub game: u64,
    pub stage: String,
    pub call: usize,
    pub reason: String,
}

/// The last payout of a game already ended taken back, with the reason
/// (a win accepted by mistake): `amount`, its shares and the consolation
/// by closeness paid with it, is no longer paid. The game stays ended (its
/// seed is out, so it is not played on).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reversal {
    pub game: u64,
    pub stage: String,
    pub call: usize,
    pub amount: u64,
    pub reason: String,
}

/// The last call taken back (a mistaken call): `call` is no longer shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recall {
    pub game: u64,
    pub call: usize,
    pub ball: u8,
}

/// A claim and its verdict, at `call` calls, for `stage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub game: u64,
    pub card: String,
    pub stage: String,
    pub call: usize,
    pub win: bool,
    pub reason: String,
    pub accepted: bool,
    /// The player's claim (from the queue) this decided: judged at the
    /// `call` and `stage` it arrived at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queued: Option<u64>,
}

/// A player's claim joined the queue, judged on arrival.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Queued {
    pub game: u64,
    pub id: u64,
    pub card: String,
    pub stage: String,
    pub call: usize,
    pub win: bool,
    pub reason: String,
    /// The electronic pack the face is in, when its device claimed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<u64>,
}

/// An accepted win moved the game on to `stage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stage {
    pub game: u64,
    pub stage: String,
}

/// The game ended: its seed revealed (a blower's game has none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEnd {
    pub game: u64,
    pub seed: RevealedSeed,
}

/// The seed a game's end reveals: the hall's, or none (balls from a
/// blower). Written as the seed's text, or as an empty text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum RevealedSeed {
    /// Balls from a blower: no seed.
    Blower,
    /// The hall's seed, its commitment's preimage.
    Seed(String),
}

impl From<String> for RevealedSeed {
    fn from(text: String) -> RevealedSeed {
        if text.is_empty() {
            RevealedSeed::Blower
        } else {
            RevealedSeed::Seed(text)
        }
    }
}

impl From<RevealedSeed> for String {
    fn from(s: RevealedSeed) -> String {
        match s {
            RevealedSeed::Blower => String::new(),
            RevealedSeed::Seed(text) => text,
        }
    }
}

impl RevealedSeed {
    /// The seed, if the hall drew the game's balls.
    pub fn seed(&self) -> Option<&str> {
        match self {
            RevealedSeed::Blower => None,
            RevealedSeed::Seed(text) => Some(text),
        }
    }
}

/// The game ended unrevealed: its seed was lost (the seed file gone), so
/// its calls can never be checked against the commitment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameVoid {
    pub game: u64,
    pub reason: String,
    /// A progressive jackpot's pot stands as it was carried in (the game
    /// was never played out); lines of older builds lack it and carried
    /// the pot as not won.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keeps_pot: bool,
}
