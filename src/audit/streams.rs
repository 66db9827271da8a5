//! Digit streams: a sequence of values that, if the generator is fair, are
//! independent and uniform below `d` (a 75-ball cell's number less its
//! column's lowest, across the cards of a file; the ticket of a strip that
//! holds number n; the position a number was called at, across games).
//! Each stream feeds the classic sequence tests at once: frequency, runs
//! above and below the median, serial correlation at lags 1..=[`LAGS`],
//! and Knuth's gap, poker and coupon-collector tests.
//!
//! A file is read in segments of fixed size (so results do not depend on
//! the thread count); each segment's stream starts afresh, and segments
//! merge by adding counts. Gaps, hands and coupon segments never span two
//! segments, and each segment's runs count is compared with its own mean.

use super::stats::{
    coupon_probabilities, gap_probabilities, pearson_lumped, pearson_uniform, poker_probabilities,
};
use super::{Family, Test};

/// Serial correlation is measured at lags 1 to this.
pub const LAGS: usize = 5;
/// Digits a poker hand holds.
pub const HAND: usize = 5;
/// Gap lengths counted one by one below this; longer ones together.
pub const LONGEST_GAP: usize = 12;

/// One digit stream's counts.
#[derive(Clone, Debug)]
pub struct Stream {
    d: usize,
    freq: Vec<u64>,
    // Runs above/below the median: runs so far, each side's count, the last
    // side (0 none, 1 below, 2 above); at a segment's end, its expected
    // runs and their variance join the totals.
    runs: u64,
    sides: [u64; 2],
    last_side: u8,
    runs_mean: f64,
    runs_var: f64,
    // Serial correlation: the last LAGS centred values (2x − (d − 1)).
    recent: [i64; LAGS],
    seen: usize,
    products: [i64; LAGS],
    // Per lag, the sums of each pair's earlier and later value: the
    // correlation is measured about the stream's own means, so a biased
    // frequency (the frequency test's business) does not read as one.
    earlier: [i64; LAGS],
    later: [i64; LAGS],
    pairs: [u64; LAGS],
    // Gap test: digits since the last hit (None before the first).
    gap: Option<usize>,
    gaps: Vec<u64>,
    // Poker: the current hand's values as bits, its size; hands by the
    // number of distinct values (index r − 1).
    hand: u128,
    hand_len: usize,
    hands: [u64; HAND],
    // Coupon collector: values seen in the current segment, its length;
    // segments by length − d (the last bin: at least `longest`).
    coupon: u128,
    coupon_len: usize,
    coupons: Vec<u64>,
}

impl Stream {
    /// An empty stream of digits below `d` (2 ≤ d ≤ 128).
    pub fn new(d: usize) -> Stream {
        assert!((2..=128).contains(&d), "digit streams hold 2 to 128 values");
        Stream {
            d,
            freq: vec![0; d],
            runs: 0,
            sides: [0; 2],
            last_side: 0,
            runs_mean: 0.0,
            runs_var: 0.0,
            recent: [0; LAGS],
            seen: 0,
            products: [0; LAGS],
            earlier: [0; LAGS],
            later: [0; LAGS],
            pairs: [0; LAGS],
            gap: None,
            gaps: vec![0; LONGEST_GAP + 1],
            hand: 0,
            hand_len: 0,
            hands: [0; HAND],
            coupon: 0,
            coupon_len: 0,
            coupons: vec![0; longest_coupon(d) - d + 1],
        }
    }

    /// Digits counted as a gap test's hits: the lowest third.
    fn hits(&self) -> usize {
        (self.d / 3).max(1)
    }

