//! Exact alias tables (Vose's method in integer arithmetic): a draw from a
//! discrete distribution with integer weights in O(1), with no rounding at
//! all: over weights below 2⁶⁴ in total ([`Alias64`]) and over big weights
//! below 2²⁵⁶ in total ([`Alias256`]); and, for big weights in small
//! tables, an [`Alias64`] of the weights rounded up to 32 bits ([`Rounded`])
//! whose draws [`keep`] accepts with the exact weight's share, so the result
//! is exact again. The 90-ball sampler draws its midpoint, its ticket
//! vectors and its pairs from them.

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

/// Exact weights scaled for an alias table with 32-bit thresholds: weight
/// `w` becomes `⌈w / 2^shift⌉`, with `shift` the total's bit length less 31,
/// so the rounded total (below 2³¹ plus one per item) stays below 2³². A
/// draw from such a table proposes item i with probability ∝
/// `⌈wᵢ / 2^shift⌉ · 2^shift ≥ wᵢ`; [`keep`] then accepts it with
/// probability `wᵢ / (⌈wᵢ / 2^shift⌉ · 2^shift)`, so accepted items follow
/// the exact weights. Nearly every proposal is kept: a total of `w` above 2³¹
/// with n items loses at most n in 2³¹ of its mass to rounding.
pub struct Rounded {
    pub shift: u32,
    /// The rounded weights (total below 2³²).
    pub weights: Vec<u64>,
}

impl Rounded {
    /// From exact weights below 2¹²⁷ in total.
    pub fn new(exact: &[u128]) -> Rounded {
        let total: u128 = exact.iter().sum();
        let shift = (128 - total.leading_zeros()).saturating_sub(31);
        let weights: Vec<u64> = exact
            .iter()
            .map(|&w| if w == 0 { 0 } else { rounded(w, shift) })
            .collect();
        debug_assert!(weights.iter().sum::<u64>() < 1 << 32);
        Rounded { shift, weights }
    }
}

/// `⌈exact / 2^shift⌉`, a [`Rounded`] weight (`exact` > 0, the result
/// below 2⁶⁴).
#[inline]
pub fn rounded(exact: u128, shift: u32) -> u64 {
    debug_assert!(exact > 0 && shift < 128);
    (((exact - 1) >> shift) + 1) as u64
}

/// Whether to keep an item of exact weight `exact` drawn from a [`Rounded`]
/// table with `shift`: true with probability `exact / (r · 2^shift)`, r its
/// rounded weight. A uniform X below `r · 2^shift` is `q · 2^shift + low`
/// with q uniform below r: X < exact whenever q < r − 1; at q = r − 1 (one
/// time in r) the low bits decide. With no shift the weights are exact:
/// kept, no draw.
#[inline]
pub fn keep(rng: &mut Rng, exact: u128, shift: u32) -> bool {
    if shift == 0 {
        return true;
    }
    let r = rounded(exact, shift);
    if below(rng, r) + 1 < r {
        return true;
    }
    // The low bits: a word's top bits for the first 64, the next word's
    // for the rest.
    let mut low = u128::from(rng.next_u64() >> (64 - shift.min(64)));
    if shift > 64 {
        low |= u128::from(rng.next_u64() >> (128 - shift)) << 64;
    }
    low < exact - (u128::from(r - 1) << shift)
}

/// Asks for the cache line holding `x` (a hint: no effect on results).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault;
    // SSE is part of x86-64's baseline.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
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
        let (bin, u) = self.pick(rng);
        self.resolve(bin, u)
    }

    /// The random part of [`Alias256::sample`]: a bin and a uniform number
    /// below the total, every draw from `rng` done. [`Alias256::resolve`]
    /// then reads the bin: a caller can fetch it ([`Alias256::prefetch`])
    /// and do other work meanwhile.
    #[inline]
    pub fn pick(&self, rng: &mut Rng) -> (usize, U256) {
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
        (bin, u)
    }

    /// Asks for `bin`'s threshold and alias to be brought into cache.
    #[inline]
    pub fn prefetch(&self, bin: usize) {
        prefetch(&self.threshold[bin]);
        prefetch(&self.alias[bin]);
    }

    /// The item a [`Alias256::pick`] drew.
    #[inline]
    pub fn resolve(&self, bin: usize, u: U256) -> usize {
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

    /// `rounded` against big integers, on values of one and two words and
    /// shifts across the word boundary.
    #[test]
    fn rounding_matches_big_integers() {
        let mut rng = crate::seed::stream(4, 0);
        for _ in 0..2000 {
            let exact = (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()))
                >> below(&mut rng, 127)
                | 1;
            let bits = 128 - exact.leading_zeros();
            for shift in [
                bits.saturating_sub(64),
                bits.saturating_sub(31),
                1,
                63,
                64,
                65,
            ] {
                if bits > shift + 64 {
                    continue;
                }
                let unit = BigUint::from(1u8) << shift;
                let ceil = (BigUint::from(exact) + &unit - BigUint::from(1u8)) / &unit;
                assert_eq!(
                    BigUint::from(rounded(exact, shift)),
                    ceil,
                    "{exact} >> {shift}"
                );
            }
        }
        let rounded = Rounded::new(&[3 << 40, 0, 1, (1 << 41) - 1]);
        assert_eq!(rounded.shift, 43 - 31);
        assert_eq!(rounded.weights, [3 << 28, 0, 1, 1 << 29]);
    }

    /// A rounded table draws each item in proportion to its exact weight:
    /// `keep`'s frequency against `exact / (⌈exact / 2^shift⌉ · 2^shift)`,
    /// within six standard deviations, for shifts within the first word and
    /// past it, an exact multiple, and a weight that rounds up from almost
    /// nothing.
    #[test]
    fn keep_undoes_the_rounding() {
        let mut rng = crate::seed::stream(6, 0);
        let cases: [(u128, u32); 7] = [
            (5, 2),                // kept 5 in 8
            (1, 3),                // kept 1 in 8
            (12, 2),               // exact multiple: always
            ((3 << 64) - 1, 65),   // 3·2⁶⁴ − 1 over 2⁶⁵·2
            ((3 << 100) + 1, 101), // 3·2¹⁰⁰ + 1 over 2¹⁰¹·2
            (1 << 84, 80),         // 2⁸⁴ over 2⁸⁰·16: always
            (7, 0),                // no shift: always
        ];
        let draws = 200_000u32;
        for (exact, shift) in cases {
            let r = rounded(exact, shift);
            let p = exact as f64 / ((r as f64) * 2f64.powi(shift as i32));
            let kept = (0..draws).filter(|_| keep(&mut rng, exact, shift)).count() as f64;
            let expected = p * f64::from(draws);
            let sd = (expected * (1.0 - p)).sqrt();
            assert!(
                (kept - expected).abs() <= 6.0 * sd + 1e-9,
                "{exact} shift {shift}: kept {kept}, expected {expected:.1}"
            );
        }
    }
}
