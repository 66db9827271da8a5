//! The board engine: an objective set compiled for one board size, and the
//! draw of one board.
//!
//! (Over 500 lines on purpose: the draw's steps below share one piece of
//! bookkeeping, [`Scratch`], and read best together; a third of the file is
//! its tests. Board values, the independent check and the scratch memory
//! live in `board.rs`, `check.rs` and `scratch.rs`.)
//!
//! The draw follows Lockout's documented generation, step by step:
//!
//! 1. **Pool.** Every enabled objective once, whatever its individual limit.
//!    With [`Weighting::Lockout`] (the default) an objective of weighting w
//!    joins with probability w/100, rolled once per board; if the pool then
//!    cannot fill the board, dropped objectives are pulled back in random
//!    order until it can. With [`Weighting::Proportional`] every objective
//!    joins and each pick is in proportion to the weighting instead.
//! 2. **Forced positions** are placed first.
//! 3. **Fill.** A random empty cell; the pool filtered by every constraint
//!    (the objective's individual limit, no objective twice in a line, board
//!    category limits, line category limits on every row, column and, on a
//!    square board, diagonal through the cell); a pick; the objective's value
//!    is a random range value it has not used on this board. Repeat.
//! 4. **Dead end** (the filtered pool is empty): bounded backtracking first:
//!    a random placed cell that shares a line with the stuck cell (any placed
//!    cell when none does) is emptied again and filling goes on, at most
//!    [`BACKTRACK_PER_CELL`] × cells times per board (not at all once every
//!    objective has reached its individual limit, which no undo can cure). Then objectives the
//!    weighting roll dropped, under every constraint. Only then, at that cell,
//!    constraints give way in this fixed order, the first level that offers a
//!    candidate wins, and among its candidates those that break the fewest
//!    constraints:
//!    1. line category limits,
//!    2. board category limits,
//!    3. no objective twice in a line,
//!    4. individual limits (a further distinct value of the objective).
//!
//!    Every constraint that gave way is recorded on the board ([`Relaxed`]);
//!    forced cells that break a limit are recorded the same way.
//!
//! Limits: a board category of p % allows ceil(p/100 × cells) objectives; a
//! line category allows ceil(p/100 × line length) per line; 0 % means 1.
//!
//! A board can always be completed: [`Engine::new`] refuses a set with fewer
//! distinct (objective, value) goals than the board has cells.

use super::board::{
    bits, cell_name, lines_of, pack, unpack, Board, Gave, Line, Relaxed, Size, Weighting,
};
use super::scratch::{lanes_of, rooms_of, take, Lanes, Scratch, EMPTY};
use super::set::{ObjectiveSet, FORCED_FIELD};
use crate::seed::{below_u32 as below, Rng};

