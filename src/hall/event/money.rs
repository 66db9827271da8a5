//! The session's events (its files, night and products), its sales, and
//! the lines of a progressive jackpots' ledger.

use crate::hall::sales::jackpot::{Outcome, Pot, Progressive};
use crate::hall::sales::Product;
use serde::{Deserialize, Serialize};

/// The hall started (or started again) with these card files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub files: Vec<FileEntry>,
    pub sold: Option<String>,
    /// What the hall repaired on opening the log (an unfinished last line
    /// dropped), said once here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The night file the hall plays, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub night: Option<NightEntry>,
    /// The night's own name, drawn when its log is new (the first
    /// session's): how a jackpot ledger names the night.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What the night sells (none: `--sold` or every face).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub products: Vec<Product>,
    /// The progressive jackpots as the ledger had them when the hall
    /// opened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub jackpots: Vec<Pot>,
    /// The night file's currency, so every amount of the night is named in
    /// it (older logs: the first game's).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub currency: String,
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

/// A serial range of a product issued to the floor: sale `sale` (from 1),
/// `units` units for `amount`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sale {
    pub sale: u64,
    pub product: String,
    pub first: u64,
    pub last: u64,
    pub units: u64,
    pub amount: u64,
}

/// Faces of sale `sale` returned unsold before their games, refunded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaleReturn {
    pub sale: u64,
    pub product: String,
    pub first: u64,
    pub last: u64,
    pub units: u64,
    pub amount: u64,
}

/// Sale `sale` taken back whole (keyed by mistake), with the reason:
/// `amount` (what it still held) is no longer taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaleVoid {
    pub sale: u64,
    pub reason: String,
    pub amount: u64,
}

/// The head count the caller keyed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attendance {
    pub count: u64,
}

/// A progressive jackpot begun.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotOpen {
    pub rules: Progressive,
}

/// A night's game of the jackpot, `night` the night's id, and where the
/// pot stands after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotNight {
    pub night: String,
    pub title: String,
    pub outcome: Outcome,
    pub pot: u64,
    pub within: usize,
}

/// A night's game of the jackpot about to start (written before the
/// game's start is logged), so no other night offers the pot until this
/// one's outcome is in the ledger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JackpotPlay {
    pub night: String,
    pub title: String,
    pub name: String,
    pub game: u64,
    /// The night's log, as the hall was given it: where to open the hall
    /// to settle a play cut short.
    pub log: String,
}
