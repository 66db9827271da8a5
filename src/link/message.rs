//! What the control and the venues say to each other: the control's
//! records ([`Body`], signed and chained by [`super::record`]) and a venue's
//! messages ([`VenueMessage`]), which the control judges against the books.

use serde::{Deserialize, Serialize};

/// A range of face numbers, both ends included.
pub type Faces = (u64, u64);

/// A venue's allotted part of the stock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Allotment {
    pub venue: String,
    pub faces: Vec<Faces>,
}

/// A venue's takings for the game, as the control booked them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Takings {
    pub venue: String,
    /// Faces sold.
    pub faces: u64,
    /// Minor units.
    pub amount: u64,
}

/// A claim as the control judged it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Judged {
    pub venue: String,
    /// The venue's own number for the claim (its key in the books).
    pub claim: u64,
    pub face: u64,
    /// The call the venue says the face won at.
    pub call: u8,
    /// Empty when the claim is good; else why not.
    pub refused: String,
}

/// One share of the prize.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Payout {
    pub venue: String,
    pub face: u64,
    /// Minor units.
    pub amount: u64,
}

/// What a record of the control's chain says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Body {
    /// The game as the control opens it: what is played, by whom, the
    /// commitment to the sealed order and the prize's terms.
    Open {
        /// `national`.
        play: String,
        /// The software's version; a venue on another refuses to play.
        version: String,
        /// The stock's short id (`bingomint info`).
        stock: String,
        balls: u8,
        pattern: String,
        currency: String,
        venues: Vec<Allotment>,
        /// SHA-256 of the sealed order's seed, hex.
        commitment: String,
        /// The prize's terms in words.
        prize_terms: String,
        /// How long after the reveal claims are taken, in seconds.
        claim_seconds: u64,
    },
    /// A venue's message the control did not accept.
    Refused { venue: String, why: String },
    /// Sales closed: each venue's takings, as booked, and the faces it
    /// sold (the only faces it may claim on).
    SalesClosed {
        takings: Vec<Takings>,
        total: u64,
        sold: Vec<Allotment>,
    },
    /// The prize, fixed from the takings before the first ball.
    Prize { amount: u64 },
    /// The sealed order's seed: in a national game before the first call
    /// (every venue calls from it), in a live game after the last.
    Reveal { seed: String },
    /// A live game's call `n` (from 1): every venue shows it at `show_at_ms`
    /// (milliseconds since the Unix epoch).
    Call { n: u8, ball: u8, show_at_ms: u64 },
    /// A live game held at call `call` by a claim: no next call until the
    /// claims at this call are judged.
    Hold { call: u8, venue: String },
    /// A venue voided for the game: its link dropped past the grace period
    /// (its claims are refused from here on).
    Voided {
        venue: String,
        call: u8,
        why: String,
    },
    /// Every claim, judged together.
    Verdicts { claims: Vec<Judged> },
    /// The winners' call and the payouts, booked once.
    Settled { call: u8, payouts: Vec<Payout> },
    /// No winner: the game ends with nothing paid.
    Unwon { why: String },
}

impl Body {
    /// The record's kind, as its JSON names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Open { .. } => "open",
            Body::Refused { .. } => "refused",
            Body::SalesClosed { .. } => "sales_closed",
            Body::Prize { .. } => "prize",
            Body::Reveal { .. } => "reveal",
            Body::Call { .. } => "call",
            Body::Hold { .. } => "hold",
            Body::Voided { .. } => "voided",
            Body::Verdicts { .. } => "verdicts",
            Body::Settled { .. } => "settled",
            Body::Unwon { .. } => "unwon",
        }
    }
}

/// What a venue sends the control (carried by the broker, judged against
/// the books; a retry carries the same message id and is booked once).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum VenueMessage {
    /// The venue is here, on this version.
    Hello { venue: String, version: String },
    /// The faces it sold for the game and what it took.
    Sales {
        venue: String,
        faces: Vec<Faces>,
        amount: u64,
    },
    /// Its winner(s): each face and the call it won at.
    Claim {
        venue: String,
        claim: u64,
        face: u64,
        call: u8,
    },
    /// It has shown a live game's call `call`.
    Seen { venue: String, call: u8 },
    /// It has sent every claim it makes (`claims` of them; 0: no face it
    /// sold completes the pattern).
    Done { venue: String, claims: u64 },
}

impl VenueMessage {
    /// The venue that sent it.
    pub fn venue(&self) -> &str {
        match self {
            VenueMessage::Hello { venue, .. }
            | VenueMessage::Sales { venue, .. }
            | VenueMessage::Claim { venue, .. }
            | VenueMessage::Seen { venue, .. }
            | VenueMessage::Done { venue, .. } => venue,
        }
    }

    /// Its message id: the same for a retry of the same message.
    pub fn id(&self, game: &str) -> String {
        let what = match self {
            VenueMessage::Hello { .. } => "hello".to_string(),
            VenueMessage::Sales { .. } => "sales".to_string(),
            VenueMessage::Claim { claim, .. } => format!("claim-{claim}"),
            VenueMessage::Seen { call, .. } => format!("seen-{call}"),
            VenueMessage::Done { .. } => "done".to_string(),
        };
        format!("{game}:{}:{what}", self.venue())
    }
}
