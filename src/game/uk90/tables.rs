//! The exact tables behind uniform 90-ball strips, and the counts `count`
//! prints. A long file (about 600 lines, then 180 of tests): the level
//! tables, their dense indices and the alias tables are one structure,
//! built in one pass and correct only together.
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
//! half, the first ticket's vector v with weights `W(v) F₂(s − v)`, and the
//! other two from the exact alias table of `s − v`'s pairs. Every step is
//! exact integer arithmetic. The first vector comes either from an alias
//! table of its sum (weights rounded to 32 bits, made exact by an
//! acceptance step: [`Rounded`]), when a rule set has at most
//! [`FIRST_TABLE_SUMS`] half sums (`es`: 2,746), or by rejection (proposal
//! ∝ W, accepted with probability `F₂(s − v) / M(s)`; ~15 proposals a half
//! for `uk`, whose 172,190 sums would need 51 M bins).

use super::alias::{keep, prefetch, Alias256, Alias64, Rounded};
use super::levels::{
    complements, dense_states, level_three, level_two, midpoints, strip_total, Level, GUARD,
};
pub use super::levels::{pack, unpack};
use super::rules::{Rules, COLUMN_SIZES};
use crate::buckets::runs_mut;
use crate::seed::{below_u64 as below, Rng};
use num_bigint::BigUint;
use rayon::prelude::*;

pub use super::rules::TICKETS;

/// A rule set with at most this many three-ticket sums draws each half's
/// first vector from a table of its sum (`es`: 2,746 sums, 55,013 bins,
/// 0.4 MB: a draw of the six vectors 2.7× faster than by rejection). `uk`,
/// with 172,190 sums, draws it by rejection: its tables would take 51 M bins
/// (408 MB), and tables for only its likeliest 1,024–16,384 sums (58–92% of
/// the halves) measured no faster, each draw then waiting on memory instead
/// of proposals. Part of the algorithm: changing it changes the strips a
/// seed gives.
pub const FIRST_TABLE_SUMS: usize = 1 << 14;

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
    /// `linear` of each vector in the level-2 box.
    linear_v: Vec<usize>,
    level2: Level,
    /// Dense level-2 index → state id, for the reachable states.
    state2: StateIndex,
    /// F₂ per level-2 state, and the states packed.
    f2: Vec<u64>,
    states2: Vec<u64>,
    pair_start: Vec<u32>,
    /// Per level-2 state, an exact alias table over its pairs (weights
    /// W(a)·W(b)), one bin per pair, each bin in one record.
    pair_bins: Vec<PairBin>,
    /// Level-3 states: F₃, and what the half sampler reads (the packed sum
    /// among it).
    pub f3: Vec<u128>,
    halves: Vec<HalfSum>,
    /// The first-vector tables' bins, sum by sum.
    first_bins: Vec<FirstBin>,
    /// Midpoints (first-half state, second-half state) and their alias table.
    midpoints: Vec<(u32, u32)>,
    mid_alias: Alias256,
}

/// A three-ticket sum as the half sampler reads it, in one record.
#[derive(Clone, Copy, Default)]
struct HalfSum {
    sum: u64,
    /// M(s), the rejection bound (for a sum without a table).
    bound: u64,
    /// `linear(sum) − linear(lo)` in the level-2 box.
    linear: u32,
    /// Its first-vector table: bins `start..start + len` (none when 0),
    /// the rounded weights' total and their shift.
    start: u32,
    len: u16,
    shift: u16,
    total: u32,
}

