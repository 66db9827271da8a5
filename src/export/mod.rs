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
