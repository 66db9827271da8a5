//! US 80-ball cards: 4×4, column 1 holds 1–20, column 2 21–40, column 3
//! 41–60, column 4 61–80, four distinct numbers a column in random order,
//! no free cell.
//!
//! A column is one uniform rank of its ordered draw (20·19·18·17 = 116,280
//! ways), drawn exactly by Lemire's method from one 32-bit word (more only
//! on a rejection), whose mixed-radix digits are the swaps of a partial
//! Fisher–Yates shuffle of the column's twenty numbers. So every card is
//! equally likely: (20·19·18·17)⁴ of them.
//!
//! The record is 16 bytes, column-major (the first column top to bottom,
//! then the second, …), numbers as bytes. The exact key is each number less
//! its column's lowest, 5 bits a cell, in record order (80 bits).
//!
//! [`text`] holds the card's renderings (grid, txt, CSV, JSON).

pub mod text;

use super::facts::{Facts, LabelAt, Paper};
use super::patterns::{self, Builtin, Ways};
use super::{Face, Game, RuleViolation, Spec};
use crate::dedup::Keyed;
use crate::seed::{below_u32, Rng};
use std::hash::{Hash, Hasher};

/// Bytes per record.
pub const RECORD_SIZE: usize = 16;
/// Rows and columns of a card.
const SIDE: usize = 4;
/// Numbers a column draws from.
const SPAN: u8 = 20;
/// Ordered draws of 4 of 20.
const WAYS: u32 = 20 * 19 * 18 * 17;

/// The 80-ball game's facts.
pub const FACTS: Facts = Facts {
    short_name: "80-ball",
    describe: "80-ball (US, 4×4, no free cell)",
    noun: "card",
    face_noun: "card",
    faces: 1,
    rows: SIDE,
    cols: SIDE,
    balls: 80,
    free: 0,
    letters: &[],
    patterns: &PATTERNS,
    paper: Paper {
        layouts: &[1, 2, 3, 4, 6, 8, 9, 12, 16, 20],
        default_layout: 6,
        label_at: LabelAt::Below,
        label: (1.0, 1.9),
        gap: 0.0,
    },
};

const PATTERNS: [Builtin; 7] = [
    Builtin {
        name: "line",
        about: "any row, column or diagonal",
        ways: |_| Ways::Fixed(patterns::lines(SIDE, &[])),
    },
    Builtin {
        name: "row",
        about: "any row",
        ways: |_| Ways::Fixed(patterns::rows(SIDE, SIDE)),
    },
    Builtin {
        name: "column",
        about: "any column",
        ways: |_| Ways::Fixed(patterns::columns(SIDE, SIDE, &[])),
    },
    Builtin {
        name: "diagonal",
        about: "either diagonal",
        ways: |_| Ways::Fixed(patterns::diagonals(SIDE)),
    },
    Builtin {
        name: "four-corners",
        about: "the four corners",
        ways: |_| Ways::Fixed(vec![patterns::corners(SIDE, SIDE)]),
    },
    Builtin {
        name: "centre",
        about: "the four cells in the middle",
        ways: |_| {
            Ways::Fixed(vec![patterns::way(
                "the centre four",
                &patterns::block(SIDE, (1, 1), 2),
            )])
        },
    },
    Builtin {
        name: "coverall",
        about: "every cell",
        ways: |_| Ways::Fixed(vec![patterns::every_cell(SIDE, SIDE)]),
    },
];

/// The exact key of a card: its 16 numbers less their columns' lowest,
/// 5 bits each, in record order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key80(u128);

impl Hash for Key80 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // One `write`: the set's hasher runs XXH3 once.
        state.write(&self.0.to_le_bytes()[..10]);
    }
}

/// One 80-ball card: its numbers column by column, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    columns: [[u8; SIDE]; SIDE],
}

impl Card {
    /// The card's exact key.
    pub fn key(&self) -> Key80 {
        let mut key = 0u128;
        for (c, column) in self.columns.iter().enumerate() {
            for (r, &n) in column.iter().enumerate() {
                key |= u128::from(n - low(c)) << (5 * (SIDE * c + r));
            }
        }
        Key80(key)
    }

    /// The numbers as a row-major 4×4 grid.
    pub fn grid(&self) -> [[u8; SIDE]; SIDE] {
        std::array::from_fn(|r| std::array::from_fn(|c| self.columns[c][r]))
    }
}

/// The lowest number of column `c`.
fn low(c: usize) -> u8 {
    SPAN * c as u8 + 1
}

/// The 80-ball game (no parameters).
#[derive(Clone, Copy, Debug, Default)]
pub struct Us80;

impl Us80 {
    /// The column of rank `rank` (below [`WAYS`]): digits d₀ < 20, d₁ < 19,
    /// d₂ < 18, d₃ < 17 (d₀ most significant), position i swapped with
    /// i + dᵢ, the first four positions kept.
    fn column(c: usize, mut rank: u32) -> [u8; SIDE] {
        let mut digits = [0u32; SIDE];
        for i in (0..SIDE).rev() {
            let radix = u32::from(SPAN) - i as u32;
            digits[i] = rank % radix;
            rank /= radix;
        }
        let mut numbers: [u8; SPAN as usize] = std::array::from_fn(|k| low(c) + k as u8);
        for (i, &d) in digits.iter().enumerate() {
            numbers.swap(i, i + d as usize);
        }
        [numbers[0], numbers[1], numbers[2], numbers[3]]
    }
}

impl Keyed for Us80 {
    type Card = Card;
    type Key = Key80;
    type Keys = [Key80; 1];

    #[inline]
    fn keys(&self, card: &Card) -> [Key80; 1] {
        [card.key()]
    }

