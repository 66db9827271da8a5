//! Exact alias tables (Vose's method in integer arithmetic): a draw from a
//! discrete distribution with integer weights in O(1), with no rounding at
//! all: over weights below 2⁶⁴ in total ([`Alias64`]) and over big weights
//! below 2²⁵⁶ in total ([`Alias256`]). The 90-ball sampler draws its midpoint,
//! its ticket vectors and its pairs from them.

use crate::seed::{below_u64 as below, Rng};
use num_bigint::BigUint;
use rand_core::RngCore;

/// An exact alias table over integer weights below 2⁶⁴ each.
pub struct Alias64 {
    pub total: u64,
    pub threshold: Vec<u64>,
    pub alias: Vec<u32>,
}

/// Vose's alias construction in exact integer arithmetic. `scaled[i]` is
/// weight i times the number of bins and `total` the sum of the weights, so
/// a bin holds `total`. Returns each bin's threshold (out of `total`: below
/// it the bin's own item, else its alias) and alias.
fn vose<T>(mut scaled: Vec<T>, total: &T) -> (Vec<T>, Vec<u32>)
where
    T: Clone + Ord + Default + std::ops::Add<Output = T> + std::ops::Sub<Output = T>,
{
    let n = scaled.len();
    let mut threshold = vec![T::default(); n];
    let mut alias: Vec<u32> = (0..n as u32).collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) =
        (0..n).partition(|&i| scaled[i] < *total);
    while let (Some(l), Some(&g)) = (small.pop(), large.last()) {
        threshold[l] = scaled[l].clone();
        alias[l] = g as u32;
        scaled[g] = scaled[g].clone() + scaled[l].clone() - total.clone();
        if scaled[g] < *total {
            large.pop();
            small.push(g);
        }
    }
    for i in small.into_iter().chain(large) {
        threshold[i] = total.clone();
    }
    (threshold, alias)
}

impl Alias64 {
    pub fn new(weights: &[u64]) -> Alias64 {
        let n = weights.len() as u128;
        let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
        // Thresholds are at most the total, so they fit when it does.
        assert!(total < 1 << 64, "alias weights too large");
        let scaled = weights.iter().map(|&w| u128::from(w) * n).collect();
        let (threshold, alias) = vose(scaled, &total);
        Alias64 {
            total: total as u64,
            threshold: threshold.into_iter().map(|t| t as u64).collect(),
            alias,
        }
    }

    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> usize {
        let bin = below(rng, self.threshold.len() as u64) as usize;
        if below(rng, self.total) < self.threshold[bin] {
            bin
        } else {
            self.alias[bin] as usize
        }
    }
}

/// An exact alias table over big integer weights (below 2²⁵⁶ in total).
pub struct Alias256 {
    total: [u64; 4],
    threshold: Vec<[u64; 4]>,
    alias: Vec<u32>,
}

fn words(x: &BigUint) -> [u64; 4] {
    let digits = x.to_u64_digits();
    assert!(digits.len() <= 4, "alias weights too large");
    std::array::from_fn(|i| digits.get(i).copied().unwrap_or(0))
}

/// Compares two little-endian 256-bit numbers.
fn less(a: &[u64; 4], b: &[u64; 4]) -> bool {
    for i in (0..4).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

impl Alias256 {
    pub fn new(weights: &[BigUint]) -> Alias256 {
        let n = BigUint::from(weights.len());
        let total: BigUint = weights.iter().sum();
        let (threshold, alias) = vose(weights.iter().map(|w| w * &n).collect(), &total);
        Alias256 {
            total: words(&total),
            threshold: threshold.iter().map(words).collect(),
            alias,
        }
    }

    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> usize {
        let bin = below(rng, self.threshold.len() as u64) as usize;
        // A uniform 256-bit number below the total, by rejection.
        let top = (0..4).rev().find(|&i| self.total[i] != 0).unwrap_or(0);
        let mask = u64::MAX >> self.total[top].leading_zeros();
        let u = loop {
            let mut u = [0u64; 4];
            for word in u.iter_mut().take(top) {
                *word = rng.next_u64();
            }
            u[top] = rng.next_u64() & mask;
            if less(&u, &self.total) {
                break u;
            }
        };
        if less(&u, &self.threshold[bin]) {
            bin
        } else {
            self.alias[bin] as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Σ over bins of what each bin gives item i, times N·T, must equal
    /// N·wᵢ exactly: the alias table is exact, not approximate.
    #[test]
    fn alias_tables_are_exact() {
        let mut rng = crate::seed::stream(3, 0);
        for n in [1usize, 2, 7, 100] {
            let weights: Vec<u64> = (0..n).map(|_| below(&mut rng, 1 << 40) + 1).collect();
            let alias = Alias64::new(&weights);
            let total = u128::from(alias.total);
            let mut given = vec![0u128; n];
            for b in 0..n {
                given[b] += u128::from(alias.threshold[b]);
                given[alias.alias[b] as usize] += total - u128::from(alias.threshold[b]);
            }
            for i in 0..n {
                assert_eq!(given[i], u128::from(weights[i]) * n as u128);
            }
            let big: Vec<BigUint> = weights.iter().map(|&w| BigUint::from(w) << 150).collect();
            let alias = Alias256::new(&big);
            let to_big = |w: &[u64; 4]| -> BigUint {
                w.iter()
                    .rev()
                    .fold(BigUint::default(), |acc, &x| (acc << 64) + BigUint::from(x))
            };
            let total = to_big(&alias.total);
            let mut given = vec![BigUint::default(); n];
            for b in 0..n {
                let t = to_big(&alias.threshold[b]);
                given[alias.alias[b] as usize] += &total - &t;
                given[b] += t;
            }
            for i in 0..n {
                assert_eq!(given[i], &big[i] * BigUint::from(n));
            }
        }
    }
}