/// Set bits of each byte.
const BYTE_BITS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// `NTH_BIT[b][n]`: the position of byte b's n-th set bit (from 0, lowest
/// first); 0 past its last.
const NTH_BIT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The set bits of `mask`, by table (x86-64's baseline has no popcount).
#[inline]
fn set_bits(mask: u16) -> u32 {
    let [lo, hi] = mask.to_le_bytes();
    u32::from(BYTE_BITS[lo as usize]) + u32::from(BYTE_BITS[hi as usize])
}

/// The position of `mask`'s `nth` set bit (from 0, lowest first), by table
/// and without a branch on `nth`.
#[inline]
fn nth_set_bit(mask: u16, nth: u32) -> usize {
    let [lo, hi] = mask.to_le_bytes();
    let in_lo = u32::from(BYTE_BITS[lo as usize]);
    let (byte, nth, base) = if nth < in_lo {
        (lo, nth, 0)
    } else {
        (hi, nth - in_lo, 8)
    };
    base + usize::from(NTH_BIT[byte as usize][nth as usize & 7])
}

/// Undo steps allowed per cell of the board before constraints give way.
pub const BACKTRACK_PER_CELL: usize = 4;

/// Uniform proposals tried before the pool is filtered in full.
const QUICK_TRIES: usize = 8;

/// An objective as the engine sees it.
#[derive(Clone, Copy)]
pub(super) struct Obj {
    pub(super) board: u128,
    pub(super) line: u128,
    pub(super) limit: i16,
    pub(super) values: u8,
    pub(super) weight: u32,
}

/// An objective set compiled for one board size.
pub struct Engine {
    pub(super) size: Size,
    pub(super) lines: Vec<Line>,
    /// Lines through each cell (2 to 4), padded to 4 with
    /// [`Engine::spare_line`] so that placing a goal runs the same steps on
    /// every cell ([`Engine::lines_through`] leaves the padding out).
    pub(super) cell_lines: Vec<[u8; 4]>,
    pub(super) objs: Vec<Obj>,
    pub(super) enabled: Vec<u16>,
    pub(super) board_cap: Vec<i16>,
    /// Cap of line category c on line l at `l * nl + c`.
    pub(super) line_cap: Vec<i16>,
    pub(super) nl: usize,
    /// Lanes per category mask, board or line: 1, 2, 4 or 8 (16 categories
    /// each), the same for both so that [`Engine::count`] has one shape.
    pub(super) vectors: usize,
    /// Each objective's board categories as `vectors` lanes.
    obj_board: Vec<Lanes>,
    /// Each objective's line categories as `vectors` lanes.
    obj_line: Vec<Lanes>,
    pub(super) forced: Vec<(u16, u16)>,
    pub(super) weighting: Weighting,
    pub(super) words: usize,
    pub(super) backtrack_per_cell: usize,
    /// A board's working memory before its first cell ([`Engine::fresh_scratch`]).
    fresh: Scratch,
    /// Whether every enabled objective joins every pool (proportional
    /// weighting, or all weightings 100 or more): filling it draws nothing,
    /// so `fresh` holds it.
    pub(super) pooled: bool,
}

/// Why a set cannot make boards of a size.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Fewer distinct goals than the board has cells.
    #[error(
        "the set has {goals} distinct goals (objective × range value) among its enabled \
         objectives, but a {size} board has {cells} cells: add objectives or range values"
    )]
    TooFewGoals {
        goals: usize,
        size: Size,
        cells: usize,
    },
    /// A forced position the set cannot fill (the text says which).
    #[error("{0}")]
    Forced(String),
}

/// The category limits in cells: each board category's on a board of
/// `size`, then each line category's on each of `lines`, line by line.
fn caps(set: &ObjectiveSet, size: Size, lines: &[Line]) -> (Vec<i16>, Vec<i16>) {
    let board = set
        .board_categories
        .iter()
        .map(|c| cap(c.percent, size.cells()))
        .collect();
    let mut line = Vec::with_capacity(lines.len() * set.line_categories.len());
    for l in lines {
        let len = match l {
            Line::Row(_) => size.cols,
            _ => size.rows,
        };
        line.extend(set.line_categories.iter().map(|c| cap(c.percent, len)));
    }
    (board, line)
}

impl Engine {
    /// Compiles `set` for boards of `size`.
    pub fn new(
        set: &ObjectiveSet,
        size: Size,
        weighting: Weighting,
    ) -> Result<Engine, EngineError> {
        let cells = size.cells();
        let (lines, cell_lines) = lines_of(size);
        let nl = set.line_categories.len();
        let (board_cap, line_cap) = caps(set, size, &lines);
        let mask = |cats: &[u16]| cats.iter().fold(0u128, |m, &c| m | 1u128 << c);
        let objs: Vec<Obj> = set
            .objectives
            .iter()
            .map(|o| Obj {
                board: mask(&o.board_categories),
                line: mask(&o.line_categories),
                limit: o.individual_limit as i16,
                values: o.distinct_values() as u8,
                weight: o.weighting,
            })
            .collect();
        let enabled: Vec<u16> = (0..objs.len())
            .filter(|&k| !set.objectives[k].disabled)
            .map(|k| k as u16)
            .collect();
        let goals: usize = enabled
            .iter()
            .map(|&k| objs[k as usize].values as usize)
            .sum();
        if goals < cells {
            return Err(EngineError::TooFewGoals { goals, size, cells });
        }
        let forced = forced_cells(set, size, &enabled)?;
        let vectors = set
            .board_categories
            .len()
            .max(nl)
            .div_ceil(16)
            .next_power_of_two();
        let obj_board = objs
            .iter()
            .flat_map(|o| lanes_of(o.board, vectors))
            .collect();
        let obj_line = objs
            .iter()
            .flat_map(|o| lanes_of(o.line, vectors))
            .collect();
        let spare = lines.len() as u8;
        let cell_lines = cell_lines
            .iter()
            .map(|l| std::array::from_fn(|i| l.get(i).copied().unwrap_or(spare)))
            .collect();
        let pooled = weighting == Weighting::Proportional
            || enabled.iter().all(|&k| objs[k as usize].weight >= 100);
        let mut engine = Engine {
            size,
            cell_lines,
            vectors,
            obj_board,
            obj_line,
            objs,
            enabled,
            board_cap,
            line_cap,
            nl,
            forced,
            weighting,
            words: set.objectives.len().div_ceil(64),
            lines,
            backtrack_per_cell: BACKTRACK_PER_CELL,
            fresh: Scratch::default(),
            pooled,
        };
        engine.fresh = engine.fresh_scratch();
        Ok(engine)
    }

