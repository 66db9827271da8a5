//! The games bingomint mints, and the one interface the pipeline needs of them.
//!
//! A game knows how to draw one card from a random stream, which exact keys
//! make it unique, how to write it as a fixed-size record, and how to read a
//! record back while checking every rule. Everything else (chunks, seeds,
//! de-duplication, the card file) is shared.

use crate::seed::Rng;
use std::hash::Hash;

pub mod uk90;
pub mod us75;

/// A game as the pipeline sees it. Implementations are immutable and cheap to
/// share between threads; drawing cannot fail.
pub trait Game: Sync {
    /// One drawn card (or strip, or board).
    type Card: Send + Sync;
    /// An exact key: two cards are the same exactly when their keys are equal.
    type Key: Copy + Eq + Hash + Send + Sync;
    /// The keys of one card (one for a 75-ball card, six for a 90-ball strip).
    type Keys: AsRef<[Self::Key]>;

    /// Bytes per record in the card file.
    fn record_size(&self) -> usize;
    /// Draws one card from `rng`.
    fn draw(&self, rng: &mut Rng) -> Self::Card;
    /// Draws attempt `attempt` of a card from its own stream (see
    /// [`crate::pipeline::mint_own_streams`]); games that record the attempt
    /// on the card override it.
    fn draw_attempt(&self, rng: &mut Rng, attempt: u32) -> Self::Card {
        let _ = attempt;
        self.draw(rng)
    }
    /// The card's exact keys.
    fn keys(&self, card: &Self::Card) -> Self::Keys;
    /// How many keys each card has.
    fn keys_per_card(&self) -> usize;
    /// Writes the card into a record of exactly [`Game::record_size`] bytes.
    fn encode(&self, card: &Self::Card, record: &mut [u8]);
    /// Reads a record back, checking every rule of the game.
    fn decode(&self, record: &[u8]) -> Result<Self::Card, RuleViolation>;
}

/// A record that breaks a rule of its game; the text says which and how.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleViolation(pub String);

/// The games a card file can hold. The discriminant is the byte stored in the
/// native header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameId {
    /// US 75-ball: 5×5, free centre.
    Us75 = 75,
    /// UK 90-ball: strips of six 3×9 tickets.
    Uk90 = 90,
}

impl GameId {
    /// The header byte's game, if known.
    pub fn from_byte(b: u8) -> Option<GameId> {
        match b {
            75 => Some(GameId::Us75),
            90 => Some(GameId::Uk90),
            _ => None,
        }
    }

    /// Human name, as `info` prints it.
    pub fn describe(self) -> &'static str {
        match self {
            GameId::Us75 => "75-ball (US, 5×5, free centre)",
            GameId::Uk90 => "90-ball (UK, strips of six 3×9 tickets)",
        }
    }

    /// What one record is called: card or strip.
    pub fn noun(self) -> &'static str {
        match self {
            GameId::Us75 => "card",
            GameId::Uk90 => "strip",
        }
    }
}
