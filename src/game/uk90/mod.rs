//! UK 90-ball strips ("housie", tambola): six 3×9 tickets holding every
//! number 1–90 once, drawn uniformly over every valid numbered strip of the
//! chosen rule set.
//!
//! "Uniform" means: each numbered strip (six tickets in order, every cell's
//! number fixed) that satisfies the rules has the same probability. So a
//! ticket's position in the strip carries no bias, unlike greedy generators.
//! A strip is drawn in three exact steps ([`tables`] has the maths):
//!
//! 1. the six tickets' column-count vectors, with probability ∝ ∏ W(vₜ);
//! 2. each ticket's layout, uniform among the L(vₜ) layouts with its counts;
//! 3. the numbers: for each column, a uniformly shuffled sequence of ticket
//!    labels (ticket t repeated `vₜ[c]` times) gives each of the column's
//!    numbers, in ascending order, its ticket; each ticket fills its
//!    column's cells top to bottom, so its columns ascend.
//!
//! Record: 162 bytes, ticket by ticket, row by row, column by column, the
//! number or 0 for a blank. Each ticket's exact key is its 90-bit number set
//! plus its 27-bit layout; uniqueness is checked per ticket across the file.
//!
//! Here: the draw, keys, record and rule checks. [`rules`]: the rule sets;
//! [`tables`]: the sampler's exact tables and the counts (built on `levels`,
//! the DP over ticket sums, and [`alias`], exact alias tables); [`text`]:
//! the renderings.

// Grids are indexed by row and column on purpose.
#![allow(clippy::needless_range_loop)]

pub mod alias;
pub mod facts;
pub mod law;
mod levels;
pub mod rules;
pub mod tables;
pub mod text;
pub mod tickets;

use super::{Face, Game, RuleViolation, Spec};
use crate::dedup::Keyed;
use crate::seed::{below_u64 as below, Rng};
use crate::seed::{chunk_stream, own_stream};
use alias::prefetch;
use rules::{column_base, column_of, Rules, COLUMN_SIZES};
use std::hash::{Hash, Hasher};
use tables::{Tables, TICKETS};

/// Bytes per strip record.
pub const RECORD_SIZE: usize = TICKETS * 27;

/// Strips a run draws at once ([`Uk90::draw_many`]): enough to overlap
/// the cache misses of its tables (uk: 65,536 strips on one thread, 8 at a
/// time 22 % faster than one by one; 4 and 16 much the same).
pub const BATCH: usize = 8;

/// A ticket's exact key: bits 0–89 its numbers (bit n−1 for n), bits 90–116
/// its layout (bit 9·row + column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TicketKey([u64; 2]);

impl Hash for TicketKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.0[0].to_le_bytes());
        bytes[8..].copy_from_slice(&self.0[1].to_le_bytes());
        state.write(&bytes);
    }
}

/// One strip: six tickets of 3 rows × 9 columns, 0 for a blank, with each
/// ticket's exact key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strip {
    pub cells: [[[u8; 9]; 3]; TICKETS],
    keys: [TicketKey; TICKETS],
}

impl Strip {
    /// A strip of these cells, its keys computed from them.
    fn from_cells(cells: [[[u8; 9]; 3]; TICKETS]) -> Strip {
        let keys = std::array::from_fn(|t| {
            let mut numbers = 0u128;
            let mut layout = 0u32;
            for (r, row) in cells[t].iter().enumerate() {
                for (c, &n) in row.iter().enumerate() {
                    if n != 0 {
                        numbers |= 1 << (n - 1);
                        layout |= 1 << (9 * r + c);
                    }
                }
            }
            ticket_key(numbers, layout)
        });
        Strip { cells, keys }
    }

    /// The exact key of ticket t.
    pub fn ticket_key(&self, t: usize) -> TicketKey {
        self.keys[t]
    }
}

/// The key of a ticket with these numbers (bit n−1 for n) and this layout.
fn ticket_key(numbers: u128, layout: u32) -> TicketKey {
    let key = numbers | u128::from(layout) << 90;
    TicketKey([key as u64, (key >> 64) as u64])
}

/// The 90-ball game under one rule set.
pub struct Uk90 {
    rules: Rules,
}

impl Uk90 {
    /// The game for `rules`. The sampler's tables (0.2–0.4 s to build for
    /// uk) are built on the first draw, not here: reading and checking
    /// strips needs none.
    pub fn new(rules: Rules) -> Uk90 {
        Uk90 { rules }
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The tables behind the sampler.
    pub fn tables(&self) -> &'static Tables {
        tables::tables(self.rules)
    }

