//! US 75-ball cards: 5×5, B 1–15, I 16–30, N 31–45 (free centre), G 46–60,
//! O 61–75, each column's numbers distinct and in random order, and an
//! optional star on one of the 24 numbered cells.
//!
//! A long file (about 600 lines, then 190 of tests) holding one mechanism:
//! the key falls out of the draw's table and the record is read back
//! through it, so the draw, the key and the record are read together.
//!
//! A card is drawn from five 32-bit random words, one per column: a uniform
//! rank of the column's ordered draw (15·14·13·12·11 = 360,360 ways for B,
//! I, G and O; 32,760 × 24 for N with the star), exact by Lemire's method,
//! then looked up in a table of the ordered draws, built once, each held as
//! nibbles. So the card's exact key (24 cells × 4 bits = 96 bits) falls out
//! of the draw at no cost.
//!
//! The record is the original generator's 25-byte layout: column-major (five
//! B, five I, two N, the centre byte, two N, five G, five O), numbers as
//! bytes; the centre byte holds the star's cell index (0–24, column-major,
//! never 12), or 12 — the free centre itself — when the card has no star.
//!
//! [`text`] holds the card's renderings (grid, txt, CSV, JSON).

pub mod facts;
pub mod text;

use super::{Face, Game, RuleViolation, Spec};
use crate::dedup::Keyed;
use crate::seed::Rng;
use rand_core::RngCore;
use std::hash::{Hash, Hasher};

/// Bytes per record.
pub const RECORD_SIZE: usize = 25;
/// Column-major index of the free centre cell; also the centre byte's value
/// on a card without a star.
pub const CENTRE: u8 = 12;
/// Column letters.
pub const LETTERS: [char; 5] = ['B', 'I', 'N', 'G', 'O'];

/// Numbered cells per column (the N column's centre is free).
const HEIGHT: [usize; 5] = [5, 5, 4, 5, 5];
/// Bit offset of each column's nibbles in the key.
const KEY_SHIFT: [u32; 5] = [0, 20, 40, 56, 76];
/// Per column, its lowest number in each of the five low bytes (the N
/// column's fifth byte is unused).
const BASES: [u64; 5] = [
    0x01_0101_0101,
    0x10_1010_1010,
    0x1F_1F1F_1F1F,
    0x2E_2E2E_2E2E,
    0x3D_3D3D_3D3D,
];

/// The lowest number of the column of each of the key's 24 nibbles, as
/// bytes: the first 16 and the last 8, little-endian.
const NUMBER_BASES: (u128, u64) = {
    let mut first = 0u128;
    let mut rest = 0u64;
    let mut i = 0;
    while i < 24 {
        // The column whose nibbles start at or before nibble i, last.
        let mut column = 0;
        while column < 4 && KEY_SHIFT[column + 1] <= 4 * i as u32 {
            column += 1;
        }
        let base = BASES[column] & 0xFF;
        if i < 16 {
            first |= (base as u128) << (8 * i);
        } else {
            rest |= base << (8 * (i - 16));
        }
        i += 1;
    }
    (first, rest)
};

/// The card's 24 numbers in key order (the record's column-major order
/// without the centre), a byte each: nibble i of `bits` plus its column's
/// base. The first 16 bytes and the last 8. No byte carries into the next
/// (at most 15 + 61).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn numbers(bits: u128) -> (u128, u64) {
    // SSE2, which every x86-64 has: the even nibbles and the odd ones
    // masked into bytes, then interleaved.
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 target
    // this compiles for has it; the intrinsics only move register values.
    let (lo, hi, rest) = unsafe {
        let x = _mm_set_epi64x((bits >> 64) as i64, bits as i64);
        let low = _mm_set1_epi8(0x0F);
        let even = _mm_and_si128(x, low);
        let odd = _mm_and_si128(_mm_srli_epi64::<4>(x), low);
        let first = _mm_unpacklo_epi8(even, odd);
        let rest = _mm_unpackhi_epi8(even, odd);
        (
            _mm_cvtsi128_si64(first) as u64,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(first, first)) as u64,
            _mm_cvtsi128_si64(rest) as u64,
        )
    };
    let first = (u128::from(lo) | u128::from(hi) << 64) + NUMBER_BASES.0;
    (first, rest + NUMBER_BASES.1)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn numbers(bits: u128) -> (u128, u64) {
    numbers_by_nibble(bits)
}

