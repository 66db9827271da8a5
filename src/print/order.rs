//! Where each record lands and the numbers it carries: the sheet and slot
//! of each record printed (sequential, or a cut stack in lifts of
//! `--stack` sheets), the book, pile and place a cut piece is bound into,
//! the strips, sheets, books and cartons numbered on from an order a
//! series continues (`--after`, or the records before the file's first
//! serial), and the cuts' safety margin off every piece.

use super::{Options, Order, Plan, PrintError};
use crate::cardfile::Header;

/// The numbers an earlier order of a series used last, as its packing
/// list gives them: a run that continues it numbers its books, cartons
/// and sheets on from these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct After {
    pub book: u64,
    pub carton: u64,
    pub sheet: u64,
}

/// The room a stroke on a piece's edge takes outside it (half the grid's
/// 0.75 pt line, and as much again for the press's spread): a cut's safety margin is measured from
/// the ink, not from the line's centre.
pub const EDGE_INK: f32 = 1.0;

/// How far a piece's cut stands off the piece's box, points.
pub fn cut_offset(options: &Options) -> f32 {
    options.safety + EDGE_INK
}

/// Refuses cut marks that cannot stand the safety margin off every piece:
/// gaps too narrow for a cut clear of both neighbours, or margins too
/// narrow for the outer cuts (n-up sheets with marks only).
pub(super) fn safe_cuts(options: &Options, per_page: usize) -> Result<(), PrintError> {
    if !options.marks || per_page < 2 {
        return Ok(());
    }
    let mm = |pt: f32| pt * 25.4 / 72.0;
    let off = cut_offset(options);
    if options.gap + 0.01 < 2.0 * off {
        return Err(PrintError::NoSafety {
            gap_mm: mm(options.gap),
            safety_mm: mm(options.safety),
            need_mm: mm(2.0 * off),
        });
    }
    if options.margin + 0.01 < off {
        return Err(PrintError::MarginInsideSafety {
            margin_mm: mm(options.margin),
            safety_mm: mm(off),
        });
    }
    Ok(())
}

/// The sheets a lift of at most `n` sheets holds in books of `k` pages:
/// whole books (500 in books of 6 lift as 498).
pub fn stack_sheets(n: u64, k: u64) -> u64 {
    n / k.max(1) * k.max(1)
}

/// Records of the series before `header`'s first face: none for an
/// import (its serials are its maker's), else the records its first serial
/// follows (a strip of tickets 360,001–360,006 follows 60,000 strips).
pub(super) fn records_before(header: &Header) -> u64 {
    match header.serials() {
        Some(_) => 0,
        None => (header.first_face() - 1).div_ceil(header.spec.faces() as u64),
    }
}

impl Plan {
    /// The record (from the first printed, 0-based) in slot `slot` of sheet
    /// `sheet`, if any.
    pub fn item(&self, sheet: u64, slot: usize) -> Option<u64> {
        let n = self.per_page as u64;
        let index = match self.options.order {
            Order::Sequential => sheet * n + slot as u64,
            // Each stack is cut on its own: its piles follow one another.
            Order::CutStack => {
                let (_, first, sheets) = self.stack_of(sheet);
                first * n + slot as u64 * sheets + (sheet - first)
            }
        };
        (index < self.items).then_some(index)
    }

    /// Sheets a stack: `--stack` in a cut stack (rounded down to whole
    /// books), else every sheet.
    pub fn stack_size(&self) -> u64 {
        let whole = self.sheets.max(1);
        let k = self.options.books.len().max(1) as u64;
        match (self.options.order, self.options.stack) {
            (Order::CutStack, Some(n)) => stack_sheets(n, k).clamp(1, whole),
            _ => whole,
        }
    }

    /// The stacks the sheets are cut in (one without `--stack`).
    pub fn stacks(&self) -> u64 {
        self.sheets.div_ceil(self.stack_size()).max(1)
    }

    /// The stack (from 0) sheet `sheet` is cut in, its first sheet and how
    /// many sheets it holds (the last may hold fewer).
    pub fn stack_of(&self, sheet: u64) -> (u64, u64, u64) {
        let size = self.stack_size();
        let first = sheet / size * size;
        (sheet / size, first, size.min(self.sheets - first))
    }

    /// The number sheet `sheet` (from 0) carries: from 1, or numbered on
    /// from a continued series' sheets.
    pub fn sheet_number(&self, sheet: u64) -> u64 {
        // Never under the earlier order's (`--after`), nor under what the
        // series' records before fill: a gap is harmless, a repeat is not.
        let filled = self.before.div_ceil(self.per_page as u64);
        let before = self.options.after.map_or(0, |a| a.sheet).max(filled);
        before + sheet + 1
    }

    /// The cartons of the series before this run's first, `per` books to
    /// a carton.
    pub fn cartons_before(&self, per: u64) -> u64 {
        let filled = self.books_before().div_ceil(per.max(1));
        self.options.after.map_or(0, |a| a.carton).max(filled)
    }

    /// The number a record (from 1 in the file) carries: numbered on from
    /// a continued series' (a strip of tickets 360,001–360,006 is strip
    /// 60,001).
    pub fn record_number(&self, record: u64) -> u64 {
        self.before + record
    }

    /// The books of the series before this file's first record: the
    /// earlier order's (`--after`), or as many as its records fill.
    pub fn books_before(&self) -> u64 {
        let k = self.options.books.len() as u64;
        let filled = match k {
            0 => self.before.div_ceil(self.per_page as u64),
            _ if self.cut_into_books() => self.before.div_ceil(k),
            _ => self.before.div_ceil(k * self.per_page as u64),
        };
        self.options.after.map_or(0, |a| a.book).max(filled)
    }

    /// The book (from 1, or numbered on from a continued series') and
    /// page (from 1) the piece in slot `slot` of sheet `sheet` (from 0) is
    /// bound into after cutting, with `--book-pages`. A book is K sheets:
    /// in sequential order the sheets themselves, n faces a page (6-on
    /// paper); cut-stack n-up, each stack is cut into piles, pile j (the
    /// slot) a run of whole books numbered pile after pile, stack after
    /// stack, so each book holds consecutive faces.
    pub fn book_of(&self, sheet: u64, slot: usize) -> Option<(u64, u64)> {
        let k = self.options.books.len() as u64;
        if k == 0 {
            return None;
        }
        let (n, slot, page) = (self.per_page as u64, slot as u64, sheet % k + 1);
        let local = match self.options.order {
            Order::CutStack if n > 1 => {
                let (_, first, sheets) = self.stack_of(sheet);
                first / k * n + slot * sheets.div_ceil(k) + (sheet - first) / k + 1
            }
            _ => sheet / k + 1,
        };
        Some((self.books_before() + local, page))
    }

    /// Where the piece in slot `slot` of sheet `sheet` lies after cutting:
    /// its stack (from 1), its pile in the stack (from 1) and its place in
    /// the pile from the first sheet (from 1); for a sheet not cut into
    /// piles, its stack, pile 1, and its place in the stack.
    pub fn pile_of(&self, sheet: u64, slot: usize) -> (u64, u64, u64) {
        let (stack, first, _) = self.stack_of(sheet);
        let cut = self.options.order == Order::CutStack && self.per_page > 1;
        let pile = if cut { slot as u64 + 1 } else { 1 };
        (stack + 1, pile, sheet - first + 1)
    }

    /// Whether the sheets are cut into pieces, each bound into a book of
    /// its own (cut-stack, more than one a page).
    pub fn cut_into_books(&self) -> bool {
        !self.options.books.is_empty() && self.per_page > 1 && self.options.order == Order::CutStack
    }
}