    /// `B` strips at once, strip k from `rngs[k]`: the strips [`Game::draw`]
    /// gives from each generator, whatever `B` (see
    /// [`Tables::draw_vectors_many`]); each ticket's layout is asked for one
    /// step before it is read.
    #[inline]
    pub fn draw_many<const B: usize>(&self, rngs: &mut [Rng; B]) -> [Strip; B] {
        let t = self.tables();
        let vectors = t.draw_vectors_many(rngs);
        let mut picks = [[0usize; TICKETS]; B];
        for k in 0..B {
            for (pick, &v) in picks[k].iter_mut().zip(&vectors[k]) {
                let choices = t.layouts_of(usize::from(v));
                *pick = below(&mut rngs[k], choices.len() as u64) as usize;
                prefetch(&choices[*pick]);
            }
        }
        std::array::from_fn(|k| {
            let layouts =
                std::array::from_fn(|i| t.layouts_of(usize::from(vectors[k][i]))[picks[k][i]]);
            deal(&layouts, &mut rngs[k])
        })
    }
}

/// The strip of these six ticket layouts, its numbers dealt column by
/// column from `rng`.
#[inline]
fn deal(layouts: &[u32; TICKETS], rng: &mut Rng) -> Strip {
    let mut cells = [[[0u8; 9]; 3]; TICKETS];
    let mut numbers = [0u128; TICKETS];
    // Column by column, each its own copy of the steps, so its base,
    // size and place in the number set are constants.
    macro_rules! deal {
        ($($c:literal)*) => { $( deal_column::<$c>(layouts, &mut cells, &mut numbers, rng); )* };
    }
    deal!(0 1 2 3 4 5 6 7 8);
    let keys = std::array::from_fn(|t| ticket_key(numbers[t], layouts[t]));
    Strip { cells, keys }
}

/// `n!` and `2⁶⁴ mod n!` for n ≤ 11: one 64-bit word shuffles a column.
const SHUFFLES: [(u64, u64); 12] = {
    let mut table = [(1u64, 0u64); 12];
    let mut n = 2;
    while n < 12 {
        let product = table[n - 1].0 * n as u64;
        table[n] = (product, product.wrapping_neg() % product);
        n += 1;
    }
    table
};

/// A uniform shuffle (Fisher–Yates) of up to 11 items from one 64-bit word:
/// the swap indices are the mixed-radix digits of a uniform rank below n!,
/// drawn exactly by Lemire's method and read off by multiplication.
#[inline]
fn shuffle(items: &mut [u8], rng: &mut Rng) {
    use rand_core::RngCore;
    let n = items.len();
    let (_, threshold) = SHUFFLES[n];
    loop {
        let mut rest = rng.next_u64();
        let mut swaps = [0u8; 11];
        for i in (1..n).rev() {
            let m = u128::from(rest) * (i as u128 + 1);
            swaps[i] = (m >> 64) as u8;
            rest = m as u64;
        }
        if rest >= threshold {
            for i in (1..n).rev() {
                items.swap(i, usize::from(swaps[i]));
            }
            return;
        }
    }
}

/// Deals column `C`'s numbers: for each ticket, its rows in the column (bit
/// r for row r) from its layout; the column's ticket labels, one per cell,
/// shuffled uniformly; then the numbers in ascending order, each to its
/// label's ticket, which fills its cells top to bottom (so its column
/// ascends). Bit k of `dealt[t]` says ticket t holds the column's k-th
/// number.
#[inline(always)]
fn deal_column<const C: usize>(
    layouts: &[u32; TICKETS],
    cells: &mut [[[u8; 9]; 3]; TICKETS],
    numbers: &mut [u128; TICKETS],
    rng: &mut Rng,
) {
    let len = usize::from(COLUMN_SIZES[C]);
    let mut rows = [0u32; TICKETS];
    // Room for three labels past the column's last cell.
    let mut labels = [0u8; 13];
    let mut at = 0;
    for (ticket, (rows, &layout)) in rows.iter_mut().zip(layouts).enumerate() {
        let column = layout >> C;
        *rows = column & 1 | column >> 8 & 2 | column >> 16 & 4;
        labels[at] = ticket as u8;
        labels[at + 1] = ticket as u8;
        labels[at + 2] = ticket as u8;
        at += rows.count_ones() as usize;
    }
    debug_assert_eq!(at, len);
    shuffle(&mut labels[..len], rng);
    let mut dealt = [0u16; TICKETS];
    for (k, &ticket) in labels[..len].iter().enumerate() {
        let ticket = usize::from(ticket);
        let row = rows[ticket].trailing_zeros() as usize;
        rows[ticket] &= rows[ticket] - 1;
        cells[ticket][row][C] = column_base(C) + k as u8;
        dealt[ticket] |= 1 << k;
    }
    for (numbers, &dealt) in numbers.iter_mut().zip(&dealt) {
        *numbers |= u128::from(dealt) << (column_base(C) - 1);
    }
}