/// [`numbers`], a nibble at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn numbers_by_nibble(bits: u128) -> (u128, u64) {
    let mut bytes = [0u8; 24];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = (bits >> (4 * i)) as u8 & 0xF;
    }
    let first = u128::from_le_bytes(bytes[..16].try_into().expect("16 bytes"));
    let rest = u64::from_le_bytes(bytes[16..].try_into().expect("8 bytes"));
    (first + NUMBER_BASES.0, rest + NUMBER_BASES.1)
}

/// Nibble `i` holds `i`: the identity permutation of a column's 15 numbers.
const IDENTITY: u64 = 0x0EDC_BA98_7654_3210;

/// Ordered draws of 5 of 15: 15·14·13·12·11.
const FIVE_WAYS: u32 = 360_360;
/// Ordered draws of 4 of 15: 15·14·13·12.
const FOUR_WAYS: u32 = 32_760;
const FIVE_THRESHOLD: u32 = lemire_threshold32(FIVE_WAYS);

/// Whether the cards carry a star.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StarRule {
    /// No star: the centre byte is 12.
    Off,
    /// One star per card, uniform over the 24 numbered cells.
    On,
    /// Either (reading a v3 file, whose header does not say).
    Any,
}

/// The exact key of a card: its 24 numbers, 4 bits each, column by column
/// (96 bits). The star is not part of it: two cards that differ only in the
/// star are the same card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key96([u32; 3]);

impl Hash for Key96 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // One `write` of the 12 key bytes: the set's hasher runs XXH3 once.
        // Built as one 128-bit value, not three 32-bit stores: XXH3 reads
        // bytes 0-7 and 4-11, and a load that spans two smaller stores
        // cannot take its bytes from them (it waits for the cache).
        let [a, b, c] = self.0;
        let bytes = (u128::from(a) | u128::from(b) << 32 | u128::from(c) << 64).to_le_bytes();
        state.write(&bytes[..12]);
    }
}

/// One 75-ball card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    /// Bits `4k..4k+4` of column c's group hold `number - (15c + 1)`.
    bits: u128,
    /// The centre byte: the star's column-major cell index, or [`CENTRE`].
    star: u8,
}

impl Card {
    /// The card's exact key.
    pub fn key(&self) -> Key96 {
        let b = self.bits;
        Key96([b as u32, (b >> 32) as u32, (b >> 64) as u32])
    }

    /// The 24 numbers as a row-major 5×5 grid, 0 at the free centre.
    pub fn grid(&self) -> [[u8; 5]; 5] {
        let mut grid = [[0u8; 5]; 5];
        for (c, &height) in HEIGHT.iter().enumerate() {
            for k in 0..height {
                let row = if c == 2 && k >= 2 { k + 1 } else { k };
                grid[row][c] = self.number(c, k);
            }
        }
        grid
    }

    /// The star's position as (row, column), if the card has one.
    pub fn star(&self) -> Option<(usize, usize)> {
        (self.star != CENTRE).then(|| (usize::from(self.star % 5), usize::from(self.star / 5)))
    }

    /// The k-th numbered cell (top to bottom) of column `c`.
    fn number(&self, c: usize, k: usize) -> u8 {
        let nibble = (self.bits >> (KEY_SHIFT[c] + 4 * k as u32)) as u8 & 0xF;
        (15 * c as u8) + 1 + nibble
    }
}

/// The 75-ball game.
#[derive(Clone, Debug)]
pub struct Us75 {
    star: StarRule,
    /// 24 star cells, or 1 (no star).
    stars: u32,
    /// Lemire threshold for the N column and star drawn together.
    n_threshold: u32,
    tables: &'static DrawTables,
}

impl Us75 {
    /// Whether a record's centre byte fits this game's star rule.
    fn centre_ok(&self, star: u8) -> bool {
        match self.star {
            StarRule::Off => star == CENTRE,
            StarRule::On => star < 25 && star != CENTRE,
            StarRule::Any => star < 25,
        }
    }