    /// The same engine with another backtracking budget (undo steps per
    /// cell; 0 turns backtracking off). Boards then differ from the
    /// versioned algorithm's: for experiments and tests.
    pub fn with_backtracking(mut self, per_cell: usize) -> Engine {
        self.backtrack_per_cell = per_cell;
        self
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The board's lines; [`Gave`] refers to them by index.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Most objectives of board category `c` on a board.
    pub fn board_cap(&self, c: usize) -> usize {
        self.board_cap[c] as usize
    }

    /// Most objectives of line category `c` on line `l`.
    pub fn line_cap(&self, l: usize, c: usize) -> usize {
        self.line_cap[l * self.nl + c] as usize
    }

    /// Draws one board; `attempt` is stored on it.
    pub fn draw(&self, rng: &mut Rng, attempt: u32, s: &mut Scratch) -> Board {
        s.restore(&self.fresh);
        let mut relaxed = Vec::new();
        if !self.pooled {
            self.fill_pool(rng, s);
        }
        // `fresh` marks the forced cells and leaves them out of `empty`.
        for &(cell, k) in &self.forced {
            let (k, cell) = (k as usize, cell as usize);
            let vi = self.value(rng, s, k);
            self.record_violations(s, cell, k, &mut relaxed);
            self.place(s, cell, k, vi);
        }
        let mut budget = self.backtrack_per_cell * self.size.cells();
        while !s.empty.is_empty() {
            let at = below(rng, s.empty.len() as u32) as usize;
            let cell = s.empty[at] as usize;
            let full_lines = self.full_lines(s, cell);
            if let Some(k) = self.quick_pick(rng, s, cell, full_lines) {
                let vi = self.value(rng, s, k);
                self.place(s, cell, k, vi);
                s.empty.swap_remove(at);
                continue;
            }
            s.gather_present(&self.cell_lines[cell], self.words);
            self.fitting(s, false, full_lines);
            // Backtracking cannot help once every objective has used up its
            // individual limit: emptying a cell only frees one for elsewhere.
            if s.cand.is_empty()
                && budget > 0
                && !(s.pool.is_empty() && s.dropped.iter().all(|&k| s.remaining[k as usize] <= 0))
            {
                if let Some(victim) = self.victim(rng, s, cell) {
                    budget -= 1;
                    self.unplace(s, victim);
                    s.empty.push(victim as u16);
                    continue;
                }
                budget = 0;
            }
            if s.cand.is_empty() {
                self.fitting(s, true, full_lines);
            }
            let relaxing = s.cand.is_empty();
            if relaxing {
                self.relaxed_candidates(s, cell);
            }
            let k = self.pick(rng, s);
            let vi = self.value(rng, s, k);
            if relaxing {
                self.record_violations(s, cell, k, &mut relaxed);
            }
            self.place(s, cell, k, vi);
            s.empty.swap_remove(at);
        }
        Board {
            attempt,
            cells: s.cell.clone(),
            relaxed,
        }
    }

    fn fill_pool(&self, rng: &mut Rng, s: &mut Scratch) {
        s.pool.clear();
        s.dropped.clear();
        let mut capacity = 0usize;
        for &k in &self.enabled {
            let o = self.objs[k as usize];
            let joins = self.weighting == Weighting::Proportional
                || o.weight >= 100
                || below(rng, 100) < o.weight;
            if joins {
                s.join(k);
                capacity += o.limit as usize;
            } else {
                s.dropped.push(k);
            }
        }
        let needed = self.size.cells() - self.forced.len();
        while capacity < needed && !s.dropped.is_empty() {
            let at = below(rng, s.dropped.len() as u32) as usize;
            let k = s.dropped.swap_remove(at);
            s.join(k);
            capacity += self.objs[k as usize].limit as usize;
        }
        // Forced objectives are on the board whatever the roll said.
        for &(_, k) in &self.forced {
            if let Some(at) = s.dropped.iter().position(|&d| d == k) {
                s.dropped.swap_remove(at);
                s.join(k);
            }
        }
    }

    /// The line after the board's last: where cells on fewer than four
    /// lines place their goals for the missing ones. Its rooms never fill
    /// and [`Engine::place`] keeps its `present` empty.
    pub(super) fn spare_line(&self) -> usize {
        self.lines.len()
    }

    /// The board's lines through `cell` (without the spare).
    fn lines_through(&self, cell: usize) -> impl Iterator<Item = u8> + '_ {
        let spare = self.spare_line() as u8;
        self.cell_lines[cell]
            .iter()
            .copied()
            .filter(move |&l| l != spare)
    }