impl Keyed for Uk90 {
    type Card = Strip;
    type Key = TicketKey;
    type Keys = [TicketKey; TICKETS];

    fn keys(&self, strip: &Strip) -> [TicketKey; TICKETS] {
        std::array::from_fn(|t| strip.ticket_key(t))
    }

    fn keys_per_card(&self) -> usize {
        TICKETS
    }
}

impl Game for Uk90 {
    fn classes(&self) -> Result<u32, &'static str> {
        Err("90-ball strips cannot be minted in shards: a strip's six tickets share the numbers 1 to 90 and its uniqueness is ticket by ticket, so no part of the strips' space holds its tickets apart from another's; mint the stock in one run (out of core past memory), or check files made apart with `bingomint verify --across`")
    }

    fn spec(&self) -> Spec {
        Spec::Uk90 { rules: self.rules }
    }

    fn draw(&self, rng: &mut Rng) -> Strip {
        let [strip] = self.draw_many(std::array::from_mut(rng));
        strip
    }

    /// With [`Rules::own_streams`] (uk), strip n (1-based) draws from a
    /// stream of its own, [`own_stream`]`(seed, n, 0)`, so any strip of a run
    /// can be drawn again from the seed and its number alone, [`BATCH`]
    /// strips at a time ([`Uk90::draw_many`]); otherwise (es) the chunk's
    /// strips come one after another from its stream, as other games' cards.
    fn drawer(&self, seed: u64, chunk: usize) -> impl FnMut(u32) -> Strip + '_ {
        let mut from_chunk = (!self.rules.own_streams())
            .then(|| chunk_stream(seed, chunk, move |rng| self.draw(rng)));
        let mut batch: Option<(u32, [Strip; BATCH])> = None;
        move |index| {
            if let Some(draw) = &mut from_chunk {
                return draw(index);
            }
            match &batch {
                Some((first, _)) if (*first..*first + BATCH as u32).contains(&index) => {}
                _ => {
                    let mut rngs =
                        std::array::from_fn(|k| own_stream(seed, u64::from(index) + k as u64, 0));
                    batch = Some((index, self.draw_many(&mut rngs)));
                }
            }
            let (first, strips) = batch.as_ref().expect("drawn above");
            strips[(index - first) as usize].clone()
        }
    }

    fn encode(&self, strip: &Strip, record: &mut [u8]) {
        // The cells are the record's layout: ticket by ticket, row by row.
        record.copy_from_slice(strip.cells.as_flattened().as_flattened());
    }

    fn decode(&self, record: &[u8]) -> Result<Strip, RuleViolation> {
        if record.len() != RECORD_SIZE {
            return Err(RuleViolation(format!(
                "record is {} bytes, expected {RECORD_SIZE}",
                record.len()
            )));
        }
        let mut cells = [[[0u8; 9]; 3]; TICKETS];
        let mut seen = 0u128;
        let max = self.rules.max_per_column();
        for (t, ticket) in cells.iter_mut().enumerate() {
            let name = format!("ticket {}", t + 1);
            for (r, row) in ticket.iter_mut().enumerate() {
                row.copy_from_slice(&record[27 * t + 9 * r..27 * t + 9 * r + 9]);
                let mut mask = 0u16;
                for (c, &n) in row.iter().enumerate() {
                    if n == 0 {
                        continue;
                    }
                    if !(1..=90).contains(&n) || column_of(n) != c {
                        return Err(RuleViolation(format!(
                            "{name} row {} column {} holds {n}, which belongs in column {}",
                            r + 1,
                            c + 1,
                            if (1..=90).contains(&n) {
                                column_of(n) + 1
                            } else {
                                0
                            }
                        )));
                    }
                    if seen >> (n - 1) & 1 == 1 {
                        return Err(RuleViolation(format!(
                            "{name}: {n} appears twice in the strip"
                        )));
                    }
                    seen |= 1 << (n - 1);
                    mask |= 1 << c;
                }
                if mask.count_ones() != 5 {
                    return Err(RuleViolation(format!(
                        "{name} row {} holds {} numbers, not 5",
                        r + 1,
                        mask.count_ones()
                    )));
                }
                if !self.rules.row_ok(mask) {
                    return Err(RuleViolation(format!(
                        "{name} row {} breaks the {} rules (three blanks or four numbers in a run)",
                        r + 1,
                        self.rules.name()
                    )));
                }
            }
            for c in 0..9 {
                let column: Vec<u8> = (0..3).map(|r| ticket[r][c]).filter(|&n| n != 0).collect();
                if column.is_empty() || column.len() > usize::from(max) {
                    return Err(RuleViolation(format!(
                        "{name} column {} holds {} numbers, not 1–{max}",
                        c + 1,
                        column.len()
                    )));
                }
                if column.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(RuleViolation(format!(
                        "{name} column {} does not ascend top to bottom",
                        c + 1
                    )));
                }
            }
        }
        if seen != (1u128 << 90) - 1 {
            let missing = (1..=90u8).find(|&n| seen >> (n - 1) & 1 == 0).unwrap_or(0);
            return Err(RuleViolation(format!(
                "the strip lacks {missing} (it must hold 1–90 once)"
            )));
        }
        Ok(Strip::from_cells(cells))
    }

    fn face_key(&self, face: &Face) -> Option<TicketKey> {
        let mut cells = [[0u8; 9]; 3];
        for (r, row) in cells.iter_mut().enumerate() {
            row.copy_from_slice(&face.cells[9 * r..9 * r + 9]);
        }
        Some(tickets::Ticket::new(cells).key())
    }

    fn encode_faces(&self, faces: &[Face], record: &mut [u8]) {
        for (t, face) in faces.iter().enumerate() {
            record[27 * t..27 * t + 27].copy_from_slice(&face.cells[..27]);
        }
    }

    fn with_spec(spec: Spec) -> Option<Uk90> {
        match spec {
            Spec::Uk90 { rules } => Some(Uk90::new(rules)),
            _ => None,
        }
    }

    fn face(&self, strip: &Strip, ticket: usize) -> Face {
        let mut face = Face::new(3, 9);
        for (r, row) in strip.cells[ticket].iter().enumerate() {
            face.cells[9 * r..9 * r + 9].copy_from_slice(row);
        }
        face
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::stream;

    /// Strips drawn together are the strips drawn one by one from the same
    /// generators, whatever the batch.
    #[test]
    fn strips_drawn_together_are_those_drawn_alone() {
        for rules in [Rules::Uk, Rules::Es] {
            let game = Uk90::new(rules);
            for first in [0u64, 100, 7919] {
                let streams = |k: usize| stream(5, first + k as u64);
                let alone: Vec<Strip> = (0..BATCH).map(|k| game.draw(&mut streams(k))).collect();
                let mut rngs = std::array::from_fn(streams);
                assert_eq!(game.draw_many::<BATCH>(&mut rngs).to_vec(), alone);
                let mut rngs = std::array::from_fn(streams);
                assert_eq!(game.draw_many::<3>(&mut rngs).to_vec(), alone[..3]);
                // Each generator is left where drawing alone leaves it.
                let mut one = streams(2);
                game.draw(&mut one);
                use rand_core::RngCore;
                assert_eq!(rngs[2].next_u64(), one.next_u64());
            }
        }
    }

    #[test]
    fn drawn_strips_follow_the_rules_and_round_trip() {
        for rules in [Rules::Uk, Rules::Es] {
            let game = Uk90::new(rules);
            let mut rng = stream(11, 0);
            for _ in 0..2000 {
                let strip = game.draw(&mut rng);
                let mut record = [0u8; RECORD_SIZE];
                game.encode(&strip, &mut record);
                assert_eq!(game.decode(&record), Ok(strip));
            }
        }
    }

    #[test]
    fn shuffles_are_uniform_over_permutations() {
        // 4 items: 24 orders, each expected 1/24 of the time.
        let mut rng = stream(8, 0);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..24_000 {
            let mut items = [0u8, 1, 2, 3];
            shuffle(&mut items, &mut rng);
            *seen.entry(items).or_insert(0u32) += 1;
        }
        assert_eq!(seen.len(), 24);
        assert!(seen.values().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(SHUFFLES[11].0, 39_916_800);
    }

    #[test]
    fn decode_names_the_broken_rule() {
        let game = Uk90::new(Rules::Uk);
        let mut record = [0u8; RECORD_SIZE];
        game.encode(&game.draw(&mut stream(2, 0)), &mut record);
        let mut bad = record;
        let at = bad.iter().position(|&n| n != 0).unwrap();
        bad[at] = 0;
        assert!(game.decode(&bad).unwrap_err().0.contains("not 5"));
        let mut bad = record;
        let (a, b) = (
            bad.iter().position(|&n| (1..10).contains(&n)).unwrap(),
            bad.iter().position(|&n| (80..91).contains(&n)).unwrap(),
        );
        bad.swap(a, b);
        assert!(game
            .decode(&bad)
            .unwrap_err()
            .0
            .contains("belongs in column"));
    }
}