/// One bin of a first-vector table: below `threshold` (out of the rounded
/// total) its own vector, else its alias.
#[derive(Clone, Copy, Default)]
struct FirstBin {
    threshold: u32,
    own: u16,
    alias: u16,
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
    /// Builds the tables of a rule set (0.2–0.4 s for uk, a few ms for es, on
    /// two cores).
    pub fn build(rules: Rules) -> Tables {
        let max = rules.max_per_column();
        let rows = rules.rows();
        // 1. Ticket layouts, grouped by column-count vector, and W per vector.
        let (vectors, layouts, layout_start) = ticket_layouts(&rows, max);
        let factorial6 = |x: u8| -> u64 { [0, 6, 3, 1][usize::from(x)] };
        let weight: Vec<u64> = vectors
            .iter()
            .zip(layout_start.windows(2))
            .map(|(v, w)| {
                u64::from(w[1] - w[0]) * v.iter().map(|&x| factorial6(x)).product::<u64>()
            })
            .collect();
        let packed: Vec<u64> = vectors.iter().map(pack).collect();
        // 2. Two-ticket sums: F₂ and an alias table over each sum's pairs.
        let level2 = Level::new(2, max);
        let pairs = PairTables::build(&level2, &packed, &weight);
        // 3. Three-ticket sums: F₃ and M.
        let level3 = Level::new(3, max);
        let (packed3, f3, m3) = level_three(&level3, &packed, &weight, &pairs.states, &pairs.f2);
        // 4. Midpoints: s and n − s both reachable, weighted F₃(s)·F₃(n − s).
        let (midpoints, mid_weights) = midpoints(&packed3, &f3);
        let linear_v = packed.iter().map(|&v| level2.linear(v)).collect();
        let mut tables = Tables {
            rules,
            rows,
            vectors,
            packed,
            layouts,
            layout_start,
            vector_alias: Alias64::new(&weight),
            linear_v,
            weight,
            state2: StateIndex::new(&pairs.dense),
            f2: pairs.f2,
            states2: pairs.states,
            pair_start: pairs.start,
            pair_bins: pairs.bins,
            halves: packed3
                .iter()
                .zip(&m3)
                .map(|(&sum, &bound)| HalfSum {
                    sum,
                    bound,
                    linear: (level2.linear(sum) - level2.base) as u32,
                    ..HalfSum::default()
                })
                .collect(),
            level2,
            f3,
            first_bins: Vec::new(),
            midpoints,
            mid_alias: Alias256::new(&mid_weights),
        };
        // 5. First-vector tables, when the sums are few.
        if tables.halves.len() <= FIRST_TABLE_SUMS {
            tables.first_tables();
        }
        tables
    }

    /// Builds every sum's first-vector table: for sum s, every v with
    /// `F₂(s − v) > 0`, weighted `W(v) F₂(s − v)` (F₃(s) in all).
    fn first_tables(&mut self) {
        let built: Vec<(Rounded, Alias64, Vec<u16>)> = (0..self.halves.len())
            .into_par_iter()
            .map(|s| {
                let half = self.halves[s];
                let (mut vectors, mut exact) = (Vec::new(), Vec::new());
                for v in 0..self.vectors.len() {
                    if let Some(id) = self.rest(half, v) {
                        vectors.push(v as u16);
                        exact.push(u128::from(self.weight[v]) * u128::from(self.f2[id]));
                    }
                }
                debug_assert_eq!(exact.iter().sum::<u128>(), self.f3[s]);
                let rounded = Rounded::new(&exact);
                let alias = Alias64::new(&rounded.weights);
                (rounded, alias, vectors)
            })
            .collect();
        let mut bins = Vec::with_capacity(built.iter().map(|b| b.2.len()).sum());
        for (half, (rounded, alias, vectors)) in self.halves.iter_mut().zip(built) {
            half.start = bins.len() as u32;
            half.len = vectors.len() as u16;
            half.shift = rounded.shift as u16;
            half.total = alias.total as u32;
            bins.extend((0..vectors.len()).map(|k| FirstBin {
                threshold: alias.threshold[k] as u32,
                own: vectors[k],
                alias: vectors[alias.alias[k] as usize],
            }));
        }
        self.first_bins = bins;
    }

    /// The level-2 state of `half`'s sum minus vector `v`, if reachable.
    #[inline]
    fn rest(&self, half: HalfSum, v: usize) -> Option<usize> {
        // Lanes of s are ≥ 3 ≥ v's, so the subtraction never borrows.
        if !self.level2.contains(half.sum - self.packed[v]) {
            return None;
        }
        self.state2.get(half.linear as usize - self.linear_v[v])
    }

