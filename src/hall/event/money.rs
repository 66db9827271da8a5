//! The session's events (its files, night and products), its sales (whose
//! lines [`crate::hall::sales`] makes) and the head count. The lines of a
//! progressive jackpots' ledger are the ledger's own.

use super::Event;
use crate::hall::sales::jackpot::Pot;
pub use crate::hall::sales::line::{CashCount, CashFloat, Sale, SaleLine, SaleReturn, SaleVoid};
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
    /// The rules of selling the session keeps ([`crate::hall::sales::SELLING`]):
    /// 1, a sale covers whole units on the card file's own boundaries
    /// (books 1–6, 7–12, …); absent (older logs), any run of whole units.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub selling: u8,
    /// The night file's time zone, in which reports show its times
    /// (absent: UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The night file's rules of electronic play (`[electronic]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub electronic: Option<crate::hall::sales::packs::Electronic>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
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

/// The head count the caller keyed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attendance {
    pub count: u64,
}

impl From<SaleLine> for Event {
    fn from(line: SaleLine) -> Event {
        match line {
            SaleLine::Sale(e) => Event::Sale(e),
            SaleLine::Return(e) => Event::SaleReturn(e),
            SaleLine::Void(e) => Event::SaleVoid(e),
            SaleLine::Float(e) => Event::CashFloat(e),
            SaleLine::Count(e) => Event::CashCount(e),
        }
    }
}

impl Event {
    /// The sale's, return's or void's line the event is, if it is one.
    pub fn sale_line(&self) -> Option<SaleLine> {
        match self {
            Event::Sale(e) => Some(SaleLine::Sale(e.clone())),
            Event::SaleReturn(e) => Some(SaleLine::Return(e.clone())),
            Event::SaleVoid(e) => Some(SaleLine::Void(e.clone())),
            Event::CashFloat(e) => Some(SaleLine::Float(e.clone())),
            Event::CashCount(e) => Some(SaleLine::Count(e.clone())),
            _ => None,
        }
    }
}
