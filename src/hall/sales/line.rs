//! A sale's lines in the night's log: a sale, a return, a void, as
//! [`super::Sales::event`] makes them and [`super::Sales::book`] books
//! them. The night's `Event` holds each as it is.

use super::Move;
use serde::{Deserialize, Serialize};

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
    /// A late sale's games: the programme's games still to come when it
    /// was made (empty: the product's own games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<usize>,
    /// The cash drawer (or seller) that took it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawer: Option<String>,
}

/// A cash drawer (or seller) given its float at the session's start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashFloat {
    pub drawer: String,
    pub amount: u64,
}

/// A drawer's cash counted at the end: what the books expect (its float
/// and the net takings of the sales it took), over (or short, negative)
/// and the deposit (the count less the float kept for the next session).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashCount {
    pub drawer: String,
    pub counted: u64,
    /// The cash counted by denomination: (a note's or coin's value in
    /// minor units, how many), when it was so counted; `counted` is their
    /// sum.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub denominations: Vec<(u64, u64)>,
    pub expected: u64,
    pub over: i64,
    pub deposit: u64,
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

/// A line a sale, return or void makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaleLine {
    Sale(Sale),
    Return(SaleReturn),
    Void(SaleVoid),
    Float(CashFloat),
    Count(CashCount),
}

impl SaleLine {
    /// The move the line states.
    pub fn as_move(&self) -> Move {
        match self {
            SaleLine::Sale(Sale {
                product,
                first,
                last,
                drawer,
                ..
            }) => Move::Sale {
                product: product.clone(),
                first: *first,
                last: *last,
                drawer: drawer.clone(),
            },
            SaleLine::Float(CashFloat { drawer, amount }) => Move::Float {
                drawer: drawer.clone(),
                amount: *amount,
            },
            SaleLine::Count(CashCount {
                drawer,
                counted,
                denominations,
                ..
            }) => Move::Count {
                drawer: drawer.clone(),
                counted: *counted,
                denominations: denominations.clone(),
            },
            SaleLine::Return(SaleReturn {
                product,
                first,
                last,
                ..
            }) => Move::Return {
                product: product.clone(),
                first: *first,
                last: *last,
            },
            SaleLine::Void(SaleVoid { sale, reason, .. }) => Move::Void {
                sale: *sale,
                reason: reason.clone(),
            },
        }
    }
}
