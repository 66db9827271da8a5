//! Seeds: what a user types, the 64-bit master seed it stands for, and the
//! independent random streams the pipeline derives from it.
//!
//! Reproducibility contract: [`stream`] depends only on `(seed, stream id)` and
//! on two fixed algorithms (XXH3 and xoshiro256++), so the same seed gives the
//! same numbers on every machine, for every thread count, in every release
//! that keeps [`ALGORITHM_VERSION`].

use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use xxhash_rust::xxh3::{xxh3_128_with_seed, xxh3_64, xxh3_64_with_seed};

/// The random generator every stream uses: xoshiro256++, portable and fast.
pub type Rng = Xoshiro256PlusPlus;

/// Version of the drawing algorithm (stream derivation, chunk size, draw
/// order, repair order, every game's draw). Stored in every card file;
/// bumped whenever the same seed would give different cards of any game,
/// and pinned by the value-stability tests (`tests/stability.rs`).
///
/// History: 1, the first release; 2, the 90-ball draw (each column's
/// shuffle from one 64-bit word, the last tickets' vectors from alias
/// tables) — 75-ball cards are the same as in 1; 3, `es` strips: each
/// half's first vector from an alias table of the half's sum instead of by
/// rejection — 75-ball cards and `uk` strips are the same as in 2; 4, `uk`
/// strips: strip n from a stream of its own, `(seed, n)`, instead of its
/// chunk's (see `Rules::own_streams`) — 75-ball cards and `es` strips are
/// the same as in 3. 80-ball cards came with version 4.
pub const ALGORITHM_VERSION: u32 = 4;

/// Every stream a seed gives, by its id (the second argument of [`stream`]).
/// No two uses share an id, and each is part of the algorithm
/// ([`ALGORITHM_VERSION`]):
///
/// | id | stream | drawn by |
/// |---|---|---|
/// | `c` (below 2⁴⁰) | chunk c's cards, one after another | [`chunk_stream`] |
/// | `a · 2⁴⁰ + n` | card n's own stream, attempt a (boards, uk strips) | [`own_stream`] |
/// | `2⁶² + r · 2³² + i` | parallel repair round r, loser i | [`repair_round_stream`] |
/// | `2⁶⁴ − 2` | a seeded call order (`calls --seed`) | [`CALLS_STREAM`] |
/// | `2⁶⁴ − 1` | the repair stream, losers one by one | [`REPAIR_STREAM`] |
///
/// The simulator's games draw their calls from a seed of their own,
/// [`simulate_calls_seed`], game g from its stream g.
pub const REPAIR_STREAM: u64 = u64::MAX;

/// The stream of a seeded call order (see [`REPAIR_STREAM`] for the table).
pub const CALLS_STREAM: u64 = u64::MAX - 1;

/// Where the parallel repair rounds' streams start.
const ROUND_STREAMS: u64 = 1 << 62;

/// Chunk `chunk`'s cards one after another from stream `chunk` of `seed`,
/// each by `draw`: a chunk's drawer in the pipeline (and
/// `Game::drawer`'s default).
pub fn chunk_stream<C>(
    seed: u64,
    chunk: usize,
    draw: impl Fn(&mut Rng) -> C,
) -> impl FnMut(u32) -> C {
    let mut rng = stream(seed, chunk as u64);
    move |_| draw(&mut rng)
}

/// The stream of card `number` (1-based, as users see it), attempt
/// `attempt`: a card with a stream of its own.
pub fn own_stream(seed: u64, number: u64, attempt: u32) -> Rng {
    stream(seed, (u64::from(attempt) << 40) | number)
}

/// The stream of loser `i` in parallel repair round `round`.
pub fn repair_round_stream(seed: u64, round: u64, i: u32) -> Rng {
    stream(seed, ROUND_STREAMS + (round << 32) + u64::from(i))
}

/// The seed the simulator's games draw their calls from: game g's order
/// is stream g of it.
pub fn simulate_calls_seed(seed: u64) -> u64 {
    xxh3_64_with_seed(b"bingomint simulate calls", seed)
}

