//! The exact tables behind uniform 90-ball strips, and the counts `count`
//! prints.
//!
//! Notation. A ticket's *column-count vector* `v` says how many numbers each
//! of its 9 columns holds; `L(v)` is the number of ticket layouts (3 valid
//! rows) with those counts. For a strip whose tickets have vectors
//! `v₁ … v₆`, the numbers of column c can be dealt in `n_c! / ∏ₜ vₜ[c]!`
//! ways, so the number of numbered strips with those vectors is
//! `∏_c n_c! · ∏ₜ w(vₜ)` with `w(v) = L(v) / ∏_c v_c!`. A uniform numbered
//! strip therefore has vectors distributed as `∏ₜ w(vₜ)` over all
//! `v₁ + … + v₆ = n`, not uniformly. We use the integer weight
//! `W(v) = L(v) · ∏_c (6 / v_c!) = 6⁹ w(v)` (below 2²⁹).
//!
//! Level tables. `F₂(r) = Σ_{a+b=r} W(a) W(b)` over the reachable
//! two-ticket sums r (below 2⁶³), with the list of its pairs; `F₃(s) = Σ_v W(v) F₂(s − v)` over three-ticket sums s (below 2⁹⁹),
//! with `M(s) = max_v F₂(s − v)`. The number of numbered strips is
//! `∏ n_c! · Σ_s F₃(s) F₃(n − s) / 6⁵⁴`.
//!
//! Sampling (see [`super::Uk90`]): the midpoint s (first three tickets' sum)
//! from an exact alias table with weights `F₃(s) F₃(n − s)`; then for each
//! half, the first ticket's vector by rejection (proposal ∝ W, accepted with
//! probability `F₂(s − v) / M(s)`), and the other two from the exact alias
//! table of `s − v`'s pairs. Every step is exact integer arithmetic.

use super::rules::{Rules, COLUMN_SIZES};
use crate::seed::Rng;
use num_bigint::BigUint;
use rand_core::RngCore;
use std::collections::HashMap;

/// Tickets in a strip.
pub const TICKETS: usize = 6;
/// Bits of one column's lane in a packed vector.
const LANE: u32 = 5;
/// Bit 4 of every lane.
const GUARD: u64 = 0x0842_1084_2108_4210 & ((1 << 45) - 1);

/// Packs a 9-column vector, 5 bits a column.
pub fn pack(v: &[u8; 9]) -> u64 {
    v.iter()
        .enumerate()
        .fold(0, |p, (c, &x)| p | u64::from(x) << (LANE * c as u32))
}

/// Unpacks a packed vector.
pub fn unpack(p: u64) -> [u8; 9] {
    std::array::from_fn(|c| (p >> (LANE * c as u32) & 0x1F) as u8)
}

/// The strip's column totals, packed.
fn strip_total() -> u64 {
    pack(&COLUMN_SIZES)
}

/// The box of sums of k tickets that can still complete a strip, with a
/// dense index over it.
#[derive(Clone, Debug)]
struct Level {
    lo: u64,
    /// Per lane, 15 − hi.
    up: u64,
    lo_lanes: [u8; 9],
    stride: [usize; 9],
    size: usize,
}

impl Level {
    fn new(k: u8, max: u8) -> Level {
        let rest = TICKETS as u8 - k;
        let mut lo = [0u8; 9];
        let mut hi = [0u8; 9];
        for c in 0..9 {
            let n = COLUMN_SIZES[c];
            lo[c] = k.max(n.saturating_sub(rest * max));
            hi[c] = (k * max).min(n - rest);
        }
        let mut stride = [0usize; 9];
        let mut size = 1usize;
        for c in 0..9 {
            stride[c] = size;
            size *= usize::from(hi[c] - lo[c] + 1);
        }
        let up = pack(&std::array::from_fn(|c| 15 - hi[c]));
        Level {
            lo: pack(&lo),
            up,
            lo_lanes: lo,
            stride,
            size,
        }
    }

    /// Whether every lane of `p` (each below 16) lies within the box.
    #[inline]
    fn contains(&self, p: u64) -> bool {
        (p + self.up) & GUARD == 0 && ((p | GUARD) - self.lo) & GUARD == GUARD
    }

    /// `Σ lane · stride`: the dense index is linear, so
    /// `index(a + b) = linear(a) + linear(b) − linear(lo)` inside the box.
    fn linear(&self, p: u64) -> usize {
        (0..9)
            .map(|c| (p >> (LANE * c as u32) & 0x1F) as usize * self.stride[c])
            .sum()
    }

