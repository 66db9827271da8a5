//! Live calls: a hall game's order from a cryptographic generator keyed by
//! the whole of the game's seed and the room's seed.
//!
//! Minted cards and simulations draw from xoshiro256++ under a 64-bit
//! [`crate::seed::Seed`]: fast, statistically clean, reproducible. A live
//! game's order must also be beyond prediction and search, so a hall seed
//! of the form `hall2-` followed by 64 hex digits (256 bits) is used whole:
//!
//! ```text
//! key      = SHA-256( "bingomint live calls v2" || 0x00 || seed || 0x00 || room )
//! words    = the ChaCha20 keystream (RFC 8439) under key, nonce 0 (12 zero bytes),
//!            block counter from 0, read as 32-bit little-endian words
//! below(n) = the next word w with w < 2^32 − (2^32 mod n), taken mod n
//!            (words at or above that bound are skipped: no bias)
//! order    = a = [1, 2, …, N]; for i = 0 … N−2: j = i + below(N − i); swap a[i], a[j]
//!            call k (from 1) is a[k−1]
//! ```
//!
//! `seed` and `room` are the UTF-8 bytes of the texts (`room` empty when the
//! game has no room seed). Each call is a uniform draw among the balls not
//! yet called. Seeds of the older form `hall-` and 32 hex digits keep their
//! order ([`Calls::seeded`] under [`crate::seed::Seed::parse`]), so every
//! log written before still verifies.

use super::calls::Calls;
use chacha20::cipher::StreamCipher;
use chacha20::{ChaCha20, KeyIvInit};
use sha2::{Digest, Sha256};

/// The prefix of a seed whose order is drawn here.
pub const PREFIX: &str = "hall2-";
/// What the key's hash starts with (the derivation's name and version).
const DOMAIN: &[u8] = b"bingomint live calls v2";

/// Whether `seed` is a live seed (its order drawn here).
pub fn is_live(seed: &str) -> bool {
    seed.starts_with(PREFIX)
}

/// The ChaCha20 key of a game seeded `seed`, with the room's `room`.
pub fn key(seed: &str, room: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(DOMAIN);
    h.update([0]);
    h.update(seed.as_bytes());
    h.update([0]);
    h.update(room.as_bytes());
    h.finalize().into()
}

/// The keystream as words.
pub struct Words {
    cipher: ChaCha20,
    block: [u8; 64],
    at: usize,
}

impl Words {
    pub fn new(key: [u8; 32]) -> Words {
        Words {
            cipher: ChaCha20::new(&key.into(), &[0u8; 12].into()),
            block: [0; 64],
            at: 64,
        }
    }

    /// The keystream's next `out.len()` bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        out.fill(0);
        self.cipher.apply_keystream(out);
    }

    /// The next 32-bit word (little-endian).
    pub fn next_u32(&mut self) -> u32 {
        if self.at == 64 {
            self.fill_block();
        }
        let w = u32::from_le_bytes(
            self.block[self.at..self.at + 4]
                .try_into()
                .expect("4 bytes"),
        );
        self.at += 4;
        w
    }

    fn fill_block(&mut self) {
        let mut block = [0u8; 64];
        self.fill(&mut block);
        self.block = block;
        self.at = 0;
    }

    /// A uniform draw from `0..n` (`n` ≥ 1), by rejection.
    pub fn below(&mut self, n: u32) -> u32 {
        let bound = u32::MAX - (u32::MAX - n + 1) % n; // 2^32 − (2^32 mod n) − 1
        loop {
            let w = self.next_u32();
            if w <= bound {
                return w % n;
            }
        }
    }
}

/// The whole order of a game of `balls` numbers seeded `seed` with the
/// room's `room`.
pub fn order(balls: u8, seed: &str, room: &str) -> Vec<u8> {
    let mut words = Words::new(key(seed, room));
    let mut a: Vec<u8> = (1..=balls).collect();
    let n = a.len();
    for i in 0..n.saturating_sub(1) {
        let j = i + words.below((n - i) as u32) as usize;
        a.swap(i, j);
    }
    a
}

impl Calls {
    /// The first `count` calls of a hall game seeded `seed` with the
    /// room's `room` ("" for none): drawn here for a live seed, as
    /// [`Calls::seeded`] under [`crate::seed::Seed::parse`] for an older
    /// one (which has no room seed).
    pub fn of_hall(balls: u8, seed: &str, room: &str, count: usize) -> Calls {
        if is_live(seed) {
            let mut order = order(balls, seed, room);
            order.truncate(count.min(usize::from(balls)));
            Calls::from_order(balls, order)
        } else {
            Calls::seeded(balls, crate::seed::Seed::parse(seed).value, count)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439, 2.4.2: the keystream's first block under its test key
    /// (nonce and counter differ from ours, so this checks the cipher, set
    /// up as the RFC's own example).
    #[test]
    fn chacha20_is_the_rfcs() {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let nonce = [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let mut cipher = ChaCha20::new(&key.into(), &nonce.into());
        let mut text = *b"Ladies and Gentlemen of the class of '99: If I could offer you o";
        // Block 1 is the RFC's first: skip block 0.
        let mut skip = [0u8; 64];
        cipher.apply_keystream(&mut skip);
        cipher.apply_keystream(&mut text);
        assert_eq!(
            &text[..8],
            &[0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80]
        );
    }

    #[test]
    fn an_order_is_every_number_once_and_the_room_changes_it() {
        let seed = "hall2-00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        for balls in [75, 80, 90] {
            let mut o = order(balls, seed, "");
            o.sort_unstable();
            assert_eq!(o, (1..=balls).collect::<Vec<_>>());
        }
        assert_ne!(order(75, seed, ""), order(75, seed, "Mrs Patel, table 4"));
        assert_eq!(order(75, seed, "x"), order(75, seed, "x"));
        // The seed is used whole: its last digit changes the order.
        let other = format!("{}0", &seed[..seed.len() - 1]);
        assert_ne!(order(75, seed, ""), order(75, &other, ""));
    }

    #[test]
    fn below_is_in_range_and_an_older_seed_keeps_its_order() {
        let mut w = Words::new([7; 32]);
        for n in [1, 2, 3, 75, 90, u32::MAX] {
            for _ in 0..100 {
                assert!(w.below(n) < n);
            }
        }
        let old = "hall-29332128305bd6b404dbfe94c3f49ba0";
        assert_eq!(
            Calls::of_hall(75, old, "", 75),
            Calls::seeded(75, crate::seed::Seed::parse(old).value, 75)
        );
    }
}
