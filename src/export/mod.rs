//! Renderings of cards for people and for other programs: the boxed text
//! grid of `show`, and the line formats of `export` (txt, csv, jsonl).

pub mod strip;
pub mod text;

use std::fmt::Write;

/// Appends `numbers` to `out`, separated by `sep`, then a newline.
pub(crate) fn push_line<'a>(
    out: &mut String,
    numbers: impl IntoIterator<Item = &'a u8>,
    sep: char,
) {
    for (i, n) in numbers.into_iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        let _ = write!(out, "{n}");
    }
    out.push('\n');
}

/// Which horizontal line of a boxed grid.
#[derive(Clone, Copy)]
pub enum Rule {
    Top,
    Between,
    Bottom,
}

/// One horizontal line of a boxed grid of `cells` cells, each `width`
/// characters wide inside its borders, with a newline.
pub fn rule(kind: Rule, cells: usize, width: usize) -> String {
    let (left, mid, right) = match kind {
        Rule::Top => ('┌', '┬', '┐'),
        Rule::Between => ('├', '┼', '┤'),
        Rule::Bottom => ('└', '┴', '┘'),
    };
    let mut s = String::new();
    s.push(left);
    for c in 0..cells {
        s.push_str(&"─".repeat(width));
        s.push(if c + 1 == cells { right } else { mid });
    }
    s.push('\n');
    s
}