    /// Adds the next value (below d).
    #[inline]
    pub fn push(&mut self, x: usize) {
        debug_assert!(x < self.d);
        self.freq[x] += 1;
        // Runs: an odd d's middle digit is on neither side.
        let side = if 2 * x + 1 == self.d {
            0
        } else if 2 * x < self.d {
            1
        } else {
            2
        };
        if side != 0 {
            self.sides[usize::from(side - 1)] += 1;
            if side != self.last_side {
                self.runs += 1;
                self.last_side = side;
            }
        }
        let c = 2 * x as i64 - (self.d as i64 - 1);
        for lag in 0..LAGS.min(self.seen) {
            let before = self.recent[(self.seen - 1 - lag) % LAGS];
            self.products[lag] += c * before;
            self.earlier[lag] += before;
            self.later[lag] += c;
            self.pairs[lag] += 1;
        }
        self.recent[self.seen % LAGS] = c;
        self.seen += 1;
        if x < self.hits() {
            if let Some(g) = self.gap {
                self.gaps[g.min(LONGEST_GAP)] += 1;
            }
            self.gap = Some(0);
        } else if let Some(g) = self.gap.as_mut() {
            *g += 1;
        }
        self.hand |= 1 << x;
        self.hand_len += 1;
        if self.hand_len == HAND {
            self.hands[self.hand.count_ones() as usize - 1] += 1;
            (self.hand, self.hand_len) = (0, 0);
        }
        self.coupon |= 1 << x;
        self.coupon_len += 1;
        if self.coupon.count_ones() as usize == self.d {
            let bin = self.coupon_len.min(self.coupons.len() - 1 + self.d) - self.d;
            self.coupons[bin] += 1;
            (self.coupon, self.coupon_len) = (0, 0);
        }
    }

    /// Ends a segment: its runs join the totals, and unfinished gaps, hands
    /// and coupon segments are dropped.
    pub fn finish_segment(&mut self) {
        let [n1, n2] = self.sides.map(|s| s as f64);
        let n = n1 + n2;
        if n1 > 0.0 && n2 > 0.0 {
            self.runs_mean += 1.0 + 2.0 * n1 * n2 / n;
            self.runs_var += 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0));
        } else if n > 0.0 {
            self.runs_mean += 1.0;
        }
        self.sides = [0; 2];
        self.last_side = 0;
        self.seen = 0;
        self.gap = None;
        (self.hand, self.hand_len) = (0, 0);
        (self.coupon, self.coupon_len) = (0, 0);
    }

    /// Adds another stream's finished counts (the same d).
    pub fn merge(&mut self, other: &Stream) {
        super::add_counts(&mut self.freq, &other.freq);
        self.runs += other.runs;
        self.runs_mean += other.runs_mean;
        self.runs_var += other.runs_var;
        for lag in 0..LAGS {
            self.products[lag] += other.products[lag];
            self.earlier[lag] += other.earlier[lag];
            self.later[lag] += other.later[lag];
            self.pairs[lag] += other.pairs[lag];
        }
        super::add_counts(&mut self.gaps, &other.gaps);
        super::add_counts(&mut self.hands, &other.hands);
        super::add_counts(&mut self.coupons, &other.coupons);
    }

    /// Each value's count.
    pub fn frequencies(&self) -> &[u64] {
        &self.freq
    }

    /// The serial correlation's z-score at each lag: the pairs' sample
    /// covariance about their own means, over its standard error under
    /// independence (the values' variance, (d² − 1)/3 for 2x − (d − 1),
    /// over √pairs).
    pub fn serial_z(&self) -> [f64; LAGS] {
        let var = (self.d * self.d - 1) as f64 / 3.0;
        std::array::from_fn(|lag| {
            let n = self.pairs[lag] as f64;
            if n < 2.0 {
                return 0.0;
            }
            let (a, b) = (self.earlier[lag] as f64, self.later[lag] as f64);
            let covariance = (self.products[lag] as f64 - a * b / n) / n;
            covariance * n.sqrt() / var
        })
    }

    /// The stream's tests, each named `label` and what it tests; the
    /// frequency test only when `frequency` (some streams' frequencies are
    /// tested another way).
    pub fn tests(&self, label: &str, frequency: bool, out: &mut Vec<Test>) {
        let n: u64 = self.freq.iter().sum();
        if frequency {
            let (x, df) = pearson_uniform(&self.freq);
            out.push(Test::chi(
                Family::ChiSquare,
                format!("{label}: each value equally often"),
                x,
                df,
                n,
            ));
        }
        if self.runs_var > 0.0 {
            let z = (self.runs as f64 - self.runs_mean) / self.runs_var.sqrt();
            let name = format!("{label}: runs above and below the median");
            out.push(Test::normal(Family::Runs, name, z, n));
        }
        for (lag, z) in self.serial_z().into_iter().enumerate() {
            let name = format!("{label}: serial correlation at lag {}", lag + 1);
            out.push(Test::normal(Family::Serial, name, z, self.pairs[lag]).at_lag(lag + 1));
        }
        let p = self.hits() as f64 / self.d as f64;
        self.lumped(
            Family::Gap,
            label,
            &self.gaps,
            &gap_probabilities(p, LONGEST_GAP),
            out,
        );
        self.lumped(
            Family::Poker,
            label,
            &self.hands,
            &poker_probabilities(self.d, HAND),
            out,
        );
        let coupons = coupon_probabilities(self.d, longest_coupon(self.d));
        self.lumped(Family::Coupon, label, &self.coupons, &coupons, out);
    }

    fn lumped(
        &self,
        family: Family,
        label: &str,
        seen: &[u64],
        probs: &[f64],
        out: &mut Vec<Test>,
    ) {
        let (x, df) = pearson_lumped(seen, probs);
        if df > 0.0 {
            let n = seen.iter().sum();
            out.push(Test::chi(
                family,
                format!("{label}: {}", family.what()),
                x,
                df,
                n,
            ));
        }
    }
}