    /// The layouts of vector `v`.
    pub fn layouts_of(&self, v: usize) -> &[u32] {
        &self.layouts[self.layout_start[v] as usize..self.layout_start[v + 1] as usize]
    }

    /// Draws the six tickets' column-count vectors of a uniform strip.
    #[inline]
    pub fn draw_vectors(&self, rng: &mut Rng) -> [u16; TICKETS] {
        self.draw_vectors_many(std::array::from_mut(rng))[0]
    }

    /// [`Tables::draw_vectors`] for `B` strips at once, strip k from
    /// `rngs[k]`: each strip draws exactly what [`Tables::draw_vectors`]
    /// would from its generator, in the same order, so the result does
    /// not depend on `B`. The steps run strip after strip, a step at a time,
    /// and a step that ends on a table's bin far out in memory (the
    /// midpoint's, each half's pair bin) asks for it and reads it only at
    /// the next step: the strips' cache misses overlap instead of coming
    /// one after another.
    #[inline]
    pub fn draw_vectors_many<const B: usize>(&self, rngs: &mut [Rng; B]) -> [[u16; TICKETS]; B] {
        let mids: [_; B] = std::array::from_fn(|k| {
            let pick = self.mid_alias.pick(&mut rngs[k]);
            self.mid_alias.prefetch(pick.0);
            pick
        });
        let halves: [(u32, u32); B] = std::array::from_fn(|k| {
            let (a, b) = self.midpoints[self.mid_alias.resolve(mids[k].0, mids[k].1)];
            prefetch(&self.halves[a as usize]);
            prefetch(&self.halves[b as usize]);
            (a, b)
        });
        let mut out = [[0u16; TICKETS]; B];
        let mut picks = [[(0usize, 0u64); 2]; B];
        for k in 0..B {
            let (a, b) = halves[k];
            for (h, s) in [a, b].into_iter().enumerate() {
                let (v, id) = self.half_first(s, &mut rngs[k]);
                out[k][3 * h] = v;
                let pick = self.pair_pick(id, &mut rngs[k]);
                prefetch(&self.pair_bins[pick.0]);
                picks[k][h] = pick;
            }
        }
        for k in 0..B {
            for h in 0..2 {
                let [second, third] = self.pair(picks[k][h]);
                out[k][3 * h + 1] = second;
                out[k][3 * h + 2] = third;
            }
        }
        out
    }

    /// The first of three vectors summing to level-3 state `s` (drawn
    /// ∝ W(v₁) Σ W(v₂) W(v₃)), and the level-2 state of the other two.
    #[inline]
    fn half_first(&self, s: u32, rng: &mut Rng) -> (u16, usize) {
        let half = self.halves[s as usize];
        loop {
            if half.len > 0 {
                // From the sum's table: ∝ W(v) F₂(s − v), rounded, then kept
                // with the exact weight.
                let bins = &self.first_bins[half.start as usize..];
                let bin = bins[below(rng, u64::from(half.len)) as usize];
                let v = usize::from(
                    if below(rng, u64::from(half.total)) < u64::from(bin.threshold) {
                        bin.own
                    } else {
                        bin.alias
                    },
                );
                // A table holds only vectors that complete its sum: no box check.
                let id = self
                    .state2
                    .get(half.linear as usize - self.linear_v[v])
                    .expect("a table's vectors complete its sum");
                let exact = u128::from(self.weight[v]) * u128::from(self.f2[id]);
                if keep(rng, exact, u32::from(half.shift)) {
                    return (v as u16, id);
                }
            } else {
                // By rejection: proposal ∝ W(v), kept with F₂(s − v) / M(s).
                let v = self.vector_alias.sample(rng);
                let Some(id) = self.rest(half, v) else {
                    continue;
                };
                if below(rng, half.bound) < self.f2[id] {
                    return (v as u16, id);
                }
            }
        }
    }

