//! How far a face is from a pattern, from masks over its cells (the
//! cells holding a number, and those called): what the hall's tracker
//! counts call by call ([`crate::hall::track`]) and the phones show as
//! "to go".

use super::{Pattern, Ways};

/// A pattern as a page works it out ([`Pattern::aim`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Aim {
    /// Masks over a face's cells (bit `row × cols + col`), any of which wins.
    pub ways: Vec<u32>,
    /// The first and last numbers of the top and bottom rows.
    pub corners: bool,
    /// Any this many numbers (0: not this kind).
    pub any: u8,
}

impl Pattern {
    /// The pattern as a page works out "to go" from a face's cells: its
    /// fixed ways (masks over the cells), or the ticket's numbered corners,
    /// or any `k` numbers.
    pub fn aim(&self) -> Aim {
        match &self.kind {
            Ways::Fixed(ways) => Aim {
                ways: ways.iter().map(|w| w.mask).collect(),
                corners: false,
                any: 0,
            },
            Ways::NumberedCorners => Aim {
                ways: Vec::new(),
                corners: true,
                any: 0,
            },
            Ways::AnyNumbers(k) => Aim {
                ways: Vec::new(),
                corners: false,
                any: *k,
            },
        }
    }

    /// How many numbers a face still needs for the pattern, from masks
    /// over its cells: `numbered` (the cells holding a number) and `marked`
    /// (those called); `rows` × `cols` is the face's shape. [`CANNOT`] when
    /// no way holds a number of the face. 0 is a face that holds the
    /// pattern, as [`Pattern::completion`] finds it.
    pub fn to_go(&self, rows: usize, cols: usize, numbered: u32, marked: u32) -> u8 {
        let open = numbered & !marked;
        match &self.kind {
            Ways::Fixed(ways) => (ways.iter())
                .filter(|w| w.mask & numbered != 0)
                .map(|w| (w.mask & open).count_ones() as u8)
                .min()
                .unwrap_or(CANNOT),
            Ways::NumberedCorners => match corners_of(numbered, rows, cols) {
                0 => CANNOT,
                mask => (mask & open).count_ones() as u8,
            },
            Ways::AnyNumbers(k) => {
                let have = numbered.count_ones();
                if have == 0 {
                    return CANNOT;
                }
                let need = u32::from(*k).min(have).max(1);
                need.saturating_sub((numbered & marked).count_ones()) as u8
            }
        }
    }

    /// [`Pattern::to_go`] of a face whose cell `cell` was just marked
    /// (`marked` includes it), knowing it was `before`: only the ways
    /// through that cell can have come nearer.
    pub fn to_go_marking(
        &self,
        rows: usize,
        cols: usize,
        numbered: u32,
        marked: u32,
        cell: usize,
        before: u8,
    ) -> u8 {
        match &self.kind {
            Ways::Fixed(ways) => {
                let open = numbered & !marked;
                (ways.iter())
                    .filter(|w| through(w.mask, cell, numbered))
                    .map(|w| (w.mask & open).count_ones() as u8)
                    .fold(before, u8::min)
            }
            _ => self.to_go(rows, cols, numbered, marked),
        }
    }

    /// Whether a face that holds the pattern (`to_go` 0) has a way that the
    /// number in cell `cell` completes, as [`Pattern::completes_at`] asks
    /// of the last call: a complete way through that cell (any five numbers:
    /// the face holds it).
    pub fn complete_through(
        &self,
        rows: usize,
        cols: usize,
        numbered: u32,
        marked: u32,
        cell: usize,
    ) -> bool {
        let open = numbered & !marked;
        let complete = |mask: u32| through(mask, cell, numbered) && mask & open == 0;
        match &self.kind {
            Ways::Fixed(ways) => ways.iter().any(|w| complete(w.mask)),
            Ways::NumberedCorners => complete(corners_of(numbered, rows, cols)),
            Ways::AnyNumbers(_) => {
                numbered >> cell & 1 == 1 && self.to_go(rows, cols, numbered, marked) == 0
            }
        }
    }
}

/// Whether the way `mask` goes through cell `cell` of a face whose
/// numbered cells are `numbered`, and holds a number of it.
fn through(mask: u32, cell: usize, numbered: u32) -> bool {
    mask >> cell & 1 == 1 && mask & numbered != 0
}

/// What [`Pattern::to_go`] answers for a face that can never hold the pattern.
pub const CANNOT: u8 = u8::MAX;

/// The first and last numbered cells of the top and bottom rows, from the
/// mask of numbered cells of a `rows` × `cols` face.
fn corners_of(numbered: u32, rows: usize, cols: usize) -> u32 {
    let mut mask = 0;
    for row in [0, rows - 1] {
        let line = numbered >> (row * cols) & ((1 << cols) - 1);
        if line != 0 {
            let first = line.trailing_zeros() as usize;
            let last = 31 - line.leading_zeros() as usize;
            mask |= 1 << (row * cols + first) | 1 << (row * cols + last);
        }
    }
    mask
}
