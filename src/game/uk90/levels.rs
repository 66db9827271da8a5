//! The levels of the 90-ball DP: sums of k tickets' column-count vectors,
//! packed 5 bits a column, with a dense index over the box of sums that can
//! still complete a strip; and the two passes that fill levels 2 and 3
//! (F₂ with its pairs, F₃ with M). [`super::tables`] builds on them.

use super::alias::U256;
use super::rules::{COLUMN_SIZES, TICKETS};
use crate::buckets::runs_mut;

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

/// Numbers on a ticket: the lanes of every ticket's vector add up to it.
const PER_TICKET: u8 = 15;

/// The box of sums of k tickets that can still complete a strip, with a
/// dense index over it.
///
/// The index leaves the first column out: the lanes of a sum of k tickets
/// add up to 15k, so the other eight fix it, and the index over eight
/// columns is a quarter or less of the box's (uk level 3: 468,750 entries
/// instead of 1,875,000). It keeps the packed sums' order, the first column
/// being the least significant.
#[derive(Clone, Debug)]
pub(super) struct Level {
    pub(super) lo: u64,
    /// Per lane, 15 − hi.
    pub(super) up: u64,
    pub(super) lo_lanes: [u8; 9],
    /// 0 for the first column (left out of the index), then the box's.
    pub(super) stride: [usize; 9],
    pub(super) size: usize,
    /// The lanes' sum of every sum of the level: 15k.
    total: u8,
    /// `linear(lo)`: `index(p) = linear(p) − base` inside the box.
    pub(super) base: usize,
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
        for c in 1..9 {
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
            base: (0..9).map(|c| usize::from(lo[c]) * stride[c]).sum(),
            total: k * PER_TICKET,
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

    /// The dense index of a sum of the level (inside the box, its lanes
    /// adding up to 15k).
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

/// The pairs (i, j) of level-3 states whose sums add up to the strip, i
/// ascending. Packed sums order as their dense indices do, and no lane of
/// `n − s` borrows, so the complements of the ascending states descend:
/// one walk from each end.
pub(super) fn complements(packed3: &[u64]) -> Vec<(u32, u32)> {
    let total = strip_total();
    let mut pairs = Vec::new();
    let mut j = packed3.len();
    for (i, &s) in packed3.iter().enumerate() {
        let want = total - s;
        while j > 0 && packed3[j - 1] > want {
            j -= 1;
        }
        if j > 0 && packed3[j - 1] == want {
            pairs.push((i as u32, j as u32 - 1));
        }
    }
    pairs
}

/// The midpoints (first-half state, second-half state) whose sums add up to
/// the strip, and their weights F₃(s)·F₃(n − s).
pub(super) fn midpoints(packed3: &[u64], f3: &[u128]) -> (Vec<(u32, u32)>, Vec<U256>) {
    let midpoints = complements(packed3);
    let weights = midpoints
        .iter()
        .map(|&(i, j)| U256::product(f3[i as usize], f3[j as usize]))
        .collect();
    (midpoints, weights)
}

/// The packed sum at dense index `dense` of `level`, a sum of the level's
/// tickets (its first column is what the others leave of 15k).
pub(super) fn unpack_dense(level: &Level, dense: usize) -> u64 {
    let upper = unpack_upper(level, dense);
    let first = unpack(upper).iter().fold(level.total, |rest, &x| rest - x);
    upper | u64::from(first)
}

/// Columns 2–9 of the sum at dense index `dense` (the first column's lane
/// 0): all the index holds.
fn unpack_upper(level: &Level, mut dense: usize) -> u64 {
    let mut v = [0u8; 9];
    for c in (1..9).rev() {
        v[c] = (dense / level.stride[c]) as u8 + level.lo_lanes[c];
        dense %= level.stride[c];
    }
    pack(&v)
}

/// Writes zeros over a run of a freshly allocated zeroed vector before it is
/// added into. Such memory is mapped on first touch; touched first by a read
/// (`x += …`), each page is mapped to the shared zero page and then copied
/// on the write, and every copy flushes the other threads' TLBs: a quarter
/// of the tables' build time went there. Written first, each page is
/// simply mapped, by the thread that owns its tile.
fn first_write<T: Copy + Default>(run: &mut [T]) {
    run.fill(T::default());
}

pub(super) type Pairs = (Vec<u32>, Vec<u16>, Vec<u16>, Vec<u64>);

/// Lanes of a tile: the three most significant columns (7–9) of a sum.
const TILE_SHIFT: u32 = LANE * 6;
/// Bit 4 of each of the three lanes of a tile, shifted down.
const TILE_GUARD: u64 = GUARD >> TILE_SHIFT;

/// The sums a + b of a level, visited a tile of the output at a time. Every
/// sum with the same three top columns lies in one contiguous run of the
/// dense index, small enough to stay in cache; for each a, the b that land
/// in a tile are those whose top columns are the tile's minus a's: one run
/// of the b ordered by their top columns. So each tile's writes stay in
/// cache, and tiles can run in parallel: one tile a task, as the tiles'
/// work differs several-fold (middle sums have the most pairs), so the
/// last one must not wait behind a run of others on one thread.
struct Tiles<'a> {
    level: &'a Level,
    /// Dense indices per tile.
    len: usize,
    /// The b's ids, ordered by their top columns, then ascending.
    order: Vec<u32>,
    /// Per value of the top columns, its run in `order`.
    runs: Vec<(u32, u32)>,
    /// `linear` of each b.
    linear: Vec<usize>,
}

impl<'a> Tiles<'a> {
    fn new(level: &'a Level, bs: &[u64]) -> Tiles<'a> {
        let mut order: Vec<u32> = (0..bs.len() as u32).collect();
        order.sort_by_key(|&i| (bs[i as usize] >> TILE_SHIFT, i));
        let mut runs = vec![(0u32, 0u32); 1 << (3 * LANE)];
        for (at, &i) in order.iter().enumerate() {
            let run = &mut runs[(bs[i as usize] >> TILE_SHIFT) as usize];
            if run.0 == run.1 {
                *run = (at as u32, at as u32);
            }
            run.1 += 1;
        }
        Tiles {
            level,
            len: level.stride[6],
            order,
            runs,
            linear: bs.iter().map(|&b| level.linear(b)).collect(),
        }
    }

    /// Calls `f(i, j, d)` for every a = `as_[i]`, b = `bs[j]` whose sum is in
    /// the box and in tile `k`, d its dense index within the tile; in
    /// ascending (i, j) order.
    fn visit(&self, k: usize, as_: &[u64], bs: &[u64], mut f: impl FnMut(usize, usize, usize)) {
        let start = k * self.len;
        let top = unpack_upper(self.level, start) >> TILE_SHIFT;
        for (i, &a) in as_.iter().enumerate() {
            // The top lanes of b are top − a's, when none borrows.
            let rest = (top | TILE_GUARD) - (a >> TILE_SHIFT);
            if rest & TILE_GUARD != TILE_GUARD {
                continue;
            }
            let (from, to) = self.runs[(rest - TILE_GUARD) as usize];
            // index(a + b) = linear(a) + linear(b) − linear(lo) inside the
            // box; linear(a) − linear(lo) may wrap, adding linear(b) wraps
            // back (modular sums).
            let la = self
                .level
                .linear(a)
                .wrapping_sub(self.level.base)
                .wrapping_sub(start);
            for &j in &self.order[from as usize..to as usize] {
                let j = j as usize;
                if self.level.contains(a + bs[j]) {
                    f(i, j, la.wrapping_add(self.linear[j]));
                }
            }
        }
    }
}

/// Two-ticket sums: dense → state id, F₂ per state, and each state's pairs
/// (first, second, W·W), in ascending (first, second) order. Two passes
/// over the tiles: count the pairs of each sum, then write them, each tile
/// into its own run of the pair list.
pub(super) fn level_two(
    level: &Level,
    packed: &[u64],
    weight: &[u64],
) -> (Vec<u32>, Vec<u64>, Pairs) {
    use rayon::prelude::*;
    let tiles = Tiles::new(level, packed);
    let mut count = vec![0u32; level.size];
    count
        .par_chunks_mut(tiles.len)
        .enumerate()
        .with_max_len(1)
        .for_each(|(k, count)| {
            first_write(count);
            tiles.visit(k, packed, packed, |_, _, d| count[d] += 1)
        });
    let mut state2 = vec![u32::MAX; level.size];
    let mut starts = vec![0u32];
    for (dense, &n) in count.iter().enumerate() {
        if n > 0 {
            state2[dense] = (starts.len() - 1) as u32;
            starts.push(starts.last().unwrap() + n);
        }
    }
    let states = starts.len() - 1;
    let pairs = starts[states] as usize;
    let mut first = vec![0u16; pairs];
    let mut second = vec![0u16; pairs];
    let mut weights = vec![0u64; pairs];
    let mut f2 = vec![0u64; states];
    // Each tile's states are one run of ids, and their pairs one run of the
    // list: the first of each, per tile (one more: the end).
    let mut state_at = vec![0usize];
    for count in count.chunks(tiles.len) {
        state_at.push(state_at[state_at.len() - 1] + count.iter().filter(|&&n| n > 0).count());
    }
    let pair_at: Vec<usize> = state_at.iter().map(|&id| starts[id] as usize).collect();
    runs_mut(&mut f2, &state_at)
        .into_par_iter()
        .zip(runs_mut(&mut first, &pair_at))
        .zip(runs_mut(&mut second, &pair_at))
        .zip(runs_mut(&mut weights, &pair_at))
        .zip(state2.par_chunks(tiles.len))
        .enumerate()
        .with_max_len(1)
        .for_each(|(k, ((((f2, first), second), weights), ids))| {
            // Where each of the tile's states writes its next pair.
            let (id0, at0) = (state_at[k], pair_at[k] as u32);
            first_write(f2);
            let mut next: Vec<u32> = starts[id0..state_at[k + 1]]
                .iter()
                .map(|&at| at - at0)
                .collect();
            tiles.visit(k, packed, packed, |i, j, d| {
                let id = ids[d] as usize - id0;
                let at = next[id] as usize;
                next[id] += 1;
                let w = weight[i] * weight[j];
                f2[id] += w;
                first[at] = i as u16;
                second[at] = j as u16;
                weights[at] = w;
            });
        });
    (state2, f2, (starts, first, second, weights))
}

/// Three-ticket sums: the reachable states (packed, ascending dense order),
/// F₃ and M = max F₂(s − v): the one heavy loop (vectors × two-ticket
/// states), a tile at a time. Integer sums and maxima do not depend on the
/// order.
pub(super) fn level_three(
    level: &Level,
    packed: &[u64],
    weight: &[u64],
    states2: &[u64],
    f2: &[u64],
) -> (Vec<u64>, Vec<u128>, Vec<u64>) {
    use rayon::prelude::*;
    let tiles = Tiles::new(level, states2);
    let mut f3 = vec![0u128; level.size];
    let mut m3 = vec![0u64; level.size];
    f3.par_chunks_mut(tiles.len)
        .zip(m3.par_chunks_mut(tiles.len))
        .enumerate()
        .with_max_len(1)
        .for_each(|(k, (f3, m3))| {
            first_write(f3);
            first_write(m3);
            tiles.visit(k, packed, states2, |i, j, d| {
                f3[d] += u128::from(weight[i]) * u128::from(f2[j]);
                m3[d] = m3[d].max(f2[j]);
            });
        });
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