    /// The line categories full on some line through `cell`.
    #[inline]
    fn full_lines(&self, s: &Scratch, cell: usize) -> u128 {
        self.cell_lines[cell]
            .iter()
            .fold(0, |m, &l| m | s.line_full[l as usize])
    }

    /// Whether objective `k` is on some line through `cell`.
    #[inline]
    fn on_lines(&self, s: &Scratch, cell: usize, k: usize) -> bool {
        let word = k / 64;
        let on = self.cell_lines[cell]
            .iter()
            .fold(0, |m, &l| m | s.present[l as usize * self.words + word]);
        on & (1 << (k % 64)) != 0
    }

    /// Whether objective `k` is within its board and line category limits at
    /// a cell whose lines have the line categories `full_lines` full. (Room
    /// left and no repeat in a line the callers test their own way.)
    #[inline]
    fn fits_categories(&self, k: usize, board_full: u128, full_lines: u128) -> bool {
        let o = &self.objs[k];
        o.board & board_full == 0 && o.line & full_lines == 0
    }

    /// A uniform pick among the pool's objectives that fit `cell`, by
    /// rejection: up to [`QUICK_TRIES`] uniform proposals from the pool, the
    /// first that fits wins. Each accepted proposal is uniform over the
    /// fitting objectives, and so is the full filter ([`Engine::fitting`])
    /// that follows when all tries fail, so the pick is exactly uniform
    /// either way. (Proportional weighting always filters.)
    fn quick_pick(
        &self,
        rng: &mut Rng,
        s: &Scratch,
        cell: usize,
        full_lines: u128,
    ) -> Option<usize> {
        if self.weighting == Weighting::Proportional || s.pool.is_empty() {
            return None;
        }
        (0..QUICK_TRIES)
            .map(|_| s.pool[below(rng, s.pool.len() as u32) as usize] as usize)
            .find(|&k| {
                self.fits_categories(k, s.board_full, full_lines) && !self.on_lines(s, cell, k)
            })
    }

    /// Into `s.cand`: the objectives of the pool (or, with `dropped`, those
    /// the weighting roll left out) that fit the cell whose objectives
    /// [`Scratch::gather_present`] gathered.
    fn fitting(&self, s: &mut Scratch, dropped: bool, full_lines: u128) {
        let Scratch {
            pool,
            dropped: left_out,
            cand,
            blocked_objs,
            board_full,
            remaining,
            ..
        } = s;
        let from = if dropped { left_out } else { pool };
        cand.clear();
        cand.extend(from.iter().copied().filter(|&k| {
            let k = k as usize;
            remaining[k] > 0
                && self.fits_categories(k, *board_full, full_lines)
                && blocked_objs[k / 64] & (1 << (k % 64)) == 0
        }));
    }

