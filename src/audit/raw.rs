//! The generator's own output, for a lab's batteries (dieharder, TestU01,
//! PractRand): the raw words exactly as a fresh file's draws take them, or
//! the numbers as drawn.
//!
//! Raw: chunk after chunk (or, for a game whose records have streams of
//! their own, record after record), every xoshiro256++ output word the
//! draws of that chunk or record advanced through, 8 bytes little-endian.
//! (75- and 80-ball draws use each word's upper 32 bits; 90-ball draws all
//! 64.) Scaled: every face's numbers, row by row, one byte each, blanks and
//! the free centre left out. Both are what the first attempt of each
//! record draws: the rare redraws of a duplicate come from other streams.

use crate::game::{Spec, Text, Visit};
use crate::pipeline::CHUNK;
use crate::seed::{own_stream, stream, Rng};
use rand_core::RngCore;
use std::io::{self, Write};

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dump {
    /// The generator's words.
    Raw,
    /// The numbers as drawn.
    Scaled,
}

/// Writes `bytes` bytes of `dump` for a file of `spec` seeded `seed` to
/// `out`. Stops early, without an error, when the reader closes a pipe.
pub fn write(
    spec: Spec,
    seed: u64,
    dump: Dump,
    bytes: u64,
    out: &mut dyn Write,
) -> io::Result<u64> {
    spec.prepare();
    spec.visit(Writer {
        spec,
        seed,
        dump,
        bytes,
        out,
    })
}

struct Writer<'a> {
    spec: Spec,
    seed: u64,
    dump: Dump,
    bytes: u64,
    out: &'a mut dyn Write,
}

impl Visit for Writer<'_> {
    type Out = io::Result<u64>;
    fn visit<G: Text>(self, game: &G) -> io::Result<u64> {
        let mut left = self.bytes;
        let mut buffer = Vec::with_capacity(1 << 16);
        let own = self.spec.own_streams();
        for unit in 0u64.. {
            // One chunk of a chunk-stream game, or one record of an
            // own-stream game.
            let (mut rng, cards) = if own {
                (own_stream(self.seed, unit + 1, 0), 1)
            } else {
                (stream(self.seed, unit), CHUNK)
            };
            let start = rng.clone();
            for _ in 0..cards {
                let card = game.draw(&mut rng);
                if self.dump == Dump::Scaled {
                    for t in 0..self.spec.faces() {
                        let face = game.face(&card, t);
                        buffer.extend(face.numbers().iter().filter(|&&n| n != 0));
                    }
                }
            }
            if self.dump == Dump::Raw {
                words_between(start, &rng, &mut buffer);
            }
            let take = buffer
                .len()
                .min(usize::try_from(left).unwrap_or(usize::MAX));
            match self.out.write_all(&buffer[..take]) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => break,
                other => other?,
            }
            left -= take as u64;
            buffer.clear();
            if left == 0 {
                break;
            }
        }
        match self.out.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            other => other?,
        }
        Ok(self.bytes - left)
    }
}

/// Appends every word `from` gives until it reaches the state `to`.
fn words_between(mut from: Rng, to: &Rng, out: &mut Vec<u8>) {
    while &from != to {
        out.extend_from_slice(&from.next_u64().to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_words_are_the_streams_own_and_scaled_numbers_the_cards() {
        let spec = Spec::Us80;
        let mut raw = Vec::new();
        assert_eq!(write(spec, 9, Dump::Raw, 80, &mut raw).unwrap(), 80);
        let mut rng = stream(9, 0);
        let words: Vec<u8> = (0..10).flat_map(|_| rng.next_u64().to_le_bytes()).collect();
        assert_eq!(raw, words);
        let mut scaled = Vec::new();
        write(spec, 9, Dump::Scaled, 32, &mut scaled).unwrap();
        // Two 80-ball cards: 16 numbers each, every column in its range.
        for card in scaled.chunks(16) {
            for (i, &n) in card.iter().enumerate() {
                let column = i % 4;
                assert!(
                    (1 + 20 * column as u8..=20 * (column as u8 + 1)).contains(&n),
                    "{n}"
                );
            }
        }
    }
}
