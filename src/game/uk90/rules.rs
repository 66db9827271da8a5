//! The rule sets of 90-ball strips: which ticket rows are valid and how many
//! numbers a ticket column may hold.
//!
//! A strip is six tickets of 3 rows × 9 columns. Column 1 holds 1–9,
//! columns 2–8 hold ten numbers each (10–19, …, 70–79), column 9 holds 80–90;
//! the strip holds every number 1–90 once. Every ticket row holds exactly 5
//! numbers, and each ticket column holds its numbers in ascending order, top
//! to bottom.

/// Tickets in a strip.
pub const TICKETS: usize = 6;

/// How many numbers each column of the strip holds.
pub const COLUMN_SIZES: [u8; 9] = [9, 10, 10, 10, 10, 10, 10, 10, 11];

/// A rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// UK housie: each ticket column holds 1–3 numbers.
    Uk,
    /// The stricter Spanish-style rules: each ticket column holds 1–2
    /// numbers, and no row has three blanks or four numbers in a run.
    Es,
}

impl Rules {
    /// The name users type (`--rules`).
    pub fn name(self) -> &'static str {
        match self {
            Rules::Uk => "uk",
            Rules::Es => "es",
        }
    }

    /// The rule-set byte stored in the card file's header.
    pub fn byte(self) -> u8 {
        match self {
            Rules::Uk => 0,
            Rules::Es => 1,
        }
    }

    /// The rule set of a header byte.
    pub fn from_byte(b: u8) -> Option<Rules> {
        match b {
            0 => Some(Rules::Uk),
            1 => Some(Rules::Es),
            _ => None,
        }
    }

    /// The most numbers a ticket column may hold.
    pub fn max_per_column(self) -> u8 {
        match self {
            Rules::Uk => 3,
            Rules::Es => 2,
        }
    }

    /// Whether a run's strips draw from streams of their own, [`super::BATCH`]
    /// at a time ([`super::Uk90::draw_many`]), instead of one after another
    /// from their chunk's stream. uk's tables (~50 MB) live far out in
    /// memory, and strips drawn together overlap their cache misses (1 M
    /// strips 18 % faster); es's fit in cache, and a stream per strip
    /// measured 3 % slower. Part of the algorithm: changing it changes the
    /// strips a seed gives.
    pub fn own_streams(self) -> bool {
        match self {
            Rules::Uk => true,
            Rules::Es => false,
        }
    }

    /// Whether a row (bit c set = column c holds a number) is valid.
    pub fn row_ok(self, row: u16) -> bool {
        if row >> 9 != 0 || row.count_ones() != 5 {
            return false;
        }
        match self {
            Rules::Uk => true,
            Rules::Es => {
                let blanks = !row & 0x1FF;
                // No three blanks in a run, no four numbers in a run.
                blanks & (blanks >> 1) & (blanks >> 2) == 0
                    && row & (row >> 1) & (row >> 2) & (row >> 3) == 0
            }
        }
    }

    /// Every valid row, ascending.
    pub fn rows(self) -> Vec<u16> {
        (0u16..512).filter(|&r| self.row_ok(r)).collect()
    }
}

/// The strip column (0–8) of a number 1–90.
pub fn column_of(number: u8) -> usize {
    (usize::from(number) / 10).min(8)
}

/// The smallest number of strip column `c`.
pub fn column_base(c: usize) -> u8 {
    if c == 0 {
        1
    } else {
        10 * c as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_counts() {
        assert_eq!(Rules::Uk.rows().len(), 126);
        assert_eq!(Rules::Es.rows().len(), 79);
    }

    #[test]
    fn columns() {
        assert_eq!(column_of(1), 0);
        assert_eq!(column_of(9), 0);
        assert_eq!(column_of(10), 1);
        assert_eq!(column_of(79), 7);
        assert_eq!(column_of(80), 8);
        assert_eq!(column_of(90), 8);
        let total: u32 = COLUMN_SIZES.iter().map(|&n| u32::from(n)).sum();
        assert_eq!(total, 90);
        for c in 0..9 {
            assert_eq!(column_of(column_base(c)), c);
            assert_eq!(column_of(column_base(c) + COLUMN_SIZES[c] - 1), c);
        }
    }
}