    /// Into `s.cand`: the first relaxation level (see [`Gave::level`]) with
    /// candidates, keeping those that break the fewest constraints. One pass:
    /// an objective's level is that of the last-giving constraint it breaks.
    fn relaxed_candidates(&self, s: &mut Scratch, cell: usize) {
        s.cand.clear();
        let mut best = (usize::MAX, usize::MAX);
        for &k in &self.enabled {
            let ku = k as usize;
            if s.used[ku].count_ones() as u8 >= self.objs[ku].values {
                continue;
            }
            let (mut level, mut count) = (1, 0);
            self.broken_by(s, cell, ku, |gave| {
                level = level.max(gave.level());
                count += 1;
            });
            if (level, count) < best {
                best = (level, count);
                s.cand.clear();
            }
            if (level, count) == best {
                s.cand.push(k);
            }
        }
        assert!(
            !s.cand.is_empty(),
            "Engine::new checked that the set has a goal for every cell"
        );
    }

    /// Calls `gave` with every constraint that placing `k` at `cell` would
    /// break.
    fn broken_by(&self, s: &Scratch, cell: usize, k: usize, mut gave: impl FnMut(Gave)) {
        let o = &self.objs[k];
        for l in self.lines_through(cell) {
            for c in bits(o.line & s.line_full[l as usize]) {
                gave(Gave::LineCategory {
                    category: c as u16,
                    line: l,
                });
            }
        }
        for c in bits(o.board & s.board_full) {
            gave(Gave::BoardCategory { category: c as u16 });
        }
        for l in self.lines_through(cell) {
            if s.present[l as usize * self.words + k / 64] & (1 << (k % 64)) != 0 {
                gave(Gave::RepeatInLine { line: l });
            }
        }
        if s.remaining[k] <= 0 {
            gave(Gave::IndividualLimit);
        }
    }

    /// Records every constraint that placing `k` at `cell` breaks.
    fn record_violations(&self, s: &Scratch, cell: usize, k: usize, out: &mut Vec<Relaxed>) {
        self.broken_by(s, cell, k, |gave| {
            out.push(Relaxed {
                cell: cell as u16,
                gave,
            })
        });
    }

    /// A placed, unforced cell to empty again: one sharing a line with
    /// `cell` when there is one.
    fn victim(&self, rng: &mut Rng, s: &mut Scratch, cell: usize) -> Option<usize> {
        s.victims.clear();
        for l in self.lines_through(cell) {
            for v in self.line_cells(l as usize) {
                if v != cell
                    && s.cell[v] != EMPTY
                    && !s.forced[v]
                    && !s.victims.contains(&(v as u16))
                {
                    s.victims.push(v as u16);
                }
            }
        }
        if s.victims.is_empty() {
            s.victims.extend(
                (0..self.size.cells())
                    .filter(|&v| s.cell[v] != EMPTY && !s.forced[v])
                    .map(|v| v as u16),
            );
        }
        if s.victims.is_empty() {
            return None;
        }
        Some(s.victims[below(rng, s.victims.len() as u32) as usize] as usize)
    }