    /// A record's card when it keeps every rule, checked a column at a
    /// time as one word: each number within its column's 15 (a byte test
    /// on all five at once), the 24 numbers distinct (a bit each), the
    /// centre byte allowed. None when any rule fails (or the length is
    /// wrong): [`Us75::decode_slowly`] then says which.
    #[inline]
    fn decode_quick(&self, record: &[u8]) -> Option<Card> {
        let record: &[u8; RECORD_SIZE] = record.try_into().ok()?;
        let (b, i, n, g, o) = (
            quick_column::<0>(record),
            quick_column::<1>(record),
            quick_column::<2>(record),
            quick_column::<3>(record),
            quick_column::<4>(record),
        );
        let bad = b.bad | i.bad | n.bad | g.bad | o.bad;
        let bits = [b, i, n, g, o]
            .iter()
            .zip(KEY_SHIFT)
            .fold(0u128, |bits, (column, shift)| {
                bits | u128::from(column.nibbles) << shift
            });
        let star = record[usize::from(CENTRE)];
        (bad == 0 && self.centre_ok(star)).then_some(Card { bits, star })
    }

    /// Decodes a record one number at a time, naming the first rule it
    /// breaks: what [`Game::decode`] falls back to when
    /// [`Us75::decode_quick`] finds a record wanting.
    #[cold]
    #[inline(never)]
    fn decode_slowly(&self, record: &[u8]) -> Result<Card, RuleViolation> {
        if record.len() != RECORD_SIZE {
            return Err(RuleViolation(format!(
                "record is {} bytes, expected {RECORD_SIZE}",
                record.len()
            )));
        }
        let mut bits = 0u128;
        for (c, &height) in HEIGHT.iter().enumerate() {
            let low = 15 * c as u8 + 1;
            let mut seen = 0u16;
            for k in 0..height {
                let row = if c == 2 && k >= 2 { k + 1 } else { k };
                let value = record[5 * c + row];
                if !(low..low + 15).contains(&value) {
                    return Err(RuleViolation(format!(
                        "column {} row {} holds {value}, outside {low}–{}",
                        LETTERS[c],
                        row + 1,
                        low + 14
                    )));
                }
                let nibble = value - low;
                if seen & (1 << nibble) != 0 {
                    return Err(RuleViolation(format!(
                        "column {} holds {value} twice",
                        LETTERS[c]
                    )));
                }
                seen |= 1 << nibble;
                bits |= u128::from(nibble) << (KEY_SHIFT[c] + 4 * k as u32);
            }
        }
        let star = record[usize::from(CENTRE)];
        if !self.centre_ok(star) {
            let expected = match self.star {
                StarRule::Off => "12: the file's cards have no star",
                StarRule::On => "a star cell 0–24 other than the free centre 12",
                StarRule::Any => "a cell index 0–24",
            };
            return Err(RuleViolation(format!(
                "centre byte is {star}, expected {expected}"
            )));
        }
        Ok(Card { bits, star })
    }

    /// A 75-ball game drawing (or, when reading, expecting) the given stars.
    pub fn new(star: StarRule) -> Us75 {
        let stars = if star == StarRule::On { 24 } else { 1 };
        let tables = tables();
        Us75 {
            star,
            stars,
            n_threshold: lemire_threshold32(FOUR_WAYS * stars),
            tables,
        }
    }
}

/// `2³² mod p`: the rejection threshold of a 32-bit Lemire draw below `p`.
const fn lemire_threshold32(p: u32) -> u32 {
    p.wrapping_neg() % p
}

/// A uniform integer below `p` from a 32-bit word by Lemire's method:
/// `word · p = D·2³² + rest`, accepted when `rest ≥ 2³² mod p` (which makes
/// D exactly uniform); otherwise a fresh word is taken from `rng` (under 1
/// time in 5,000 for these bounds).
#[inline(always)]
fn below(mut word: u32, p: u32, threshold: u32, rng: &mut Rng) -> u32 {
    loop {
        let m = u64::from(word) * u64::from(p);
        if m as u32 >= threshold {
            return (m >> 32) as u32;
        }
        word = rng.next_u32();
    }
}

