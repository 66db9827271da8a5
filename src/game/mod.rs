//! The games bingomint mints, and the one interface the pipeline needs of them.
//!
//! A game knows how to draw one card from a random stream, which exact keys
//! make it unique, how to write it as a fixed-size record, and how to read a
//! record back while checking every rule. Everything else (chunks, seeds,
//! de-duplication, the card file) is shared.

use crate::seed::Rng;
use std::hash::Hash;

pub mod us75;

/// A game as the pipeline sees it. Implementations are immutable and cheap to
/// share between threads; drawing cannot fail.
pub trait Game: Sync {
    /// One drawn card (or strip, or board).
    type Card: Send;
    /// An exact key: two cards are the same exactly when their keys are equal.
    type Key: Copy + Eq + Hash + Send + Sync;
    /// The keys of one card (one for a 75-ball card, six for a 90-ball strip).
    type Keys: AsRef<[Self::Key]>;

    /// Bytes per record in the card file.
    fn record_size(&self) -> usize;
    /// Draws one card from `rng`.
    fn draw(&self, rng: &mut Rng) -> Self::Card;
    /// The card's exact keys.
    fn keys(&self, card: &Self::Card) -> Self::Keys;
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
}

impl GameId {
    /// The header byte's game, if known.
    pub fn from_byte(b: u8) -> Option<GameId> {
        match b {
            75 => Some(GameId::Us75),
            _ => None,
        }
    }

    /// Human name, as `info` prints it.
    pub fn describe(self) -> &'static str {
        match self {
            GameId::Us75 => "75-ball (US, 5×5, free centre)",
        }
    }
}

/// Draws `bounds.len()` independent uniform integers `d[i] < bounds[i]` from
/// one 64-bit word, exactly (no modulo bias).
///
/// This is Lemire's nearly-divisionless method applied to the product
/// `P = ∏ bounds` (which must fit in 64 bits), with the mixed-radix digits of
/// the result read off by successive multiplications: `x·P = D·2⁶⁴ + l`
/// where `D` has digits `d[0] … d[n-1]`. A draw is rejected, and the word
/// redrawn, only when `l < 2⁶⁴ mod P`, which happens with probability
/// below `P / 2⁶⁴`. `threshold` is [`lemire_threshold`]`(P)`.
#[inline]
pub fn batched_digits<const N: usize>(
    rng: &mut Rng,
    bounds: &[u64; N],
    threshold: u64,
) -> [u64; N] {
    use rand_core::RngCore;
    loop {
        let mut rest = rng.next_u64();
        let mut out = [0u64; N];
        for (digit, &bound) in out.iter_mut().zip(bounds) {
            let m = u128::from(rest) * u128::from(bound);
            *digit = (m >> 64) as u64;
            rest = m as u64;
        }
        if rest >= threshold {
            return out;
        }
    }
}

/// `2⁶⁴ mod p`: the rejection threshold for [`batched_digits`].
pub const fn lemire_threshold(p: u64) -> u64 {
    p.wrapping_neg() % p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batched_digits_are_in_range_and_cover_every_value() {
        let bounds = [3u64, 5, 7];
        let p = 105;
        let mut rng = crate::seed::stream(1, 0);
        let mut seen = [0u32; 105];
        for _ in 0..105 * 200 {
            let d = batched_digits(&mut rng, &bounds, lemire_threshold(p));
            assert!(d[0] < 3 && d[1] < 5 && d[2] < 7);
            seen[(d[0] * 35 + d[1] * 7 + d[2]) as usize] += 1;
        }
        // Every combination occurs (expected 200 each; 0 would be absurd).
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }

    #[test]
    fn threshold_is_two_to_the_64_mod_p() {
        assert_eq!(lemire_threshold(1), 0);
        assert_eq!(lemire_threshold(3), ((1u128 << 64) % 3) as u64);
        assert_eq!(lemire_threshold(360_360), ((1u128 << 64) % 360_360) as u64);
    }
}
