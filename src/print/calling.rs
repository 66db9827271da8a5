//! Calling cards: every item of an items game once, on cards to cut out,
//! for a caller without a screen (draw one from a hat, call it, set it
//! aside). Each card shows its label as large as fits, the item's number
//! in a corner (what the claim check and the calls file use), and the
//! list's name; dashed lines show where to cut.

use super::font::Font;
use super::labels;
use super::plain::{self, F_BOLD, F_REGULAR};
use super::PrintError;
use crate::game::items::Deck;
use pdf_writer::Content;

/// Calling cards across and down a page.
const ACROSS: usize = 3;
const DOWN: usize = 6;

/// The calling cards of `deck`, each and every page named `name` (the
/// list's name, or the print's title), on pages of `paper` (points) inside
/// `margin`, as PDF bytes.
pub fn calling_cards(
    deck: &Deck,
    name: &str,
    paper: (f32, f32),
    margin: f32,
) -> Result<Vec<u8>, PrintError> {
    labels::check(Some(deck), None)?;
    let (w, h) = paper;
    let (cw, ch) = (
        (w - 2.0 * margin) / ACROSS as f32,
        (h - 2.0 * margin) / DOWN as f32,
    );
    if cw < 72.0 || ch < 36.0 {
        return Err(PrintError::NoRoom);
    }
    let mut chars: String = deck.list.labels().collect();
    chars.push_str(name);
    chars.push_str("0123456789 ·ofpage");
    let bold = Font::bold(&chars).map_err(PrintError::MissingGlyph)?;
    let regular = Font::regular(&chars).map_err(PrintError::MissingGlyph)?;
    let n = deck.list.items.len();
    let per = ACROSS * DOWN;
    let pages = n.div_ceil(per);
    let title = format!("Calling cards of '{name}' ({n} items)");
    Ok(plain::document(
        &title,
        paper,
        (&regular, &bold),
        pages,
        |p, g| {
            for slot in 0..per.min(n - p * per) {
                let (col, row) = (slot % ACROSS, slot / ACROSS);
                let corner = (margin + col as f32 * cw, h - margin - row as f32 * ch);
                let ball = (p * per + slot + 1) as u8;
                card(g, (deck, name), (&regular, &bold), ball, corner, (cw, ch));
            }
            let footer = format!("{name} · page {} of {pages}", p + 1);
            let footer = regular.encode(&footer);
            labels::text(g, F_REGULAR, 7.0, margin, margin / 2.0, &footer);
        },
    ))
}

/// One calling card at `(x, top)`, `cw` × `ch` points: its cut line, the
/// label as large as fits, the item's number and the list's name.
fn card(
    g: &mut Content,
    (deck, name): (&Deck, &str),
    (regular, bold): (&Font, &Font),
    ball: u8,
    (x, top): (f32, f32),
    (cw, ch): (f32, f32),
) {
    g.set_line_width(0.5);
    g.set_dash_pattern([4.0, 3.0], 0.0);
    g.set_stroke_gray(0.55);
    g.rect(x, top - ch, cw, ch).stroke();
    let laid = labels::fit(bold, deck.label(ball), 0.86 * cw, 0.62 * ch, 0.3 * ch);
    g.set_fill_gray(0.0);
    labels::draw(g, bold, F_BOLD, &laid, (x, top - 0.12 * ch, cw, 0.7 * ch));
    let small = (0.11 * ch).min(9.0);
    let number = ball.to_string();
    let y = top - 6.0 - small * 1.3;
    labels::text(g, F_BOLD, small * 1.3, x + 6.0, y, &bold.encode(&number));
    let nw = regular.width(name, small);
    let at = (x + (cw - nw) / 2.0, top - ch + 6.0);
    labels::text(g, F_REGULAR, small, at.0, at.1, &regular.encode(name));
}