/// Like [`below`], but returns the accepted `word` itself: its products with
/// the mixed-radix bounds give the digits (`word·b₁ = d₁·2³² + r₁`,
/// `r₁·b₂ = d₂·2³² + r₂`, …), which are the digits of `D` exactly.
#[inline(always)]
fn below_fraction(mut word: u32, p: u32, threshold: u32, rng: &mut Rng) -> u32 {
    loop {
        let m = u64::from(word) * u64::from(p);
        if m as u32 >= threshold {
            return word;
        }
        word = rng.next_u32();
    }
}

/// What [`Us75::decode_quick`] reads off column `C` of a record.
struct QuickColumn {
    /// Non-zero when a number is outside the column's 15 or repeats.
    bad: u64,
    /// The numbers less the column's lowest, a nibble each (the key's part).
    nibbles: u64,
}

#[inline(always)]
fn quick_column<const C: usize>(record: &[u8; RECORD_SIZE]) -> QuickColumn {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const FIFTEEN_UP: u64 = 0x7171_7171_7171_7171;
    // The 8 bytes from the column's first, read in place (O's: the last
    // 8 of the record, shifted down).
    let at = (5 * C).min(RECORD_SIZE - 8);
    let x =
        u64::from_le_bytes(record[at..at + 8].try_into().expect("8 bytes")) >> (8 * (5 * C - at));
    // The numbered cells, one a byte (N: rows 1-2 and 4-5).
    let (x, used) = if C == 2 {
        ((x & 0xFFFF) | (x >> 8) & 0xFFFF_0000, 0xFFFF_FFFFu64)
    } else {
        (x & 0xFF_FFFF_FFFF, 0xFF_FFFF_FFFF)
    };
    let high = HIGH & used;
    // A byte of 128 or more; then, with each byte's top bit set so no
    // borrow crosses bytes, one below the column's lowest.
    let mut bad = x & high;
    let y = (x | high) - (BASES[C] & used);
    bad |= !y & high;
    // Each byte now holds number − lowest; 15 or more is out.
    let z = y & !high & used;
    bad |= (z + (FIFTEEN_UP & used)) & high;
    // No two numbers equal: each byte differs from the bytes one and two
    // places on around the column's ring (5 cells: every pair once; N's
    // 4: every pair, the opposite ones twice). Bytes are below 16 here,
    // so a byte of the XOR is zero exactly when its top bit falls.
    let (ones, width) = (0x0101_0101_0101_0101 & used, 8 * HEIGHT[C] as u32);
    let turn = |by: u32| ((z << (8 * by)) | (z >> (width - 8 * by))) & used;
    for by in [1, 2] {
        bad |= !(((z ^ turn(by)) | high) - ones) & high;
    }
    let nibbles =
        (z & 0xF) | (z >> 4) & 0xF0 | (z >> 8) & 0xF00 | (z >> 12) & 0xF000 | (z >> 16) & 0xF_0000;
    QuickColumn { bad, nibbles }
}

/// The ordered draws of k numbers out of a column's 15, indexed by rank.
///
/// Rank `D` has mixed-radix digits `d[i] < 15 - i` (most significant first);
/// the draw is the partial Fisher–Yates shuffle that swaps position i with
/// position `i + d[i]`, as nibbles (number − column base). Every rank gives a
/// different ordered draw, so a uniform rank is a uniform ordered draw.
///
/// Five of 15 (360,360 ranks) is looked up in two parts that stay in the
/// L1 cache: the first two swaps (rank ÷ 1,716: 210 states of the whole
/// column, 15 nibbles) and the last three (rank mod 1,716: which three
/// positions of that state end up third to fifth, which does not depend on
/// the state).
#[derive(Debug)]
struct DrawTables {
    /// The column after the first two swaps, by `rank / LAST_THREE`.
    first_two: Vec<u64>,
    /// Positions (a nibble each) of the third to fifth numbers, by
    /// `rank % LAST_THREE`.
    last_three: Vec<u16>,
    four: Vec<u16>,
}

