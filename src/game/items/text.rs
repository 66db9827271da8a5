//! Renderings of items cards ([`Text`] for [`Items`]): labels, not ball
//! numbers, wherever people read them.
//!
//! - grid: a boxed grid, each label wrapped at spaces to fit its cell, the
//!   groups' names over the columns when grouped.
//! - txt: one card a line, its labels row-major, separated by tabs.
//! - CSV: `card,r1c1,…`, the labels (the free cell's text at the centre);
//!   JSON: `{"card":N,"grid":[[labels]],"items":[[ball numbers]]}`.

use super::{Card, Deck, Items};
use crate::game::Text;
use crate::text::{centred, rule, width, wrap, Rule};
use std::fmt::Write;

/// The widest a cell of `show`'s grid grows, in display columns.
const MAX_CELL: usize = 14;

impl Items {
    /// Row `r`'s labels.
    fn row<'a>(&self, card: &'a Card, r: usize) -> impl Iterator<Item = &'static str> + 'a {
        let deck: &'static Deck = self.deck();
        let cols = deck.cols;
        card.cells()[r * cols..(r + 1) * cols]
            .iter()
            .map(move |&n| deck.label(n))
    }
}

/// A card's cells (ball numbers, row-major) as a boxed grid of labels,
/// each wrapped at spaces to fit its cell; with `called`, a called item is
/// shown `[in brackets]`, the free cell always so.
pub fn grid(deck: &Deck, cells: &[u8], called: Option<&dyn Fn(u8) -> bool>) -> String {
    let d = deck;
    let letters = d.facts().letters;
    let shown = |n: u8| -> String {
        let label = d.label(n);
        let marked = called.is_some_and(|called| n == 0 || called(n));
        if marked {
            format!("[{label}]")
        } else {
            label.to_string()
        }
    };
    let cells: Vec<String> = cells[..d.rows * d.cols].iter().map(|&n| shown(n)).collect();
    let widest = cells
        .iter()
        .map(String::as_str)
        .chain(letters.iter().copied())
        .map(width)
        .max()
        .unwrap_or(1);
    let cell = widest.clamp(6, MAX_CELL);
    let mut out = String::new();
    if !letters.is_empty() {
        out.push(' ');
        for letter in letters {
            let letter = wrap(letter, cell).swap_remove(0);
            let _ = write!(out, "{} ", centred(&letter, cell + 2));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str(&rule(Rule::Top, d.cols, cell + 2));
    for (r, row) in cells.chunks(d.cols).enumerate() {
        if r > 0 {
            out.push_str(&rule(Rule::Between, d.cols, cell + 2));
        }
        let wrapped: Vec<Vec<String>> = row.iter().map(|l| wrap(l, cell)).collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        for line in 0..height {
            out.push('│');
            for lines in &wrapped {
                let text = lines.get(line).map_or("", String::as_str);
                let _ = write!(out, " {} │", centred(text, cell));
            }
            out.push('\n');
        }
    }
    out.push_str(&rule(Rule::Bottom, d.cols, cell + 2));
    out
}

impl Text for Items {
    fn grid(&self, card: &Card, _face: usize) -> String {
        grid(self.deck(), card.cells(), None)
    }

    fn legend(&self, _card: &Card) -> Option<String> {
        let d = self.deck();
        Some(format!("items: {}", d.describe()))
    }

    fn txt_line(&self, card: &Card, out: &mut String) {
        let d = self.deck();
        for r in 0..d.rows {
            for (c, label) in self.row(card, r).enumerate() {
                if r + c > 0 {
                    out.push('\t');
                }
                out.push_str(label);
            }
        }
        out.push('\n');
    }

    fn csv_header(&self) -> Vec<String> {
        crate::text::card_csv_header(self.deck().rows, self.deck().cols)
    }

    /// The card number, then its labels row by row.
    fn csv_row(
        &self,
        _record: u64,
        number: &str,
        card: &Card,
        _face: usize,
        row: &mut csv::StringRecord,
    ) {
        row.push_field(number);
        for r in 0..self.deck().rows {
            for label in self.row(card, r) {
                row.push_field(&crate::text::spreadsheet_safe(label));
            }
        }
    }

    fn json_line(&self, number: u64, card: &Card, out: &mut String) {
        let d = self.deck();
        let labels: Vec<Vec<&str>> = (0..d.rows).map(|r| self.row(card, r).collect()).collect();
        let numbers: Vec<&[u8]> = card.cells()[..d.rows * d.cols].chunks(d.cols).collect();
        let value = serde_json::json!({"card": number, "grid": labels, "items": numbers});
        let _ = writeln!(out, "{value}");
    }
}