    /// The dense index of a packed vector inside the box.
    #[inline]
    fn index(&self, p: u64) -> usize {
        let mut i = 0;
        for c in 0..9 {
            let x = (p >> (LANE * c as u32) & 0x1F) as usize;
            i += (x - usize::from(self.lo_lanes[c])) * self.stride[c];
        }
        i
    }
}

/// An exact alias table over integer weights below 2⁶⁴ each.
struct Alias64 {
    total: u64,
    threshold: Vec<u64>,
    alias: Vec<u32>,
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
    fn new(weights: &[u64]) -> Alias64 {
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
    fn sample(&self, rng: &mut Rng) -> usize {
        let bin = below(rng, self.threshold.len() as u64) as usize;
        if below(rng, self.total) < self.threshold[bin] {
            bin
        } else {
            self.alias[bin] as usize
        }
    }
}

/// An exact alias table over big integer weights (below 2²⁵⁶ in total).
struct Alias256 {
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
    fn new(weights: &[BigUint]) -> Alias256 {
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
    fn sample(&self, rng: &mut Rng) -> usize {
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

/// A uniform integer below `n` (n ≥ 1), exact (Lemire's method).
#[inline]
pub fn below(rng: &mut Rng, n: u64) -> u64 {
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as u64
}

/// Everything the sampler and `count` need for one rule set; built once.
pub struct Tables {
    pub rules: Rules,
    /// Valid rows (9-bit masks).
    pub rows: Vec<u16>,
    /// Ticket column-count vectors, ascending.
    pub vectors: Vec<[u8; 9]>,
    packed: Vec<u64>,
    /// Ticket layouts (27-bit masks, bit 9·row + column), grouped by vector.
    pub layouts: Vec<u32>,
    layout_start: Vec<u32>,
    /// W(v) per vector.
    pub weight: Vec<u64>,
    vector_alias: Alias64,
    level2: Level,
    /// Dense level-2 index → state id (u32::MAX: unreachable).
    state2: Vec<u32>,
    /// F₂ per level-2 state, and the states packed.
    f2: Vec<u64>,
    states2: Vec<u64>,
    pair_start: Vec<u32>,
    pair_first: Vec<u16>,
    pair_second: Vec<u16>,
    /// Per level-2 state, an exact alias table over its pairs (weights
    /// W(a)·W(b)): thresholds out of F₂, and aliases as offsets in the list.
    pair_threshold: Vec<u64>,
    pair_alias: Vec<u16>,
    /// Level-3 states: packed sum, F₃, M.
    packed3: Vec<u64>,
    pub f3: Vec<u128>,
    m3: Vec<u64>,
    /// Midpoints (first-half state, second-half state) and their alias table.
    midpoints: Vec<(u32, u32)>,
    mid_alias: Alias256,
}

/// The exact figures `count` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    pub rows: usize,
    pub vectors: usize,
    pub ticket_layouts: u64,
    pub strip_layouts: BigUint,
    pub numbered_strips: BigUint,
}

impl Tables {
    /// Builds the tables of a rule set (well under a second).
    pub fn build(rules: Rules) -> Tables {
        let max = rules.max_per_column();
        let rows = rules.rows();
        // 1. Ticket layouts, grouped by column-count vector.
        let mut groups: HashMap<[u8; 9], Vec<u32>> = HashMap::new();
        for &a in &rows {
            for &b in &rows {
                for &c in &rows {
                    let v: [u8; 9] =
                        std::array::from_fn(|i| ((a >> i & 1) + (b >> i & 1) + (c >> i & 1)) as u8);
                    if v.iter().all(|&x| (1..=max).contains(&x)) {
                        let layout = u32::from(a) | u32::from(b) << 9 | u32::from(c) << 18;
                        groups.entry(v).or_default().push(layout);
                    }
                }
            }
        }
        let mut vectors: Vec<[u8; 9]> = groups.keys().copied().collect();
        vectors.sort_unstable();
        let mut layouts = Vec::new();
        let mut layout_start = vec![0u32];
        for v in &vectors {
            layouts.extend_from_slice(&groups[v]);
            layout_start.push(layouts.len() as u32);
        }
        let factorial6 = |x: u8| -> u64 { [0, 6, 3, 1][usize::from(x)] };
        let weight: Vec<u64> = vectors
            .iter()
            .zip(layout_start.windows(2))
            .map(|(v, w)| {
                u64::from(w[1] - w[0]) * v.iter().map(|&x| factorial6(x)).product::<u64>()
            })
            .collect();
        let packed: Vec<u64> = vectors.iter().map(pack).collect();

        // 2. Two-ticket sums: F₂ and the pair lists.
        let level2 = Level::new(2, max);
        let (state2, f2, pairs) = level_two(&level2, &packed, &weight);
        let (pair_start, pair_first, pair_second, pair_weight) = pairs;
        let mut pair_threshold = vec![0u64; pair_weight.len()];
        let mut pair_alias = vec![0u16; pair_weight.len()];
        for id in 0..f2.len() {
            let (from, to) = (pair_start[id] as usize, pair_start[id + 1] as usize);
            let alias = Alias64::new(&pair_weight[from..to]);
            debug_assert_eq!(alias.total, f2[id]);
            pair_threshold[from..to].copy_from_slice(&alias.threshold);
            for (slot, &a) in pair_alias[from..to].iter_mut().zip(&alias.alias) {
                *slot = a as u16;
            }
        }
        let states2: Vec<u64> = {
            let mut s = vec![0u64; f2.len()];
            for (dense, &id) in state2.iter().enumerate() {
                if id != u32::MAX {
                    s[id as usize] = unpack_dense(&level2, dense);
                }
            }
            s
        };

        // 3. Three-ticket sums: F₃ and M.
        let level3 = Level::new(3, max);
        let (packed3, f3, m3) = level_three(&level3, &packed, &weight, &states2, &f2);

        // 4. Midpoints: s and n − s both reachable.
        let index3: HashMap<u64, u32> = packed3
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, i as u32))
            .collect();
        let total = strip_total();
        let mut midpoints = Vec::new();
        let mut mid_weights = Vec::new();
        for (i, &s) in packed3.iter().enumerate() {
            if let Some(&j) = index3.get(&(total - s)) {
                midpoints.push((i as u32, j));
                mid_weights.push(BigUint::from(f3[i]) * BigUint::from(f3[j as usize]));
            }
        }
        let mid_alias = Alias256::new(&mid_weights);
        let vector_alias = Alias64::new(&weight);
        Tables {
            rules,
            rows,
            vectors,
            packed,
            layouts,
            layout_start,
            weight,
            vector_alias,
            level2,
            state2,
            f2,
            states2,
            pair_start,
            pair_first,
            pair_second,
            pair_threshold,
            pair_alias,
            packed3,
            f3,
            m3,
            midpoints,
            mid_alias,
        }
    }