    pub(super) fn line_cells(&self, l: usize) -> impl Iterator<Item = usize> + '_ {
        let Size { rows, cols } = self.size;
        let line = self.lines[l];
        let len = if matches!(line, Line::Row(_)) {
            cols
        } else {
            rows
        };
        (0..len).map(move |i| match line {
            Line::Row(r) => r as usize * cols + i,
            Line::Col(c) => i * cols + c as usize,
            Line::Diagonal => i * cols + i,
            Line::AntiDiagonal => i * cols + (cols - 1 - i),
        })
    }

    fn pick(&self, rng: &mut Rng, s: &Scratch) -> usize {
        if self.weighting == Weighting::Proportional {
            let total: u32 = s.cand.iter().map(|&k| self.objs[k as usize].weight).sum();
            let mut r = below(rng, total);
            for &k in &s.cand {
                let w = self.objs[k as usize].weight;
                if r < w {
                    return k as usize;
                }
                r -= w;
            }
            unreachable!("r < total");
        }
        s.cand[below(rng, s.cand.len() as u32) as usize] as usize
    }

    /// A random value index `k` has not used on this board.
    fn value(&self, rng: &mut Rng, s: &Scratch, k: usize) -> usize {
        let all = (1u16 << self.objs[k].values) - 1;
        let free = all & !s.used[k];
        nth_set_bit(free, below(rng, set_bits(free)))
    }

    fn place(&self, s: &mut Scratch, cell: usize, k: usize, vi: usize) {
        s.cell[cell] = pack(k, vi);
        self.count(s, cell, k, false);
        s.remaining[k] -= 1;
        s.used[k] |= 1 << vi;
        if s.remaining[k] == 0 {
            s.leave(k as u16);
        }
    }

    /// Undoes [`Engine::place`] (only ever before any constraint gave way,
    /// so no line holds an objective twice).
    fn unplace(&self, s: &mut Scratch, cell: usize) {
        let (k, vi) = unpack(s.cell[cell]);
        s.cell[cell] = EMPTY;
        self.count(s, cell, k, true);
        if s.remaining[k] == 0 && s.in_pool[k] {
            s.rejoin(k as u16);
        }
        s.remaining[k] += 1;
        s.used[k] &= !(1 << vi);
    }

    /// Counts objective `k` at `cell` in (or, with `undo`, out of) the rooms
    /// of its board categories and of its line categories on the cell's
    /// lines, and the objectives present on those lines.
    #[inline(always)]
    fn count(&self, s: &mut Scratch, cell: usize, k: usize, undo: bool) {
        match self.vectors {
            1 => self.count_in::<1>(s, cell, k, undo),
            2 => self.count_in::<2>(s, cell, k, undo),
            4 => self.count_in::<4>(s, cell, k, undo),
            _ => self.count_in::<8>(s, cell, k, undo),
        }
    }

    /// [`Engine::count`] with `V` lanes per mask: the same steps whatever
    /// the objective and cell, no branch to mispredict.
    #[inline(always)]
    fn count_in<const V: usize>(&self, s: &mut Scratch, cell: usize, k: usize, undo: bool) {
        let lanes = |all: &[Lanes], k: usize| -> [Lanes; V] {
            all[k * V..][..V].try_into().expect("V lanes")
        };
        let by = lanes(&self.obj_board, k);
        let room: &mut [Lanes; V] = (&mut s.board_room[..V]).try_into().expect("V lanes");
        s.board_full = take(room, &by, undo);
        let by = lanes(&self.obj_line, k);
        let (word, bit) = (k / 64, 1u64 << (k % 64));
        for &l in &self.cell_lines[cell] {
            let l = l as usize;
            let room: &mut [Lanes; V] = (&mut s.line_room[l * V..][..V])
                .try_into()
                .expect("V lanes");
            s.line_full[l] = take(room, &by, undo);
            let present = &mut s.present[l * self.words + word];
            *present = if undo {
                *present & !bit
            } else {
                *present | bit
            };
        }
        s.present[self.spare_line() * self.words + word] = 0;
    }
}

/// The (cell, objective) pairs the set forces on a board of `size`,
/// by cell; two objectives forced into one cell is an error.
fn forced_cells(
    set: &ObjectiveSet,
    size: Size,
    enabled: &[u16],
) -> Result<Vec<(u16, u16)>, EngineError> {
    let mut forced: Vec<(u16, u16)> = Vec::new();
    for &k in enabled {
        for pos in &set.objectives[k as usize].forced {
            let Some(cell) = pos.cell(size.rows, size.cols) else {
                continue;
            };
            if let Some(&(_, other)) = forced.iter().find(|(c, _)| *c as usize == cell) {
                return Err(EngineError::Forced(format!(
                    "objectives[{other}] {:?} and objectives[{k}] {:?} are both forced into {} \
                         on a {size} board; change one {FORCED_FIELD}",
                    set.objectives[other as usize].goal,
                    set.objectives[k as usize].goal,
                    cell_name(size, cell)
                )));
            }
            forced.push((cell as u16, k));
        }
    }
    forced.sort_unstable();
    Ok(forced)
}

/// Most objectives of a category of `percent` % among `of` cells: rounded
/// up, and 0 % means 1.
fn cap(percent: u32, of: usize) -> i16 {
    if percent == 0 {
        1
    } else {
        (percent as usize * of).div_ceil(100) as i16
    }
}