    /// The random part of drawing two vectors of level-2 state `id`, with
    /// probability ∝ W(v₂) W(v₃): the bin of its alias table, and the number
    /// that decides between the bin's two pairs ([`Tables::pair`]).
    #[inline]
    fn pair_pick(&self, id: usize, rng: &mut Rng) -> (usize, u64) {
        let (from, to) = (
            self.pair_start[id] as usize,
            self.pair_start[id + 1] as usize,
        );
        let at = from + below(rng, (to - from) as u64) as usize;
        (at, below(rng, self.f2[id]))
    }

    /// The pair a [`Tables::pair_pick`] drew.
    #[inline]
    fn pair(&self, (at, u): (usize, u64)) -> [u16; 2] {
        let bin = &self.pair_bins[at];
        if u < bin.threshold {
            bin.own
        } else {
            bin.alias
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
        let states2 = dense_states(&level2, &state2, f2.len());
        let (packed3, f3l, _) = level_three(
            &Level::new(3, max),
            &self.packed,
            &layouts_per_vector,
            &states2,
            &f2,
        );
        let mut strip_layouts = BigUint::default();
        for (i, j) in complements(&packed3) {
            strip_layouts += BigUint::from(f3l[i as usize]) * BigUint::from(f3l[j as usize]);
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
        for (i, p) in self.halves.iter().map(|h| h.sum).enumerate() {
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
}

/// Every ticket layout (three valid rows) whose columns each hold 1 to
/// `max` numbers, grouped by column-count vector: the vectors ascending, the
/// layouts (27-bit masks) vector by vector, and where each vector's start.
fn ticket_layouts(rows: &[u16], max: u8) -> (Vec<[u8; 9]>, Vec<u32>, Vec<u32>) {
    // A row's columns as 2-bit lanes, column 1 the most significant: three
    // rows add up without carries, and the sums order as the vectors do.
    let lanes: Vec<usize> = rows
        .iter()
        .map(|&row| {
            (0..9)
                .filter(|c| row >> c & 1 == 1)
                .map(|c| 1 << (2 * (8 - c)))
                .sum()
        })
        .collect();
    let vector =
        |key: usize| -> [u8; 9] { std::array::from_fn(|c| (key >> (2 * (8 - c)) & 3) as u8) };
    let valid: Vec<bool> = (0..1 << 18)
        .map(|key| vector(key).iter().all(|&x| (1..=max).contains(&x)))
        .collect();
    // Every valid layout, in the order (a, b, c), with its key.
    let each = |f: &mut dyn FnMut(usize, u32)| {
        for (&a, &la) in rows.iter().zip(&lanes) {
            for (&b, &lb) in rows.iter().zip(&lanes) {
                for (&c, &lc) in rows.iter().zip(&lanes) {
                    let key = la + lb + lc;
                    if valid[key] {
                        f(key, u32::from(a) | u32::from(b) << 9 | u32::from(c) << 18);
                    }
                }
            }
        }
    };
    // Grouped by key with a counting sort, so each vector keeps that order:
    // each key's count, then where its next layout goes.
    let mut next = vec![0u32; 1 << 18];
    each(&mut |key, _| next[key] += 1);
    let mut vectors = Vec::new();
    let mut layout_start = vec![0u32];
    for (key, next) in next.iter_mut().enumerate() {
        if *next > 0 {
            let start = *layout_start.last().expect("starts with 0");
            vectors.push(vector(key));
            layout_start.push(start + *next);
            *next = start;
        }
    }
    let mut layouts = vec![0u32; *layout_start.last().expect("starts with 0") as usize];
    each(&mut |key, layout| {
        layouts[next[key] as usize] = layout;
        next[key] += 1;
    });
    (vectors, layouts, layout_start)
}

/// Which dense indices of a level are reachable states, and their state
/// ids: a bit per index and the rank before each word of 64, ~6 bytes per
/// 64 indices, so the sampler's lookups stay in cache (a plain table of ids
/// would take 4 bytes an index).
struct StateIndex {
    words: Vec<RankWord>,
}

#[derive(Clone, Copy, Default)]
struct RankWord {
    bits: u64,
    rank: u32,
}

impl StateIndex {
    /// From a dense table of ids (u32::MAX: unreachable), ids ascending.
    fn new(dense: &[u32]) -> StateIndex {
        let mut words = vec![RankWord::default(); dense.len().div_ceil(64)];
        let mut rank = 0u32;
        for (word, ids) in words.iter_mut().zip(dense.chunks(64)) {
            word.rank = rank;
            for (bit, &id) in ids.iter().enumerate() {
                if id != u32::MAX {
                    debug_assert_eq!(id, rank, "state ids not in dense order");
                    word.bits |= 1 << bit;
                    rank += 1;
                }
            }
        }
        StateIndex { words }
    }

    /// The state id at dense index `d`, if it is reachable.
    #[inline]
    fn get(&self, d: usize) -> Option<usize> {
        let word = self.words[d / 64];
        let bit = 1u64 << (d % 64);
        if word.bits & bit == 0 {
            return None;
        }
        Some(word.rank as usize + (word.bits & (bit - 1)).count_ones() as usize)
    }
}

/// One bin of a pair alias table: below `threshold` (out of F₂) its own
/// pair, else its alias's; both pairs as vector ids.
#[derive(Clone, Copy, Default)]
struct PairBin {
    threshold: u64,
    own: [u16; 2],
    alias: [u16; 2],
}

/// The two-ticket level: each reachable sum's F₂ and an exact alias table
/// over its pairs (weights W(a)·W(b)), all pairs in one flat list.
struct PairTables {
    /// Dense level-2 index → state id (u32::MAX: unreachable).
    dense: Vec<u32>,
    f2: Vec<u64>,
    /// The states, packed.
    states: Vec<u64>,
    start: Vec<u32>,
    bins: Vec<PairBin>,
}

impl PairTables {
    fn build(level2: &Level, packed: &[u64], weight: &[u64]) -> PairTables {
        use rayon::prelude::*;
        let (dense, f2, (start, first, second, pair_weight)) = level_two(level2, packed, weight);
        // Each state's bins straight into its run of the flat list.
        let mut bins = vec![PairBin::default(); pair_weight.len()];
        let runs: Vec<usize> = start.iter().map(|&at| at as usize).collect();
        runs_mut(&mut bins, &runs)
            .into_par_iter()
            .enumerate()
            .for_each(|(id, bins)| {
                let from = runs[id];
                let table = Alias64::new(&pair_weight[from..runs[id + 1]]);
                debug_assert_eq!(table.total, f2[id]);
                let pair = |k: usize| [first[from + k], second[from + k]];
                for (k, (bin, (&threshold, &alias))) in bins
                    .iter_mut()
                    .zip(table.threshold.iter().zip(&table.alias))
                    .enumerate()
                {
                    *bin = PairBin {
                        threshold,
                        own: pair(k),
                        alias: pair(alias as usize),
                    };
                }
            });
        let states = dense_states(level2, &dense, f2.len());
        PairTables {
            dense,
            f2,
            states,
            start,
            bins,
        }
    }
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
    use super::super::alias::rounded;
    use super::*;
    use std::collections::HashMap;

    /// The dense index over eight columns: every state of levels 2 and 3
    /// has its own index, in the packed sums' order, and the index gives
    /// the sum back (its first column from the others).
    #[test]
    fn dense_index_leaves_the_first_column_out() {
        use super::super::levels::unpack_dense;
        for rules in [Rules::Uk, Rules::Es] {
            let t = tables(rules);
            let max = rules.max_per_column();
            let halves: Vec<u64> = t.halves.iter().map(|h| h.sum).collect();
            for (k, states) in [(2, &t.states2), (3, &halves)] {
                let level = Level::new(k, max);
                let mut last = None;
                for &p in states.iter() {
                    let d = level.index(p);
                    assert!(d < level.size);
                    assert!(last < Some(d), "{rules:?} level {k}: indices ascend");
                    last = Some(d);
                    assert_eq!(unpack_dense(&level, d), p);
                }
            }
        }
        // uk level 3: 4 · 5⁷ · 6 sums in the box, a quarter of them indexed.
        assert_eq!(Level::new(3, 3).size, 468_750);
    }

    /// The half sampler against brute-force enumeration: for the most likely
    /// midpoint s, every (v₁, v₂, v₃) with v₁ + v₂ + v₃ = s, weighted
    /// W(v₁)W(v₂)W(v₃); the sampled first vectors must follow the exact
    /// marginal (chi-square, α = 1e-4 on a fixed seed). `es` draws from the
    /// sum's table, `uk` by rejection.
    #[test]
    fn half_sampler_matches_brute_force() {
        for (rules, tabled) in [(Rules::Es, true), (Rules::Uk, false)] {
            let t = tables(rules);
            let s = (0..t.halves.len()).max_by_key(|&i| t.f3[i]).unwrap();
            assert_eq!(t.halves[s].len > 0, tabled, "{rules:?}");
            let sum = t.halves[s].sum;
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
                        exact[a] += u128::from(t.weight[a])
                            * u128::from(t.weight[b])
                            * u128::from(t.weight[c]);
                    }
                }
            }
            let total: u128 = exact.iter().sum();
            assert_eq!(total, t.f3[s], "brute force and the DP disagree on F3");
            let draws = 200_000;
            let mut seen = vec![0u64; t.vectors.len()];
            let mut rng = crate::seed::stream(99, 0);
            for _ in 0..draws {
                let (first, id) = t.half_first(s as u32, &mut rng);
                let [second, third] = t.pair(t.pair_pick(id, &mut rng));
                let out = [first, second, third];
                let sum3 = t.packed[out[0] as usize]
                    + t.packed[out[1] as usize]
                    + t.packed[out[2] as usize];
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
                "{rules:?}: chi-square {chi:.1} ≥ {critical:.1} (df {})",
                df - 1
            );
        }
    }

    /// Every `es` sum's first-vector table, exactly: its vectors are those
    /// completing the sum, each weighted `⌈W(v) F₂(s − v) / 2^shift⌉` with
    /// the shift keeping the total below 2³², and its bins give each vector
    /// that weight times the number of bins, out of the total.
    #[test]
    fn first_vector_tables_are_exact() {
        let t = tables(Rules::Es);
        assert!(t.halves.len() <= FIRST_TABLE_SUMS);
        assert!(tables(Rules::Uk).halves.len() > FIRST_TABLE_SUMS);
        for (s, half) in t.halves.iter().enumerate() {
            let mut want = HashMap::new();
            for v in 0..t.vectors.len() {
                if let Some(id) = t.rest(*half, v) {
                    want.insert(v, u128::from(t.weight[v]) * u128::from(t.f2[id]));
                }
            }
            let total: u128 = want.values().sum();
            assert_eq!(total, t.f3[s]);
            let shift = u32::from(half.shift);
            assert_eq!(shift, (128 - total.leading_zeros()).saturating_sub(31));
            let rounded: HashMap<usize, u64> =
                want.iter().map(|(&v, &w)| (v, rounded(w, shift))).collect();
            assert_eq!(u64::from(half.total), rounded.values().sum::<u64>());
            let bins = &t.first_bins[half.start as usize..][..usize::from(half.len)];
            assert_eq!(bins.len(), want.len());
            let mut given: HashMap<usize, u64> = HashMap::new();
            for bin in bins {
                *given.entry(usize::from(bin.own)).or_default() += u64::from(bin.threshold);
                *given.entry(usize::from(bin.alias)).or_default() +=
                    u64::from(half.total - bin.threshold);
            }
            for (v, r) in &rounded {
                assert_eq!(
                    given.remove(v).unwrap_or(0),
                    r * bins.len() as u64,
                    "sum {s}"
                );
            }
            assert!(
                given.values().all(|&g| g == 0),
                "sum {s}: a vector that cannot complete it"
            );
        }
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
        assert_eq!(t.halves.len(), 172_190);
        assert_eq!(
            c.numbered_strips.to_string(),
            "467711541132248468278363019351514108076722415153589853880320000000000000000000"
        );
    }
}