/// Ordered draws of the last three of five: 13·12·11.
const LAST_THREE: u32 = 1716;

impl DrawTables {
    /// The ordered draw of rank `rank` of five of 15: `shuffle_rank(rank, 5)`.
    #[inline(always)]
    fn five(&self, rank: u32) -> u64 {
        let state = self.first_two[(rank / LAST_THREE) as usize];
        let at = u64::from(self.last_three[(rank % LAST_THREE) as usize]);
        let pick = |k: u64| (state >> (4 * ((at >> (4 * k)) & 0xF))) & 0xF;
        (state & 0xFF) | pick(0) << 8 | pick(1) << 12 | pick(2) << 16
    }
}

/// The whole column after the partial shuffle's first `steps` swaps, the
/// swaps' offsets being the leading digits of `digits` (mixed radix 15, 14,
/// …, most significant first, `steps` of them).
fn swapped(mut x: u64, mut digits: u32, from: u32, steps: u32) -> u64 {
    let mut d = [0u32; 5];
    for i in (0..steps as usize).rev() {
        let radix = 15 - from - i as u32;
        d[i] = digits % radix;
        digits /= radix;
    }
    for (i, &d) in d.iter().enumerate().take(steps as usize) {
        let i = from + i as u32;
        let (si, sj) = (4 * i, 4 * (i + d));
        let diff = ((x >> si) ^ (x >> sj)) & 0xF;
        x ^= (diff << si) | (diff << sj);
    }
    x
}

fn shuffle_rank(mut rank: u32, k: u32) -> u64 {
    let mut digits = [0u32; 5];
    for i in (0..k as usize).rev() {
        let radix = 15 - i as u32;
        digits[i] = rank % radix;
        rank /= radix;
    }
    let mut x = IDENTITY;
    for (i, &d) in digits.iter().enumerate().take(k as usize) {
        let (si, sj) = (4 * i as u32, 4 * (i as u32 + d));
        let diff = ((x >> si) ^ (x >> sj)) & 0xF;
        x ^= (diff << si) | (diff << sj);
    }
    x & ((1u64 << (4 * k)) - 1)
}

/// Built once per process, in a few milliseconds; ~70 KB shared by all threads
/// (the five-of-15 parts 5 KB, in L1; four of 15 whole, 64 KB).
fn tables() -> &'static DrawTables {
    static TABLES: std::sync::OnceLock<DrawTables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| DrawTables {
        first_two: (0..FIVE_WAYS / LAST_THREE)
            .map(|r| swapped(IDENTITY, r, 0, 2))
            .collect(),
        // Swapping positions (the identity's nibbles are its positions).
        last_three: (0..LAST_THREE)
            .map(|r| (swapped(IDENTITY, r, 2, 3) >> 8 & 0xFFF) as u16)
            .collect(),
        four: (0..FOUR_WAYS).map(|r| shuffle_rank(r, 4) as u16).collect(),
    })
}

impl Keyed for Us75 {
    type Card = Card;
    type Key = Key96;
    type Keys = [Key96; 1];

    #[inline]
    fn keys(&self, card: &Card) -> [Key96; 1] {
        [card.key()]
    }

    fn keys_per_card(&self) -> usize {
        1
    }
}

impl Us75 {
    /// A card whose B column is the draw of the rank `b_rank` gives (from
    /// the first stream word's low half, and the stream for rejections);
    /// the other columns and the star as [`Game::draw`] takes them.
    #[inline(always)]
    fn draw_with(&self, rng: &mut Rng, b_rank: impl FnOnce(u32, &mut Rng) -> u32) -> Card {
        let a = rng.next_u64();
        let b = rng.next_u64();
        let c = rng.next_u64() as u32;
        let five = |word: u64, rng: &mut Rng| {
            u128::from(
                self.tables
                    .five(below(word as u32, FIVE_WAYS, FIVE_THRESHOLD, rng)),
            )
        };
        let cb = u128::from(self.tables.five(b_rank(a as u32, rng)));
        let ci = five(a >> 32, rng);
        let cg = five(b, rng);
        let co = five(b >> 32, rng);
        // N's four numbers and the star share one word: rank × stars + star,
        // its two digits read off by multiplication (no division).
        let ns = below_fraction(c, FOUR_WAYS * self.stars, self.n_threshold, rng);
        let cn =
            u128::from(self.tables.four[((u64::from(ns) * u64::from(FOUR_WAYS)) >> 32) as usize]);
        let bits =
            cb | ci << KEY_SHIFT[1] | cn << KEY_SHIFT[2] | cg << KEY_SHIFT[3] | co << KEY_SHIFT[4];
        let star = if self.star == StarRule::On {
            let rest = (u64::from(ns) * u64::from(FOUR_WAYS)) as u32;
            let s = ((u64::from(rest) * 24) >> 32) as u8;
            s + u8::from(s >= CENTRE)
        } else {
            CENTRE
        };
        Card { bits, star }
    }
}

