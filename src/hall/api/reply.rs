//! What the API answers, typed: each reply a variant serialized to the
//! JSON the API has always sent (the tests of the API hold its shape), and
//! each refusal an [`ApiError`] (the server gives each its HTTP status).

use super::super::error::Advice;
use super::super::queue::{Status, Waiting};
use super::super::rules::FieldError;
use super::super::state::{FaceShown, Labels, NightShown, State, Verdict};
use super::super::HallError;

/// The words a command gives a refusal's [`Advice`] (its flags).
pub type AdviceWords = fn(Advice) -> &'static str;
use serde::Serialize;

/// An answer of the API.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Reply {
    /// What the pages show.
    State(Box<State>),
    /// How phones find the hall.
    Join(super::super::join::Join),
    /// A call made, and the state after it.
    Called {
        ball: u8,
        state: Box<State>,
    },
    /// The last call taken back.
    Recalled {
        recalled: u8,
        state: Box<State>,
    },
    /// The game ended: its seed ("" for a blower's game).
    Ended {
        seed: String,
        state: Box<State>,
    },
    /// A claim judged (a reference that names no face: the reason is the
    /// `error` too).
    Verdict {
        #[serde(flatten)]
        verdict: Box<Verdict>,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// A player's claim in the queue, and the token that reads it back.
    Queued {
        #[serde(flatten)]
        status: Status,
        token: String,
    },
    /// The queue, for the console.
    Queue {
        queue: Vec<Waiting>,
    },
    /// Waiting claims that were no win, rejected at once.
    Rejected {
        rejected: usize,
        queue: Vec<Waiting>,
    },
    /// Where a player's claim stands.
    Status(Status),
    Face(Box<FaceShown>),
    Labels(Labels),
    Night(NightShown),
    /// The night's sales (and the line a sale, return or void made).
    Sales {
        #[serde(skip_serializing_if = "Option::is_none")]
        made: Option<Box<super::super::Event>>,
        sales: Box<super::super::sales::shown::SalesShown>,
        jackpots: Vec<super::super::sales::jackpot::Pot>,
        #[serde(skip_serializing_if = "Option::is_none")]
        attendance: Option<u64>,
        /// The night's currency, which every amount is in.
        #[serde(skip_serializing_if = "String::is_empty")]
        currency: String,
        /// The electronic pack the sale issued: its code and QR.
        #[serde(skip_serializing_if = "Option::is_none")]
        pack: Option<super::packs::PackIssued>,
    },
    /// A pack loaded onto a device.
    Pack(Box<super::super::packs::PackShown>),
    /// A device's packs.
    Packs {
        packs: Vec<super::super::packs::PackShown>,
    },
    /// A refusal.
    Error {
        error: String,
    },
}

impl Reply {
    /// The reply as JSON text.
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("the hall's replies are JSON")
    }
}

/// A request the API refuses, and why.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("send the body as JSON, with the header Content-Type: application/json")]
    NotJson,
    #[error("this needs the console's key: header Authorization: Bearer KEY (the key is in the console's address)")]
    NeedsKey,
    #[error("a claim's standing is read with the token its phone was given: header Authorization: Bearer TOKEN")]
    NeedsToken,
    #[error("no page or API at {0}")]
    NoRoute(String),
    #[error("{method} is not a method of {path}")]
    NoMethod { method: String, path: String },
    #[error("no claim {0:?}: a claim's number is a whole number, as POST /api/bingo answered")]
    BadClaimNumber(String),
    /// The body is not what the route takes (the field and the fix).
    #[error("{0}")]
    Body(String),
    /// A game asked that cannot be played: the field and why.
    #[error("{}", field_words(.0))]
    Field(FieldError),
    #[error("the hall has no night file")]
    NoNight,
    #[error("no claim {0} is known to the hall")]
    NoClaim(u64),
    #[error("no pack has that code: type the code on the pack's receipt, such as 7-K7QM4TZPXA")]
    NoPackCode,
    #[error(transparent)]
    Hall(#[from] HallError),
}

/// A field's mistake as a body's are worded: `field NAME: why`.
fn field_words(e: &FieldError) -> String {
    match &e.field {
        Some(field) => format!("field {field}: {}", e.why),
        None => e.why.clone(),
    }
}

impl ApiError {
    /// What the one who started the hall can do about it, beyond the
    /// words.
    pub fn advice(&self) -> Option<Advice> {
        match self {
            ApiError::NoNight => Some(Advice::Night),
            ApiError::Hall(e) => e.advice(),
            _ => None,
        }
    }

    /// The refusal as the API answers it, with `advice`'s words for what
    /// to do (the command's own terms) when there is any.
    pub fn reply(&self, advice: Option<AdviceWords>) -> Reply {
        let hint = advice.zip(self.advice()).map_or("", |(words, a)| words(a));
        Reply::Error {
            error: format!("{self}{hint}"),
        }
    }
}
