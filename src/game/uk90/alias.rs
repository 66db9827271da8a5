//! Exact alias tables (Vose's method in integer arithmetic): a draw from a
//! discrete distribution with integer weights in O(1), with no rounding at
//! all: over weights below 2⁶⁴ in total ([`Alias64`]) and over big weights
//! below 2²⁵⁶ in total ([`Alias256`]). The 90-ball sampler draws its midpoint,
//! its ticket vectors and its pairs from them.

use crate::seed::{below_u64 as below, Rng};
use rand_core::RngCore;
use std::cmp::Ordering;
use std::ops::{Add, Sub};

/// A 256-bit unsigned integer, little-endian 64-bit words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct U256(pub [u64; 4]);

impl U256 {
    /// `a · b`, exactly.
    pub fn product(a: u128, b: u128) -> U256 {
        let (a, b) = ([a as u64, (a >> 64) as u64], [b as u64, (b >> 64) as u64]);
        let mut words = [0u64; 4];
        for i in 0..2 {
            let mut carry = 0u128;
            for j in 0..2 {
                let t = u128::from(a[i]) * u128::from(b[j]) + u128::from(words[i + j]) + carry;
                words[i + j] = t as u64;
                carry = t >> 64;
            }
            words[i + 2] = carry as u64;
        }
        U256(words)
    }

    /// `self · n`; panics on overflow.
    fn times(self, n: u64) -> U256 {
        let mut words = [0u64; 4];
        let mut carry = 0u128;
        for (out, &w) in words.iter_mut().zip(&self.0) {
            let t = u128::from(w) * u128::from(n) + carry;
            *out = t as u64;
            carry = t >> 64;
        }
        assert_eq!(carry, 0, "alias weights too large");
        U256(words)
    }
}

impl Ord for U256 {
    fn cmp(&self, other: &U256) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for U256 {
    fn partial_cmp(&self, other: &U256) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for U256 {
    type Output = U256;
    /// Panics on overflow.
    fn add(self, other: U256) -> U256 {
        let mut words = [0u64; 4];
        let mut carry = false;
        for ((out, &a), &b) in words.iter_mut().zip(&self.0).zip(&other.0) {
            let (t, c1) = a.overflowing_add(b);
            let (t, c2) = t.overflowing_add(u64::from(carry));
            *out = t;
            carry = c1 || c2;
        }
        assert!(!carry, "alias weights too large");
        U256(words)
    }
}

impl Sub for U256 {
    type Output = U256;
    /// Panics below zero.
    fn sub(self, other: U256) -> U256 {
        let mut words = [0u64; 4];
        let mut borrow = false;
        for ((out, &a), &b) in words.iter_mut().zip(&self.0).zip(&other.0) {
            let (t, b1) = a.overflowing_sub(b);
            let (t, b2) = t.overflowing_sub(u64::from(borrow));
            *out = t;
            borrow = b1 || b2;
        }
        assert!(!borrow, "negative alias weight");
        U256(words)
    }
}

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

/// An exact alias table over big integer weights (below 2²⁵⁶ in total,
/// times the number of bins).
pub struct Alias256 {
    total: U256,
    threshold: Vec<U256>,
    alias: Vec<u32>,
}

impl Alias256 {
    pub fn new(weights: &[U256]) -> Alias256 {
        let n = weights.len() as u64;
        let total = weights.iter().fold(U256::default(), |sum, &w| sum + w);
        let (threshold, alias) = vose(weights.iter().map(|w| w.times(n)).collect(), &total);
        Alias256 {
            total,
            threshold,
            alias,
        }
    }

    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> usize {
        let bin = below(rng, self.threshold.len() as u64) as usize;
        // A uniform 256-bit number below the total, by rejection.
        let total = &self.total.0;
        let top = (0..4).rev().find(|&i| total[i] != 0).unwrap_or(0);
        let mask = u64::MAX >> total[top].leading_zeros();
        let u = loop {
            let mut u = [0u64; 4];
            for word in u.iter_mut().take(top) {
                *word = rng.next_u64();
            }
            u[top] = rng.next_u64() & mask;
            let u = U256(u);
            if u < self.total {
                break u;
            }
        };
        if u < self.threshold[bin] {
            bin
        } else {
            self.alias[bin] as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn to_big(w: &U256) -> BigUint {
        w.0.iter()
            .rev()
            .fold(BigUint::default(), |acc, &x| (acc << 64) + BigUint::from(x))
    }

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
            let wide: Vec<U256> = weights
                .iter()
                .map(|&w| U256::product(u128::from(w) << 75, 1 << 75))
                .collect();
            let big: Vec<BigUint> = weights.iter().map(|&w| BigUint::from(w) << 150).collect();
            assert_eq!(wide.iter().map(to_big).collect::<Vec<_>>(), big);
            let alias = Alias256::new(&wide);
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