impl Engine {
    /// The working memory of a board before its first cell: rooms at their
    /// caps, the forced cells marked and left out of the cells to fill, and,
    /// when every enabled objective joins every pool ([`Engine::pooled`]),
    /// the pool in `enabled` order. [`Engine::draw`] starts each board from
    /// a copy of it (`Scratch::restore`).
    fn fresh_scratch(&self) -> Scratch {
        let e = self;
        let n = e.size.cells();
        let objectives = e.objs.len();
        let mut forced = vec![false; n];
        for &(cell, _) in &e.forced {
            forced[cell as usize] = true;
        }
        let mut line_room: Vec<Lanes> = (0..e.lines.len())
            .flat_map(|l| rooms_of(&e.line_cap[l * e.nl..(l + 1) * e.nl], e.vectors))
            .collect();
        line_room.extend(rooms_of(&[], e.vectors));
        let mut fresh = Scratch {
            cell: vec![EMPTY; n],
            empty: (0..n as u16).filter(|&c| !forced[c as usize]).collect(),
            forced,
            board_room: rooms_of(&e.board_cap, e.vectors),
            board_full: 0,
            line_room,
            line_full: vec![0; e.lines.len() + 1],
            present: vec![0; (e.lines.len() + 1) * e.words],
            remaining: e.objs.iter().map(|o| o.limit).collect(),
            used: vec![0; objectives],
            pool: Vec::new(),
            pool_at: vec![0; objectives],
            in_pool: vec![false; objectives],
            dropped: Vec::new(),
            cand: Vec::new(),
            victims: Vec::new(),
            blocked_objs: vec![0; e.words],
        };
        if e.pooled {
            for &k in &e.enabled {
                fresh.join(k);
            }
        }
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::stream;

    fn set(json: &str) -> ObjectiveSet {
        ObjectiveSet::from_json(json, "t.json").unwrap()
    }

    #[test]
    fn set_bits_by_table_as_counted_one_by_one() {
        for mask in 1u16..=u16::MAX {
            assert_eq!(set_bits(mask), mask.count_ones());
            let positions: Vec<usize> = (0..16).filter(|&b| mask >> b & 1 == 1).collect();
            for (nth, &bit) in positions.iter().enumerate() {
                assert_eq!(
                    nth_set_bit(mask, nth as u32),
                    bit,
                    "mask {mask:#b}, nth {nth}"
                );
            }
        }
    }

    #[test]
    fn limits_round_up_and_zero_means_one() {
        let s = set(
            r#"{"limits": {"board": {"a": 10, "z": 0, "all": 100}, "line": {"a": 40, "z": 0}},
                "objectives": [{"goal": "{{X}} g", "range": [1,2,3,4,5,6,7,8,9,10,11,12]},
                               {"goal": "{{X}} h", "range": [1,2,3,4,5,6,7,8,9,10,11,12]},
                               {"goal": "{{X}} i", "range": [1,2,3,4,5,6,7,8,9,10,11,12]}]}"#,
        );
        let e = Engine::new(&s, Size { rows: 7, cols: 5 }, Weighting::Lockout).unwrap();
        // Categories in name order (a, all, z). 10 % of 35 cells = 3.5 → 4;
        // 100 % → 35; 0 % → 1.
        assert_eq!((e.board_cap(0), e.board_cap(1), e.board_cap(2)), (4, 35, 1));
        // Rows have 5 cells (40 % → 2), columns 7 (40 % → 2.8 → 3).
        assert_eq!((e.line_cap(0, 0), e.line_cap(7, 0)), (2, 3));
        assert_eq!(e.line_cap(7, 1), 1);
        assert_eq!(e.lines().len(), 12, "no diagonals on a rectangle");
        let sq = Engine::new(&s, Size { rows: 5, cols: 5 }, Weighting::Lockout).unwrap();
        assert_eq!(sq.lines().len(), 12, "5 rows, 5 columns, 2 diagonals");
    }

