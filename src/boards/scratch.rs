//! Working memory for drawing boards: rooms left per category and line,
//! the objectives on each line, the pool; one per thread, reused from board
//! to board so a draw allocates nothing but its result.

/// An empty cell.
pub const EMPTY: u16 = u16::MAX;

/// Sixteen categories' rooms (or an objective's 0/1 per category), one byte
/// each: a category mask of up to 128 is 1 to 8 of these. Rooms stay within
/// -100..=127 (caps are clamped to 127, and a board has at most 100 cells), so
/// bytes subtract and compare without branches.
pub(super) type Lanes = [i8; 16];

/// The lanes of every category an objective of `mask` counts in: 1 there,
/// 0 elsewhere; `vectors` of them.
pub(super) fn lanes_of(mask: u128, vectors: usize) -> Vec<Lanes> {
    (0..vectors)
        .map(|v| std::array::from_fn(|j| ((mask >> (16 * v + j)) & 1) as i8))
        .collect()
}

/// Rooms `caps` (category order) as lanes; lanes past the last category get
/// the most room, so they are never full.
pub(super) fn rooms_of(caps: &[i16], vectors: usize) -> Vec<Lanes> {
    (0..vectors)
        .map(|v| {
            std::array::from_fn(|j| {
                caps.get(16 * v + j)
                    .map_or(i8::MAX, |&c| c.min(i16::from(i8::MAX)) as i8)
            })
        })
        .collect()
}

/// Takes (`add` false) or gives back one objective's lanes `by` from
/// `room`, and returns the categories now full (no room left) as a mask.
#[inline(always)]
pub(super) fn take<const V: usize>(room: &mut [Lanes; V], by: &[Lanes; V], add: bool) -> u128 {
    let mut full = 0u128;
    for v in 0..V {
        full |= u128::from(take16(&mut room[v], &by[v], add)) << (16 * v);
    }
    full
}

/// [`take`] on one vector of lanes, with SSE2 (part of x86-64).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn take16(room: &mut Lanes, by: &Lanes, add: bool) -> u16 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is baseline on x86-64; both loads and the store are
    // unaligned 16-byte accesses of 16-byte arrays.
    unsafe {
        let r = _mm_loadu_si128(room.as_ptr().cast());
        let b = _mm_loadu_si128(by.as_ptr().cast());
        let r = if add {
            _mm_add_epi8(r, b)
        } else {
            _mm_sub_epi8(r, b)
        };
        _mm_storeu_si128(room.as_mut_ptr().cast(), r);
        _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(1), r)) as u16
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn take16(room: &mut Lanes, by: &Lanes, add: bool) -> u16 {
    take16_by_lane(room, by, add)
}

/// [`take`] on one vector, lane by lane: the portable version, and the
/// SSE2 one's oracle.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn take16_by_lane(room: &mut Lanes, by: &Lanes, add: bool) -> u16 {
    let mut full = 0u16;
    for (j, (r, &b)) in room.iter_mut().zip(by).enumerate() {
        *r = if add {
            r.wrapping_add(b)
        } else {
            r.wrapping_sub(b)
        };
        full |= u16::from(*r < 1) << j;
    }
    full
}

/// Working memory for drawing boards; one per thread, reused.
#[derive(Default)]
pub struct Scratch {
    pub(super) cell: Vec<u16>,
    pub(super) forced: Vec<bool>,
    /// Room left per board category, as lanes.
    pub(super) board_room: Vec<Lanes>,
    pub(super) board_full: u128,
    /// Room left per line category on each line (the spare line
    /// [`Engine::spare_line`] last), `vectors` lanes per line.
    pub(super) line_room: Vec<Lanes>,
    pub(super) line_full: Vec<u128>,
    /// Objectives present on each line: `words` u64 per line (the spare line
    /// holds none).
    pub(super) present: Vec<u64>,
    pub(super) remaining: Vec<i16>,
    pub(super) used: Vec<u16>,
    pub(super) pool: Vec<u16>,
    /// Position in `pool` of each objective in it.
    pub(super) pool_at: Vec<u16>,
    pub(super) in_pool: Vec<bool>,
    pub(super) dropped: Vec<u16>,
    pub(super) empty: Vec<u16>,
    pub(super) cand: Vec<u16>,
    pub(super) victims: Vec<u16>,
    pub(super) blocked_objs: Vec<u64>,
}