    /// The layouts of vector `v`.
    pub fn layouts_of(&self, v: usize) -> &[u32] {
        &self.layouts[self.layout_start[v] as usize..self.layout_start[v + 1] as usize]
    }

    /// Draws the six tickets' column-count vectors of a uniform strip.
    #[inline]
    pub fn draw_vectors(&self, rng: &mut Rng) -> [u16; TICKETS] {
        let (a, b) = self.midpoints[self.mid_alias.sample(rng)];
        let mut out = [0u16; TICKETS];
        self.draw_half(a, rng, &mut out[..3]);
        self.draw_half(b, rng, &mut out[3..]);
        out
    }

    /// Draws three vectors summing to level-3 state `s`, with probability
    /// ∝ W(v₁) W(v₂) W(v₃).
    #[inline]
    fn draw_half(&self, s: u32, rng: &mut Rng, out: &mut [u16]) {
        let sum = self.packed3[s as usize];
        let bound = self.m3[s as usize];
        loop {
            let v = self.vector_alias.sample(rng);
            // Lanes of s are ≥ 3 ≥ v's, so the subtraction never borrows.
            let rest = sum - self.packed[v];
            if !self.level2.contains(rest) {
                continue;
            }
            let id = self.state2[self.level2.index(rest)];
            if id == u32::MAX {
                continue;
            }
            let id = id as usize;
            if below(rng, bound) >= self.f2[id] {
                continue;
            }
            out[0] = v as u16;
            let (from, to) = (
                self.pair_start[id] as usize,
                self.pair_start[id + 1] as usize,
            );
            let bin = from + below(rng, (to - from) as u64) as usize;
            let k = if below(rng, self.f2[id]) < self.pair_threshold[bin] {
                bin
            } else {
                from + usize::from(self.pair_alias[bin])
            };
            out[1] = self.pair_first[k];
            out[2] = self.pair_second[k];
            return;
        }
    }

