//! The levels of the 90-ball DP: sums of k tickets' column-count vectors,
//! packed 5 bits a column, with a dense index over the box of sums that can
//! still complete a strip; and the two passes that fill levels 2 and 3
//! (F₂ with its pairs, F₃ with M). [`super::tables`] builds on them.

use super::rules::{COLUMN_SIZES, TICKETS};
use num_bigint::BigUint;
use std::collections::HashMap;

/// Bits of one column's lane in a packed vector.
pub(super) const LANE: u32 = 5;
/// Bit 4 of every lane.
pub(super) const GUARD: u64 = 0x0842_1084_2108_4210 & ((1 << 45) - 1);

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
pub(super) fn strip_total() -> u64 {
    pack(&COLUMN_SIZES)
}

/// The box of sums of k tickets that can still complete a strip, with a
/// dense index over it.
#[derive(Clone, Debug)]
pub(super) struct Level {
    pub(super) lo: u64,
    /// Per lane, 15 − hi.
    pub(super) up: u64,
    pub(super) lo_lanes: [u8; 9],
    pub(super) stride: [usize; 9],
    pub(super) size: usize,
}

impl Level {
    pub(super) fn new(k: u8, max: u8) -> Level {
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
    pub(super) fn contains(&self, p: u64) -> bool {
        (p + self.up) & GUARD == 0 && ((p | GUARD) - self.lo) & GUARD == GUARD
    }

    /// `Σ lane · stride`: the dense index is linear, so
    /// `index(a + b) = linear(a) + linear(b) − linear(lo)` inside the box.
    pub(super) fn linear(&self, p: u64) -> usize {
        (0..9)
            .map(|c| (p >> (LANE * c as u32) & 0x1F) as usize * self.stride[c])
            .sum()
    }

    /// The dense index of a packed vector inside the box.
    #[inline]
    pub(super) fn index(&self, p: u64) -> usize {
        let mut i = 0;
        for c in 0..9 {
            let x = (p >> (LANE * c as u32) & 0x1F) as usize;
            i += (x - usize::from(self.lo_lanes[c])) * self.stride[c];
        }
        i
    }
}

/// The packed sum of every state id of a level.
pub(super) fn dense_states(level: &Level, dense: &[u32], states: usize) -> Vec<u64> {
    let mut packed = vec![0u64; states];
    for (d, &id) in dense.iter().enumerate() {
        if id != u32::MAX {
            packed[id as usize] = unpack_dense(level, d);
        }
    }
    packed
}

/// The midpoints (first-half state, second-half state) whose sums add up to
/// the strip, and their weights F₃(s)·F₃(n − s).
pub(super) fn midpoints(packed3: &[u64], f3: &[u128]) -> (Vec<(u32, u32)>, Vec<BigUint>) {
    let index3: HashMap<u64, u32> = packed3
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i as u32))
        .collect();
    let total = strip_total();
    let mut midpoints = Vec::new();
    let mut weights = Vec::new();
    for (i, &s) in packed3.iter().enumerate() {
        if let Some(&j) = index3.get(&(total - s)) {
            midpoints.push((i as u32, j));
            weights.push(BigUint::from(f3[i]) * BigUint::from(f3[j as usize]));
        }
    }
    (midpoints, weights)
}

pub(super) fn unpack_dense(level: &Level, mut dense: usize) -> u64 {
    let mut v = [0u8; 9];
    let strides = level.stride;
    for c in (0..9).rev() {
        v[c] = (dense / strides[c]) as u8 + level.lo_lanes[c];
        dense %= strides[c];
    }
    pack(&v)
}

pub(super) type Pairs = (Vec<u32>, Vec<u16>, Vec<u16>, Vec<u64>);

/// Two-ticket sums: dense → state id, F₂ per state, and each state's pairs
/// (first, second, W·W), in ascending (first, second) order.
pub(super) fn level_two(
    level: &Level,
    packed: &[u64],
    weight: &[u64],
) -> (Vec<u32>, Vec<u64>, Pairs) {
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

/// Adds two threads' partial F₃ tables and takes the larger M.
fn merge_halves(
    (mut f, mut m): (Vec<u128>, Vec<u64>),
    (g, n): (Vec<u128>, Vec<u64>),
) -> (Vec<u128>, Vec<u64>) {
    if f.is_empty() {
        return (g, n);
    }
    for d in 0..g.len() {
        f[d] += g[d];
        m[d] = m[d].max(n[d]);
    }
    (f, m)
}

/// Three-ticket sums: the reachable states (packed, ascending dense order),
/// F₃ and M = max F₂(s − v). The one heavy loop (vectors × two-ticket
/// states), split over two threads.
pub(super) fn level_three(
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
                // linear(a) may be below linear(lo): the offset wraps, and
                // adding linear(b) wraps back into the box (modular sums).
                let la = level.linear(a).wrapping_sub(base);
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
                            let d = la.wrapping_add(lb);
                            f3[d] += w * u128::from(f);
                            m3[d] = m3[d].max(f);
                        }
                    }
                }
            }
            (f3, m3)
        })
        .reduce(|| (Vec::new(), Vec::new()), merge_halves);
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