impl Scratch {
    /// Becomes a copy of `fresh` without allocating (once its vectors
    /// have grown to the engine's sizes).
    pub(super) fn restore(&mut self, fresh: &Scratch) {
        let Scratch {
            cell,
            forced,
            board_room,
            board_full,
            line_room,
            line_full,
            present,
            remaining,
            used,
            pool,
            pool_at,
            in_pool,
            dropped,
            empty,
            cand,
            victims,
            blocked_objs,
        } = self;
        cell.clone_from(&fresh.cell);
        forced.clone_from(&fresh.forced);
        board_room.clone_from(&fresh.board_room);
        *board_full = fresh.board_full;
        line_room.clone_from(&fresh.line_room);
        line_full.clone_from(&fresh.line_full);
        present.clone_from(&fresh.present);
        remaining.clone_from(&fresh.remaining);
        used.clone_from(&fresh.used);
        pool.clone_from(&fresh.pool);
        pool_at.clone_from(&fresh.pool_at);
        in_pool.clone_from(&fresh.in_pool);
        dropped.clone_from(&fresh.dropped);
        empty.clone_from(&fresh.empty);
        cand.clone_from(&fresh.cand);
        victims.clone_from(&fresh.victims);
        blocked_objs.clone_from(&fresh.blocked_objs);
    }

    pub(super) fn join(&mut self, k: u16) {
        self.in_pool[k as usize] = true;
        self.rejoin(k);
    }

    pub(super) fn rejoin(&mut self, k: u16) {
        self.pool_at[k as usize] = self.pool.len() as u16;
        self.pool.push(k);
    }

    pub(super) fn leave(&mut self, k: u16) {
        if !self.in_pool[k as usize] {
            return;
        }
        let at = self.pool_at[k as usize] as usize;
        debug_assert_eq!(
            self.pool[at], k,
            "an objective of the pool with room left is in it"
        );
        let last = *self.pool.last().expect("k is in the pool");
        self.pool.swap_remove(at);
        if last != k {
            self.pool_at[last as usize] = at as u16;
        }
    }

    /// Gathers into `blocked_objs` the objectives already on `lines` (the
    /// lines through a cell), `words` words a line.
    pub(super) fn gather_present(&mut self, lines: &[u8], words: usize) {
        self.blocked_objs.fill(0);
        for &l in lines {
            let l = l as usize;
            let row = &self.present[l * words..(l + 1) * words];
            for (b, &w) in self.blocked_objs.iter_mut().zip(row) {
                *b |= w;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_take_and_give_back_as_the_lane_by_lane_version_does() {
        let mut rng = crate::seed::stream(3, 0);
        for _ in 0..1000 {
            use rand_core::RngCore;
            let mut room: Lanes =
                std::array::from_fn(|_| ((rng.next_u32() % 201) as i16 - 73) as i8);
            let by: Lanes = std::array::from_fn(|_| (rng.next_u32() % 2) as i8);
            let add = rng.next_u32() % 2 == 0;
            let mut expected = room;
            let full = take16_by_lane(&mut expected, &by, add);
            let mut lanes = [room];
            assert_eq!(take(&mut lanes, &[by], add), u128::from(full));
            room = lanes[0];
            assert_eq!(room, expected);
        }
        // Full means no room left: 1 is not full, 0 and below are.
        let mut room = [rooms_of(&[1, 2, 1], 1)[0]];
        let full = take(&mut room, &[lanes_of(0b101, 1)[0]], false);
        assert_eq!(full, 0b101);
        assert_eq!(take(&mut room, &[lanes_of(0b001, 1)[0]], true), 0b100);
        assert_eq!(room[0][..4], [1, 2, 0, i8::MAX]);
    }
}