    /// The exact counts, from the same tables (strip layouts need one more
    /// pass with layout counts as weights).
    pub fn counts(&self) -> Counts {
        let layouts_per_vector: Vec<u64> = self
            .layout_start
            .windows(2)
            .map(|w| u64::from(w[1] - w[0]))
            .collect();
        let max = self.rules.max_per_column();
        let level2 = Level::new(2, max);
        let (state2, f2, _) = level_two(&level2, &self.packed, &layouts_per_vector);
        let mut states2 = vec![0u64; f2.len()];
        for (dense, &id) in state2.iter().enumerate() {
            if id != u32::MAX {
                states2[id as usize] = unpack_dense(&level2, dense);
            }
        }
        let (packed3, f3l, _) = level_three(
            &Level::new(3, max),
            &self.packed,
            &layouts_per_vector,
            &states2,
            &f2,
        );
        let index3: HashMap<u64, usize> =
            packed3.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let total = strip_total();
        let mut strip_layouts = BigUint::default();
        for (i, &s) in packed3.iter().enumerate() {
            if let Some(&j) = index3.get(&(total - s)) {
                strip_layouts += BigUint::from(f3l[i]) * BigUint::from(f3l[j]);
            }
        }
        let mut weighted = BigUint::default();
        for &(a, b) in &self.midpoints {
            weighted += BigUint::from(self.f3[a as usize]) * BigUint::from(self.f3[b as usize]);
        }
        let factorials: BigUint = COLUMN_SIZES
            .iter()
            .map(|&n| (1..=u64::from(n)).product::<u64>())
            .map(BigUint::from)
            .product();
        let six54 = BigUint::from(6u32).pow(54);
        let numbered = factorials * weighted;
        debug_assert_eq!(&numbered % &six54, BigUint::default());
        Counts {
            rows: self.rows.len(),
            vectors: self.vectors.len(),
            ticket_layouts: self.layouts.len() as u64,
            strip_layouts,
            numbered_strips: numbered / six54,
        }
    }

    /// The exact probability (as f64) that a ticket of a uniform strip, at
    /// any position, has each column-count vector: `W(v) · F₅(n − v) / F₆(n)`,
    /// with `F₅(x) = Σ_r F₂(r) F₃(x − r)`. For tests and documentation.
    pub fn vector_probabilities(&self) -> Vec<f64> {
        let level3 = Level::new(3, self.rules.max_per_column());
        let mut id3 = vec![u32::MAX; level3.size];
        for (i, &p) in self.packed3.iter().enumerate() {
            id3[level3.index(p)] = i as u32;
        }
        let total = strip_total();
        let mut p: Vec<f64> = self
            .packed
            .iter()
            .zip(&self.weight)
            .map(|(&v, &w)| {
                let x = total - v;
                let mut f5 = 0.0;
                for (&r, &f) in self.states2.iter().zip(&self.f2) {
                    // Lanes of x (≥ 4) exceed r's only when x − r is in range.
                    let y = (x | GUARD) - r;
                    if y & GUARD != GUARD {
                        continue;
                    }
                    let y = y - GUARD;
                    if level3.contains(y) {
                        let id = id3[level3.index(y)];
                        if id != u32::MAX {
                            f5 += f as f64 * self.f3[id as usize] as f64;
                        }
                    }
                }
                w as f64 * f5
            })
            .collect();
        let sum: f64 = p.iter().sum();
        p.iter_mut().for_each(|x| *x /= sum);
        p
    }