impl Game for Us75 {
    fn spec(&self) -> Spec {
        Spec::Us75 { star: self.star }
    }

    #[inline(always)]
    fn draw(&self, rng: &mut Rng) -> Card {
        self.draw_with(rng, |word, rng| below(word, FIVE_WAYS, FIVE_THRESHOLD, rng))
    }

    fn classes(&self) -> Result<u32, &'static str> {
        Ok(FIVE_WAYS)
    }

    fn draw_in(&self, rng: &mut Rng, classes: &std::ops::Range<u32>) -> Card {
        let n = classes.end - classes.start;
        self.draw_with(rng, |_, rng| classes.start + crate::seed::below_u32(rng, n))
    }

    fn class_of(&self, card: &Card) -> Option<u32> {
        let picks: [u8; 5] = std::array::from_fn(|k| (card.bits >> (4 * k)) as u8 & 0xF);
        crate::game::rank_of(&picks, 15)
    }

    #[inline]
    fn encode(&self, card: &Card, record: &mut [u8]) {
        // The 24 numbers as bytes, in key order (which is the record's
        // column-major order), then the centre byte put between the N
        // column's second and fourth cells (number 12): stored as 16 + 8 + 1
        // bytes from registers (no scratch buffer to read back).
        let (first, rest) = numbers(card.bits);
        let head = first & ((1 << 96) - 1) | u128::from(card.star) << 96 | (first >> 96) << 104;
        let tail = (first >> 120) as u64 | rest << 8;
        let record: &mut [u8; RECORD_SIZE] = record.try_into().expect("a 25-byte record");
        record[..16].copy_from_slice(&head.to_le_bytes());
        record[16..24].copy_from_slice(&tail.to_le_bytes());
        record[24] = (rest >> 56) as u8;
    }

    #[inline]
    fn decode(&self, record: &[u8]) -> Result<Card, RuleViolation> {
        match self.decode_quick(record) {
            Some(card) => Ok(card),
            None => self.decode_slowly(record),
        }
    }

    /// Column-major; the centre byte holds the star's column-major cell,
    /// or [`CENTRE`] without one (a star on the centre is kept there, for
    /// [`Game::decode`] to refuse).
    fn encode_faces(&self, faces: &[Face], record: &mut [u8]) {
        let face = &faces[0];
        for r in 0..5 {
            for c in 0..5 {
                record[5 * c + r] = face.cells[5 * r + c];
            }
        }
        record[usize::from(CENTRE)] = match face.star {
            super::NO_STAR => CENTRE,
            s => 5 * (s % 5) + s / 5,
        };
    }

    fn with_spec(spec: Spec) -> Option<Us75> {
        match spec {
            Spec::Us75 { star } => Some(Us75::new(star)),
            _ => None,
        }
    }

    /// The face straight from the record's bytes, once
    /// `Us75::decode_quick` has found them sound (a record that fails is
    /// decoded for the message).
    fn read_faces(&self, record: &[u8], faces: &mut [Face]) -> Result<(), RuleViolation> {
        if self.decode_quick(record).is_none() {
            return self.decode(record).map(|_| ());
        }
        let face = &mut faces[0];
        *face = Face::new(5, 5);
        for c in 0..5 {
            for r in 0..5 {
                if (c, r) != (2, 2) {
                    face.cells[5 * r + c] = record[5 * c + r];
                }
            }
        }
        face.star = star_cell(record[usize::from(CENTRE)]);
        Ok(())
    }

    fn face(&self, card: &Card, _face: usize) -> Face {
        let mut face = Face::new(5, 5);
        for (r, row) in card.grid().iter().enumerate() {
            face.cells[5 * r..5 * r + 5].copy_from_slice(row);
        }
        face.star = star_cell(card.star);
        face
    }
}