/// A master seed together with the text the user gave for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The 64-bit seed every stream is derived from.
    pub value: u64,
    /// What the user typed, if it was not a plain decimal number.
    pub text: Option<String>,
}

impl Seed {
    /// Parses a user seed: a decimal integer that fits in 64 bits is taken as
    /// it is; any other text maps to `xxh3_64(utf8 bytes)`, so seeds such as
    /// `MV2XRO` or `spring-gala-2026` can be shared.
    ///
    /// ```
    /// use bingomint::seed::Seed;
    /// assert_eq!(Seed::parse("42").value, 42);
    /// assert_eq!(Seed::parse("MV2XRO"), Seed::parse("MV2XRO"));
    /// assert_ne!(Seed::parse("MV2XRO").value, Seed::parse("mv2xro").value);
    /// ```
    pub fn parse(text: &str) -> Seed {
        match text.parse::<u64>() {
            Ok(value) => Seed { value, text: None },
            Err(_) => Seed {
                value: xxh3_64(text.as_bytes()),
                text: Some(text.to_string()),
            },
        }
    }

    /// A fresh seed from the operating system's entropy source.
    pub fn from_entropy() -> std::io::Result<Seed> {
        let value = getrandom::u64().map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Seed { value, text: None })
    }
}

impl std::fmt::Display for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.text {
            Some(text) => write!(f, "{text:?} (= {})", self.value),
            None => write!(f, "{}", self.value),
        }
    }
}

/// The random stream number `id` of master seed `seed`.
///
/// The 256-bit xoshiro state is `xxh3_128(id ‖ 0) ‖ xxh3_128(id ‖ 1)`, both
/// hashed with `seed` as XXH3's seed (ids as little-endian u64).
pub fn stream(seed: u64, id: u64) -> Rng {
    let mut input = [0u8; 16];
    input[..8].copy_from_slice(&id.to_le_bytes());
    let lo = xxh3_128_with_seed(&input, seed);
    input[8] = 1;
    let hi = xxh3_128_with_seed(&input, seed);
    let mut state = [0u8; 32];
    state[..16].copy_from_slice(&lo.to_le_bytes());
    state[16..].copy_from_slice(&hi.to_le_bytes());
    Rng::from_seed(state)
}

/// A uniform integer below `n` (n ≥ 1) from 64-bit words, exactly
/// (Lemire's method: multiply, and reject the few low products that would
/// bias the result).
#[inline]
pub fn below_u64(rng: &mut Rng, n: u64) -> u64 {
    use rand_core::RngCore;
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as u64
}

/// The same from 32-bit words, for bounds below 2³² (one word of the
/// stream per draw, not two).
#[inline]
pub fn below_u32(rng: &mut Rng, n: u32) -> u32 {
    use rand_core::RngCore;
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    #[test]
    fn decimal_seeds_are_taken_as_numbers() {
        assert_eq!(Seed::parse("0").value, 0);
        assert_eq!(Seed::parse("18446744073709551615").value, u64::MAX);
        // Too large for u64: treated as text, not an error.
        let big = Seed::parse("18446744073709551616");
        assert_eq!(big.text.as_deref(), Some("18446744073709551616"));
    }

    #[test]
    fn text_seeds_are_stable() {
        // Value stability: a shared text seed must name the same 64 bits in
        // every release.
        assert_eq!(Seed::parse("MV2XRO").value, 14_998_956_759_388_023_818);
        assert_eq!(Seed::parse("").value, 3_244_421_341_483_603_138);
    }

    #[test]
    fn streams_are_stable_and_distinct() {
        // Value stability: the first word of two streams, pinned.
        let first = stream(42, 0).next_u64();
        assert_eq!(first, 2_732_128_597_537_228_990);
        assert_eq!(
            stream(42, REPAIR_STREAM).next_u64(),
            10_186_752_537_021_868_909
        );
        assert_ne!(first, stream(42, 1).next_u64());
        assert_ne!(first, stream(43, 0).next_u64());
        assert_ne!(stream(42, REPAIR_STREAM).next_u64(), first);
    }
}