/// Coupon segments this long or longer share the last bin: about 1 in
/// 10,000 segments gets there.
fn longest_coupon(d: usize) -> usize {
    let d = d as f64;
    (d * (d.ln() + 9.2)).ceil() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::{below_u32, stream};

    fn fed(d: usize, values: impl Iterator<Item = usize>) -> Stream {
        let mut s = Stream::new(d);
        values.for_each(|x| s.push(x));
        s.finish_segment();
        s
    }

    #[test]
    fn fair_digits_pass_and_a_repeating_pattern_fails() {
        let mut rng = stream(7, 0);
        let fair = fed(15, (0..200_000).map(|_| below_u32(&mut rng, 15) as usize));
        let mut tests = Vec::new();
        fair.tests("fair", true, &mut tests);
        assert_eq!(tests.len(), 1 + 1 + LAGS + 3);
        for t in &tests {
            assert!(t.p > 1e-4, "{} p = {}", t.name, t.p);
        }
        // A sequence that climbs: every test of order fails.
        let climbing = fed(15, (0..200_000).map(|i| (i / 3) % 15));
        let mut tests = Vec::new();
        climbing.tests("climbing", true, &mut tests);
        let failed: Vec<Family> = tests
            .iter()
            .filter(|t| t.p < 1e-9)
            .map(|t| t.family)
            .collect();
        for family in [
            Family::Runs,
            Family::Serial,
            Family::Gap,
            Family::Poker,
            Family::Coupon,
        ] {
            assert!(failed.contains(&family), "{family:?} missed it: {failed:?}");
        }
    }

    #[test]
    fn segments_merge_into_the_same_counts() {
        let values: Vec<usize> = (0..1000).map(|i| (i * 7 + i / 13) % 6).collect();
        let whole = fed(6, values.iter().copied());
        let mut halves = fed(6, values[..500].iter().copied());
        halves.merge(&fed(6, values[500..].iter().copied()));
        assert_eq!(whole.freq, halves.freq);
        // Pairs across the cut are lost, no others.
        assert_eq!(whole.pairs[0], halves.pairs[0] + 1);
    }
}