/// A centre byte's star (column-major) as a face's star cell (row-major).
fn star_cell(centre: u8) -> u8 {
    if centre == CENTRE || centre >= 25 {
        super::facts::NO_STAR
    } else {
        5 * (centre % 5) + centre / 5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::stream;

    fn check_card(card: &Card, stars: bool) {
        let grid = card.grid();
        for (c, _) in LETTERS.iter().enumerate() {
            let low = 15 * c as u8 + 1;
            let mut column: Vec<u8> = (0..5).map(|r| grid[r][c]).filter(|&v| v != 0).collect();
            assert_eq!(column.len(), if c == 2 { 4 } else { 5 });
            assert!(column.iter().all(|v| (low..low + 15).contains(v)));
            column.sort();
            column.dedup();
            assert_eq!(column.len(), if c == 2 { 4 } else { 5 });
        }
        assert_eq!(grid[2][2], 0);
        assert_eq!(card.star().is_some(), stars);
        if let Some((r, c)) = card.star() {
            assert!((r, c) != (2, 2));
        }
    }

    #[test]
    fn drawn_cards_follow_the_rules_and_round_trip() {
        for star in [StarRule::Off, StarRule::On] {
            let game = Us75::new(star);
            let mut rng = stream(7, 0);
            for _ in 0..10_000 {
                let card = game.draw(&mut rng);
                check_card(&card, star == StarRule::On);
                let mut record = [0u8; RECORD_SIZE];
                game.encode(&card, &mut record);
                assert_eq!(game.decode(&record), Ok(card));
                assert_eq!(Us75::new(StarRule::Any).decode(&record), Ok(card));
            }
        }
    }

    #[test]
    fn draw_tables_hold_every_ordered_draw_once() {
        let t = tables();
        let all: Vec<u64> = (0..FIVE_WAYS).map(|r| t.five(r)).collect();
        for (r, &x) in all.iter().enumerate() {
            assert_eq!(x, shuffle_rank(r as u32, 5), "rank {r}");
        }
        let mut five = all.clone();
        five.sort();
        five.dedup();
        assert_eq!(five.len(), FIVE_WAYS as usize);
        let mut four: Vec<u16> = t.four.clone();
        four.sort();
        four.dedup();
        assert_eq!(four.len(), FOUR_WAYS as usize);
        for &x in &all {
            let nibbles: Vec<u64> = (0..5).map(|i| x >> (4 * i) & 0xF).collect();
            assert!(nibbles.iter().all(|&n| n < 15));
            let mut distinct = nibbles.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 5);
        }
    }

    #[test]
    fn thresholds_are_two_to_the_32_mod_p() {
        assert_eq!(FIVE_THRESHOLD as u64, (1u64 << 32) % 360_360);
        assert_eq!(lemire_threshold32(786_240) as u64, (1u64 << 32) % 786_240);
        assert_eq!(lemire_threshold32(1), 0);
    }

    #[test]
    fn value_stability_first_card_of_seed_42() {
        // Pins the draw algorithm: changing it must bump ALGORITHM_VERSION.
        let game = Us75::new(StarRule::On);
        let card = game.draw(&mut stream(42, 0));
        let mut record = [0u8; RECORD_SIZE];
        game.encode(&card, &mut record);
        assert_eq!(record, PINNED_SEED_42);
    }

    const PINNED_SEED_42: [u8; RECORD_SIZE] = [
        14, 11, 3, 10, 15, 18, 20, 19, 23, 17, 44, 32, 3, 34, 35, 51, 46, 55, 56, 50, 65, 61, 62,
        63, 75,
    ];

    #[test]
    fn record_layout_is_column_major_with_star_in_the_centre_byte() {
        let game = Us75::new(StarRule::Any);
        let record: [u8; 25] = [
            1, 2, 3, 4, 5, 16, 17, 18, 19, 20, 31, 32, 4, 33, 34, 46, 47, 48, 49, 50, 61, 62, 63,
            64, 65,
        ];
        let card = game.decode(&record).unwrap();
        assert_eq!(card.grid()[0], [1, 16, 31, 46, 61]);
        assert_eq!(card.grid()[2], [3, 18, 0, 48, 63]);
        assert_eq!(card.grid()[4], [5, 20, 34, 50, 65]);
        assert_eq!(card.star(), Some((4, 0)));
    }

    #[test]
    fn decode_names_the_broken_rule() {
        let game = Us75::new(StarRule::Off);
        let mut record = [0u8; 25];
        game.encode(&game.draw(&mut stream(1, 0)), &mut record);
        let mut bad = record;
        bad[20] = 80;
        assert!(game
            .decode(&bad)
            .unwrap_err()
            .0
            .contains("column O row 1 holds 80"));
        let mut bad = record;
        bad[1] = bad[0];
        assert!(game.decode(&bad).unwrap_err().0.contains("column B holds"));
        let mut bad = record;
        bad[12] = 3;
        assert!(game
            .decode(&bad)
            .unwrap_err()
            .0
            .contains("centre byte is 3"));
        assert!(Us75::new(StarRule::On).decode(&record).is_err());
    }

    #[test]
    fn the_quick_decode_agrees_with_the_slow_one_on_any_record() {
        // Valid records of every star rule, each then changed in one byte
        // (to any value, so out of range, repeated or allowed), and records
        // of random bytes; each rule reads each record.
        let games = [StarRule::Off, StarRule::On, StarRule::Any].map(Us75::new);
        let mut rng = stream(4, 0);
        let mut records = Vec::new();
        for game in &games[..2] {
            for _ in 0..2000 {
                let mut record = [0u8; RECORD_SIZE];
                game.encode(&game.draw(&mut rng), &mut record);
                records.push(record);
                for at in 0..RECORD_SIZE {
                    let mut changed = record;
                    changed[at] = rng.next_u32() as u8;
                    records.push(changed);
                    // Another number of the same column, often a repeat.
                    changed[at] = record[5 * (at / 5) + (rng.next_u32() % 5) as usize];
                    records.push(changed);
                }
            }
        }
        for _ in 0..20_000 {
            let mut record = [0u8; RECORD_SIZE];
            record
                .iter_mut()
                .for_each(|b| *b = (rng.next_u32() % 80) as u8);
            records.push(record);
        }
        let (mut valid, mut refused) = (0, 0);
        for game in &games {
            for record in &records {
                let slow = game.decode_slowly(record).ok();
                assert_eq!(game.decode_quick(record), slow, "{record:?}");
                if slow.is_some() {
                    valid += 1
                } else {
                    refused += 1
                }
            }
        }
        assert!(valid > 10_000 && refused > 10_000, "{valid} {refused}");
        assert_eq!(games[0].decode_quick(&[1; 24]), None);
    }

    #[test]
    fn numbers_agree_with_nibble_by_nibble() {
        let mut rng = stream(11, 0);
        for _ in 0..10_000 {
            let bits = u128::from(rng.next_u64()) | u128::from(rng.next_u32()) << 64;
            assert_eq!(numbers(bits), numbers_by_nibble(bits), "{bits:x}");
        }
        // Nibble 0 is B's first number, nibble 23 O's last.
        let (first, rest) = numbers_by_nibble(0xE << 92 | 0x3);
        assert_eq!((first as u8, (rest >> 56) as u8), (4, 75));
    }

    #[test]
    fn keys_ignore_the_star() {
        let game = Us75::new(StarRule::Any);
        let mut rng = stream(3, 0);
        let card = Us75::new(StarRule::On).draw(&mut rng);
        let mut record = [0u8; 25];
        game.encode(&card, &mut record);
        record[12] = if record[12] == 0 { 1 } else { 0 };
        assert_eq!(game.decode(&record).unwrap().key(), card.key());
    }
}