    fn keys_per_card(&self) -> usize {
        1
    }
}

impl Game for Us80 {
    fn spec(&self) -> Spec {
        Spec::Us80
    }

    #[inline]
    fn draw(&self, rng: &mut Rng) -> Card {
        Card {
            columns: std::array::from_fn(|c| Us80::column(c, below_u32(rng, WAYS))),
        }
    }

    fn classes(&self) -> Result<u32, &'static str> {
        Ok(WAYS)
    }

    fn draw_in(&self, rng: &mut Rng, classes: &std::ops::Range<u32>) -> Card {
        let n = classes.end - classes.start;
        Card {
            columns: std::array::from_fn(|c| {
                let rank = match c {
                    0 => classes.start + below_u32(rng, n),
                    _ => below_u32(rng, WAYS),
                };
                Us80::column(c, rank)
            }),
        }
    }

    fn class_of(&self, card: &Card) -> Option<u32> {
        let picks = card.columns[0].map(|n| n - low(0));
        crate::game::rank_of(&picks, SPAN)
    }

    fn encode(&self, card: &Card, record: &mut [u8]) {
        for (c, column) in card.columns.iter().enumerate() {
            record[SIDE * c..SIDE * c + SIDE].copy_from_slice(column);
        }
    }

    fn decode(&self, record: &[u8]) -> Result<Card, RuleViolation> {
        if record.len() != RECORD_SIZE {
            return Err(RuleViolation(format!(
                "record is {} bytes, expected {RECORD_SIZE}",
                record.len()
            )));
        }
        let mut columns = [[0u8; SIDE]; SIDE];
        for (c, column) in columns.iter_mut().enumerate() {
            let (low, high) = (low(c), low(c) + SPAN - 1);
            let mut seen = 0u32;
            for (r, cell) in column.iter_mut().enumerate() {
                let n = record[SIDE * c + r];
                if !(low..=high).contains(&n) {
                    return Err(RuleViolation(format!(
                        "column {} row {} holds {n}, outside {low}–{high}",
                        c + 1,
                        r + 1
                    )));
                }
                if seen & 1 << (n - low) != 0 {
                    return Err(RuleViolation(format!("column {} holds {n} twice", c + 1)));
                }
                seen |= 1 << (n - low);
                *cell = n;
            }
        }
        Ok(Card { columns })
    }

    fn face(&self, card: &Card, _face: usize) -> Face {
        let mut face = Face::new(SIDE, SIDE);
        for (r, row) in card.grid().iter().enumerate() {
            face.cells[SIDE * r..SIDE * r + SIDE].copy_from_slice(row);
        }
        face
    }

    fn encode_faces(&self, faces: &[Face], record: &mut [u8]) {
        for r in 0..SIDE {
            for c in 0..SIDE {
                record[SIDE * c + r] = faces[0].cells[SIDE * r + c];
            }
        }
    }

    fn with_spec(spec: Spec) -> Option<Us80> {
        matches!(spec, Spec::Us80).then_some(Us80)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::stream;

    #[test]
    fn drawn_cards_follow_the_rules_and_round_trip() {
        let game = Us80;
        let mut rng = stream(3, 0);
        let mut record = [0u8; RECORD_SIZE];
        for _ in 0..10_000 {
            let card = game.draw(&mut rng);
            game.encode(&card, &mut record);
            assert_eq!(game.decode(&record), Ok(card));
            let face = game.face(&card, 0);
            for c in 0..SIDE {
                let mut column: Vec<u8> = (0..SIDE).map(|r| face.at(r, c)).collect();
                assert!(column.iter().all(|n| (low(c)..low(c) + SPAN).contains(n)));
                column.sort();
                column.dedup();
                assert_eq!(column.len(), SIDE);
            }
        }
    }

    #[test]
    fn every_rank_is_a_different_ordered_draw() {
        let mut seen = std::collections::HashSet::new();
        for rank in 0..WAYS {
            assert!(seen.insert(Us80::column(1, rank)));
        }
        assert_eq!(seen.len(), WAYS as usize);
    }

    #[test]
    fn keys_are_exact() {
        let mut rng = stream(8, 0);
        let mut keys = std::collections::HashMap::new();
        for _ in 0..20_000 {
            let card = Us80.draw(&mut rng);
            if let Some(other) = keys.insert(card.key(), card) {
                assert_eq!(other, card);
            }
        }
        let a = Card {
            columns: [
                [1, 2, 3, 4],
                [21, 22, 23, 24],
                [41, 42, 43, 44],
                [61, 62, 63, 64],
            ],
        };
        let mut b = a;
        b.columns[3].swap(0, 1);
        assert_ne!(a.key(), b.key());
    }

    #[test]
    fn decode_names_the_broken_rule() {
        let mut record: Vec<u8> = (0..16).map(|i| low(i / 4) + (i % 4) as u8).collect();
        Us80.decode(&record).unwrap();
        record[5] = 45;
        assert_eq!(
            Us80.decode(&record).unwrap_err().0,
            "column 2 row 2 holds 45, outside 21–40"
        );
        record[5] = 21;
        assert_eq!(
            Us80.decode(&record).unwrap_err().0,
            "column 2 holds 21 twice"
        );
        assert!(Us80
            .decode(&record[..15])
            .unwrap_err()
            .0
            .contains("15 bytes"));
    }

    #[test]
    fn value_stability_first_card_of_seed_42() {
        let card = Us80.draw(&mut stream(42, 0));
        assert_eq!(
            card.grid(),
            [
                [3, 26, 55, 71],
                [20, 34, 46, 61],
                [8, 24, 57, 66],
                [5, 21, 43, 74]
            ]
        );
    }
}