    /// Memory held by the tables, in bytes (approximate).
    pub fn memory(&self) -> usize {
        self.layouts.len() * 4
            + self.state2.len() * 4
            + self.f2.len() * 8
            + self.pair_first.len() * (2 + 2 + 8 + 2)
            + self.packed3.len() * (8 + 16 + 8)
            + self.midpoints.len() * (8 + 32 + 4)
    }
}

fn unpack_dense(level: &Level, mut dense: usize) -> u64 {
    let mut v = [0u8; 9];
    let strides = level.stride;
    for c in (0..9).rev() {
        v[c] = (dense / strides[c]) as u8 + level.lo_lanes[c];
        dense %= strides[c];
    }
    pack(&v)
}

type Pairs = (Vec<u32>, Vec<u16>, Vec<u16>, Vec<u64>);

/// Two-ticket sums: dense → state id, F₂ per state, and each state's pairs
/// (first, second, W·W), in ascending (first, second) order.
fn level_two(level: &Level, packed: &[u64], weight: &[u64]) -> (Vec<u32>, Vec<u64>, Pairs) {
    let mut count = vec![0u32; level.size];
    for &a in packed {
        for &b in packed {
            let s = a + b;
            if level.contains(s) {
                count[level.index(s)] += 1;
            }
        }
    }
    let mut state2 = vec![u32::MAX; level.size];
    let mut starts = vec![0u32];
    for (dense, &n) in count.iter().enumerate() {
        if n > 0 {
            state2[dense] = (starts.len() - 1) as u32;
            starts.push(starts.last().unwrap() + n);
        }
    }
    let pairs = *starts.last().unwrap() as usize;
    let mut first = vec![0u16; pairs];
    let mut second = vec![0u16; pairs];
    let mut weights = vec![0u64; pairs];
    let mut next: Vec<u32> = starts[..starts.len() - 1].to_vec();
    let mut f2 = vec![0u64; starts.len() - 1];
    for (i, &a) in packed.iter().enumerate() {
        for (j, &b) in packed.iter().enumerate() {
            let s = a + b;
            if level.contains(s) {
                let id = state2[level.index(s)] as usize;
                let k = next[id] as usize;
                next[id] += 1;
                f2[id] += weight[i] * weight[j];
                first[k] = i as u16;
                second[k] = j as u16;
                weights[k] = weight[i] * weight[j];
            }
        }
    }
    (state2, f2, (starts, first, second, weights))
}

/// Three-ticket sums: the reachable states (packed, ascending dense order),
/// F₃ and M = max F₂(s − v). The one heavy loop (vectors × two-ticket
/// states), split over two threads.
fn level_three(
    level: &Level,
    packed: &[u64],
    weight: &[u64],
    states2: &[u64],
    f2: &[u64],
) -> (Vec<u64>, Vec<u128>, Vec<u64>) {
    use rayon::prelude::*;
    let base = level.linear(level.lo);
    let linear2: Vec<usize> = states2.iter().map(|&b| level.linear(b)).collect();
    // The two-ticket states are in dense order, columns 9 and 8 most
    // significant: group them by those two columns, so each vector skips
    // the groups that cannot fit.
    let top = |p: u64| p >> (LANE * 7);
    let mut groups: Vec<(u64, usize, usize)> = Vec::new();
    for (i, &b) in states2.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if g.0 == top(b) => g.2 = i + 1,
            _ => groups.push((top(b), i, i + 1)),
        }
    }
    let (lo, hi) = (
        unpack(level.lo),
        std::array::from_fn::<u8, 9, _>(|c| 15 - unpack(level.up)[c]),
    );
    let fits = |a: u64, g: u64| {
        let (a, g) = (unpack(a), unpack(g << (LANE * 7)));
        (7..9).all(|c| (lo[c]..=hi[c]).contains(&(a[c] + g[c])))
    };
    let (f3, m3) = packed
        .par_chunks(packed.len().div_ceil(2).max(1))
        .enumerate()
        .map(|(part, chunk)| {
            let offset = part * packed.len().div_ceil(2).max(1);
            let mut f3 = vec![0u128; level.size];
            let mut m3 = vec![0u64; level.size];
            for (i, &a) in chunk.iter().enumerate() {
                let w = u128::from(weight[offset + i]);
                let la = level.linear(a) - base;
                for &(g, from, to) in &groups {
                    if !fits(a, g) {
                        continue;
                    }
                    for ((&b, &lb), &f) in states2[from..to]
                        .iter()
                        .zip(&linear2[from..to])
                        .zip(&f2[from..to])
                    {
                        if level.contains(a + b) {
                            let d = la + lb;
                            f3[d] += w * u128::from(f);
                            m3[d] = m3[d].max(f);
                        }
                    }
                }
            }
            (f3, m3)
        })
        .reduce(
            || (Vec::new(), Vec::new()),
            |(mut f, mut m), (g, n)| {
                if f.is_empty() {
                    return (g, n);
                }
                for d in 0..g.len() {
                    f[d] += g[d];
                    m[d] = m[d].max(n[d]);
                }
                (f, m)
            },
        );
    let mut packed3 = Vec::new();
    let mut out_f = Vec::new();
    let mut out_m = Vec::new();
    for d in 0..f3.len() {
        if f3[d] > 0 {
            packed3.push(unpack_dense(level, d));
            out_f.push(f3[d]);
            out_m.push(m3[d]);
        }
    }
    (packed3, out_f, out_m)
}

