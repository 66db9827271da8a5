//! The battery on the calls: many games' call orders, each drawn by one of
//! the generators (a uniform shuffle of the game's numbers from the game's
//! own 64-bit seed, [`Calls::seeded`], or a live hall's,
//! [`crate::play::live`]), tested for the first ball's
//! frequency, every (position, number) pair, and, number by number across
//! consecutive games, the position it was called at as a digit stream
//! (runs, serial correlation between games, gap, poker, coupon collector).

use super::streams::Stream;
use super::{stats, Battery, Family, Residuals, Test};
use crate::play::calls::Calls;
use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// Games a segment holds.
pub const SEGMENT: u64 = 1 << 14;

/// Game `g`'s seed when an audit of calls is seeded with `base` (without a
/// base, every game's seed comes from the operating system, as a live
/// game's does).
pub fn game_seed(base: u64, g: u64) -> u64 {
    xxh3_64_with_seed(
        &g.to_le_bytes(),
        xxh3_64_with_seed(b"bingomint audit calls", base),
    )
}

/// Game `g`'s hall seed when an audit of the hall's generator is seeded
/// with `base`: `hall2-` and the SHA-256 (hex) of `BASE/g`.
pub fn hall_seed(base: &str, g: u64) -> String {
    format!(
        "{}{}",
        crate::play::live::PREFIX,
        crate::text::sha256_hex(format!("{base}/{g}").as_bytes())
    )
}

/// Runs the calls battery on `games` games of `balls` numbers, game g's
/// whole order `order(g)`, calling `done(games)` as each segment is drawn.
pub fn battery(
    balls: u8,
    games: u64,
    order: &(dyn Fn(u64) -> Calls + Sync),
    done: &(dyn Fn(u64) + Sync),
) -> Battery {
    let k = usize::from(balls);
    let segments: Vec<Tally> = (0..games.div_ceil(SEGMENT))
        .into_par_iter()
        .map(|s| {
            let range = s * SEGMENT..((s + 1) * SEGMENT).min(games);
            let mut tally = Tally::new(k);
            for g in range.clone() {
                tally.add(&order(g));
            }
            tally.streams.iter_mut().for_each(Stream::finish_segment);
            done(range.end - range.start);
            tally
        })
        .collect();
    let mut total = Tally::new(k);
    for t in &segments {
        total.merge(t);
    }
    total.battery(games)
}

struct Tally {
    k: usize,
    first: Vec<u64>,
    /// `table[position · k + number − 1]`.
    table: Vec<u64>,
    streams: Vec<Stream>,
}

impl Tally {
    fn new(k: usize) -> Tally {
        Tally {
            k,
            first: vec![0; k],
            table: vec![0; k * k],
            streams: (0..k).map(|_| Stream::new(k)).collect(),
        }
    }

    fn add(&mut self, calls: &Calls) {
        let order = calls.order();
        self.first[usize::from(order[0]) - 1] += 1;
        for (position, &n) in order.iter().enumerate() {
            self.table[position * self.k + usize::from(n) - 1] += 1;
        }
        for n in 1..=self.k {
            let position = usize::from(calls.positions()[n]) - 1;
            self.streams[n - 1].push(position);
        }
    }

    fn merge(&mut self, other: &Tally) {
        super::add_counts(&mut self.first, &other.first);
        super::add_counts(&mut self.table, &other.table);
        for (a, b) in self.streams.iter_mut().zip(&other.streams) {
            a.merge(b);
        }
    }

    fn battery(&self, games: u64) -> Battery {
        let k = self.k;
        let mut tests = Vec::new();
        let (x, df) = stats::pearson_uniform(&self.first);
        tests.push(Test::chi(
            Family::ChiSquare,
            "the first ball: each number equally often".into(),
            x,
            df,
            games,
        ));
        // A uniform order is a random permutation matrix: Pearson's
        // statistic over the whole table times (k − 1)/k is chi-square with
        // (k − 1)² degrees of freedom.
        let e = games as f64 / k as f64;
        let pearson: f64 = self.table.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
        let df = ((k - 1) * (k - 1)) as f64;
        let name = "every (position, number) pair equally often".to_string();
        tests.push(Test::chi(
            Family::ChiSquare,
            name,
            pearson * (k - 1) as f64 / k as f64,
            df,
            games,
        ));
        for (n, stream) in self.streams.iter().enumerate() {
            stream.tests(
                &format!("number {}: the call it came at", n + 1),
                true,
                &mut tests,
            );
        }
        let sd = (games as f64 * (1.0 / k as f64) * (1.0 - 1.0 / k as f64)).sqrt();
        let bars = self
            .first
            .iter()
            .enumerate()
            .map(|(i, &o)| ((i + 1).to_string(), (o as f64 - e) / sd))
            .collect();
        Battery {
            subject: format!("{games} games of {k}-ball calls"),
            tests,
            checks: Vec::new(),
            residuals: vec![Residuals {
                title: "each number as the first ball".into(),
                bars,
            }],
            alpha: 0.0,
        }
    }
}