    #[test]
    fn backtracking_avoids_most_relaxation_that_greedy_filling_needs() {
        // Four objectives, three values each, on a 3x4 board (no diagonals):
        // rows must hold all four, columns three distinct ones (a Latin
        // rectangle), which a random greedy fill often blocks.
        let s = set(r#"{"objectives": [
                {"goal": "{{X}} a", "range": [1,2,3], "individual_limit": 3},
                {"goal": "{{X}} b", "range": [1,2,3], "individual_limit": 3},
                {"goal": "{{X}} c", "range": [1,2,3], "individual_limit": 3},
                {"goal": "{{X}} d", "range": [1,2,3], "individual_limit": 3}]}"#);
        let size = Size { rows: 3, cols: 4 };
        let relaxed = |per_cell: usize| {
            let e = Engine::new(&s, size, Weighting::Lockout)
                .unwrap()
                .with_backtracking(per_cell);
            let mut scratch = Scratch::default();
            (0..1000)
                .filter(|&n| {
                    let board = e.draw(&mut stream(1, n), 0, &mut scratch);
                    let mut broken = e.violations(&board.cells).unwrap();
                    let mut said: Vec<Gave> = board.relaxed.iter().map(|r| r.gave).collect();
                    broken.sort_unstable();
                    said.sort_unstable();
                    assert_eq!(broken, said);
                    !board.relaxed.is_empty()
                })
                .count()
        };
        let greedy = relaxed(0);
        let backtracking = relaxed(BACKTRACK_PER_CELL);
        eprintln!("relaxed boards of 1000: greedy {greedy}, with backtracking {backtracking}");
        assert!(greedy > 300, "greedy relaxed only {greedy} of 1000");
        assert!(
            backtracking * 10 < greedy,
            "backtracking {backtracking}, greedy {greedy}"
        );
    }

    #[test]
    fn lockout_weighting_is_the_chance_of_joining_the_pool() {
        // 30 objectives of weighting 100 and one of 50, no categories, 3x3:
        // the one joins half the boards' pools, and a pool of 31 gives each
        // member 9 of 31 cells, so it is on 0.5 × 9/31 of the boards
        // (the pool never needs refilling: 30 ≥ 9).
        let mut goals: Vec<String> = (0..30).map(|i| format!("{{\"goal\": \"g{i}\"}}")).collect();
        goals.push(r#"{"goal": "half", "weighting": 50}"#.to_string());
        let s = set(&format!("{{\"objectives\": [{}]}}", goals.join(",")));
        let e = Engine::new(&s, Size { rows: 3, cols: 3 }, Weighting::Lockout).unwrap();
        let mut scratch = Scratch::default();
        let n = 20_000u32;
        let hits = (0..n)
            .filter(|&i| {
                let board = e.draw(&mut stream(8, u64::from(i)), 0, &mut scratch);
                board.cells.iter().any(|&c| unpack(c).0 == 30)
            })
            .count() as f64;
        let p = 0.5 * 9.0 / 31.0;
        let (mean, sd) = (f64::from(n) * p, (f64::from(n) * p * (1.0 - p)).sqrt());
        // |z| < 3.29: a two-sided test at α = 0.001.
        assert!(
            (hits - mean).abs() < 3.29 * sd,
            "{hits} boards, expected {mean:.0} ± {sd:.0}"
        );
    }

    #[test]
    fn picks_are_uniform_over_the_fitting_pool() {
        // One cell board constraints aside: on a 3x3 board of 12 one-shot
        // objectives, cell 0 of board n takes each objective equally often.
        let goals: Vec<String> = (0..12).map(|i| format!("{{\"goal\": \"g{i}\"}}")).collect();
        let s = set(&format!("{{\"objectives\": [{}]}}", goals.join(",")));
        let e = Engine::new(&s, Size { rows: 3, cols: 3 }, Weighting::Lockout).unwrap();
        let mut scratch = Scratch::default();
        let mut seen = [0u32; 12];
        let n = 24_000;
        for i in 0..n {
            let board = e.draw(&mut stream(5, i), 0, &mut scratch);
            seen[unpack(board.cells[0]).0] += 1;
        }
        // Chi-square, 11 degrees of freedom; 31.26 is the 0.001 critical value.
        let expected = n as f64 / 12.0;
        let chi: f64 = seen
            .iter()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi < 31.26, "chi-square {chi}: {seen:?}");
    }
}