/// The tables of a rule set, built on first use and shared by all threads.
pub fn tables(rules: Rules) -> &'static Tables {
    static UK: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    static ES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    match rules {
        Rules::Uk => UK.get_or_init(|| Tables::build(Rules::Uk)),
        Rules::Es => ES.get_or_init(|| Tables::build(Rules::Es)),
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

    /// The half sampler against brute-force enumeration: for the most likely
    /// midpoint s, every (v₁, v₂, v₃) with v₁ + v₂ + v₃ = s, weighted
    /// W(v₁)W(v₂)W(v₃); the sampled first vectors must follow the exact
    /// marginal (chi-square, α = 1e-4 on a fixed seed).
    #[test]
    fn half_sampler_matches_brute_force() {
        let t = tables(Rules::Es);
        let s = (0..t.packed3.len()).max_by_key(|&i| t.f3[i]).unwrap();
        let sum = t.packed3[s];
        let index: HashMap<u64, usize> =
            t.packed.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let mut exact = vec![0u128; t.vectors.len()];
        for (a, &pa) in t.packed.iter().enumerate() {
            for (b, &pb) in t.packed.iter().enumerate() {
                let rest = (sum | GUARD) - pa - pb;
                if rest & GUARD != GUARD {
                    continue;
                }
                if let Some(&c) = index.get(&(rest - GUARD)) {
                    exact[a] +=
                        u128::from(t.weight[a]) * u128::from(t.weight[b]) * u128::from(t.weight[c]);
                }
            }
        }
        let total: u128 = exact.iter().sum();
        assert_eq!(total, t.f3[s], "brute force and the DP disagree on F3");
        let draws = 200_000;
        let mut seen = vec![0u64; t.vectors.len()];
        let mut rng = crate::seed::stream(99, 0);
        let mut out = [0u16; 3];
        for _ in 0..draws {
            t.draw_half(s as u32, &mut rng, &mut out);
            let sum3 =
                t.packed[out[0] as usize] + t.packed[out[1] as usize] + t.packed[out[2] as usize];
            assert_eq!(sum3, sum);
            seen[out[0] as usize] += 1;
        }
        let mut chi = 0.0;
        let mut df = 0;
        for (i, &e) in exact.iter().enumerate() {
            let expected = e as f64 / total as f64 * draws as f64;
            if expected > 0.0 {
                chi += (seen[i] as f64 - expected).powi(2) / expected;
                df += 1;
            } else {
                assert_eq!(seen[i], 0);
            }
        }
        // Chi-square critical value at α = 1e-4 (Wilson–Hilferty approximation).
        let k = f64::from(df - 1);
        let critical = k * (1.0 - 2.0 / (9.0 * k) + 3.719 * (2.0 / (9.0 * k)).sqrt()).powi(3);
        assert!(
            chi < critical,
            "chi-square {chi:.1} ≥ {critical:.1} (df {})",
            df - 1
        );
    }

    #[test]
    fn ticket_marginals_match_the_known_figures() {
        let t = tables(Rules::Uk);
        let p = t.vector_probabilities();
        let mut full = [0.0; 4];
        let mut last = [0.0; 4];
        for (v, &pv) in t.vectors.iter().zip(&p) {
            full[v.iter().filter(|&&x| x == 3).count()] += pv;
            last[usize::from(v[8])] += pv;
        }
        for (got, want) in full.iter().zip([0.3883, 0.5044, 0.1053, 0.0020]) {
            assert!((got - want).abs() < 1e-3, "{full:?}");
        }
        for (got, want) in last[1..].iter().zip([0.3021, 0.5624, 0.1355]) {
            assert!((got - want).abs() < 1e-3, "{last:?}");
        }
    }

    #[test]
    fn packing_round_trips() {
        let v = [1, 2, 3, 1, 2, 3, 1, 1, 1];
        assert_eq!(unpack(pack(&v)), v);
        assert_eq!(GUARD.count_ones(), 9);
    }

    #[test]
    fn uk_figures() {
        let t = tables(Rules::Uk);
        let c = t.counts();
        assert_eq!(c.rows, 126);
        assert_eq!(c.vectors, 1554);
        assert_eq!(c.ticket_layouts, 735_210);
        assert_eq!(t.packed3.len(), 172_190);
        assert_eq!(
            c.numbered_strips.to_string(),
            "467711541132248468278363019351514108076722415153589853880320000000000000000000"
        );
    }
}
