//! Working memory for drawing boards: rooms left per category and line,
//! the objectives on each line, the pool; one per thread, reused from board
//! to board so a draw allocates nothing but its result.

use super::engine::Engine;

/// An empty cell.
pub const EMPTY: u16 = u16::MAX;

/// Working memory for drawing boards; one per thread, reused.
#[derive(Default)]
pub struct Scratch {
    pub(super) cell: Vec<u16>,
    pub(super) forced: Vec<bool>,
    pub(super) board_room: Vec<i16>,
    pub(super) board_full: u128,
    pub(super) line_room: Vec<i16>,
    pub(super) line_full: Vec<u128>,
    /// Objectives present on each line: `words` u64 per line.
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
    pub(super) fn reset(&mut self, e: &Engine) {
        let n = e.size.cells();
        self.cell.clear();
        self.cell.resize(n, EMPTY);
        self.forced.clear();
        self.forced.resize(n, false);
        self.board_room.clone_from(&e.board_cap);
        self.board_full = 0;
        self.line_room.clone_from(&e.line_cap);
        self.line_full.clear();
        self.line_full.resize(e.lines.len(), 0);
        self.present.clear();
        self.present.resize(e.lines.len() * e.words, 0);
        self.remaining.clear();
        self.remaining.extend(e.objs.iter().map(|o| o.limit));
        self.used.clear();
        self.used.resize(e.objs.len(), 0);
        self.pool_at.resize(e.objs.len(), 0);
        self.in_pool.clear();
        self.in_pool.resize(e.objs.len(), false);
        self.blocked_objs.resize(e.words, 0);
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

    /// Gathers into `blocked_objs` the objectives already on the lines
    /// through `cell`.
    pub(super) fn gather_present(&mut self, e: &Engine, cell: usize) {
        self.blocked_objs.fill(0);
        for &l in &e.cell_lines[cell] {
            let l = l as usize;
            let row = &self.present[l * e.words..(l + 1) * e.words];
            for (b, &w) in self.blocked_objs.iter_mut().zip(row) {
                *b |= w;
            }
        }
    }
}
