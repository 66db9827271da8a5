//! One sheet's content: its faces in their places, its own label, and
//! the crop marks (and with cut pieces, a mark at every piece's edges).

use super::face::{face_size, record};
use super::labels::text;
use super::{form_name, Fonts, Ink, Items, Plan, F_REGULAR};
use pdf_writer::{Content, Name};

/// One sheet's content.
pub(super) fn page(plan: &Plan, items: &Items, sheet: u64, fonts: &Fonts, slug: f32) -> Vec<u8> {
    let o = &plan.options;
    let (w, h) = o.paper;
    let (fw, fh) = face_size(plan);
    let ink = plan.ink(sheet);
    let mut g = Content::new();
    if o.background > 0.0 {
        // The tint covers the sheet and its bleed: after trimming, no
        // white edge.
        ink.tint(&mut g, o.background);
        g.rect(
            slug - o.bleed,
            slug - o.bleed,
            w + 2.0 * o.bleed,
            h + 2.0 * o.bleed,
        )
        .fill_nonzero();
    }
    let form = form_name(plan.ink_index(sheet));
    for (slot, (x, y)) in places(plan, slug).into_iter().enumerate() {
        let Some(index) = plan.item(sheet, slot) else {
            continue;
        };
        let item = &items.get(index);
        g.save_state();
        g.transform([1.0, 0.0, 0.0, 1.0, x, y]);
        if o.background > 0.0 {
            // The play area stays white, for the numbers' contrast.
            g.set_fill_gray(1.0);
            g.rect(0.0, 0.0, fw, fh).fill_nonzero();
        }
        g.x_object(Name(form.as_bytes()));
        // A group face's colour digit: the sheet's ink among the books'.
        let colour = plan.ink_index(sheet) as u8 + 1;
        let book = plan.book_of(sheet, slot);
        record(&mut g, plan, item, fonts, (ink, colour), book);
        g.restore_state();
    }
    // The sheet's own label, in the bottom margin.
    ink.fill(&mut g);
    let label = label(plan, sheet);
    let size = (o.margin * 0.4).clamp(5.0, 8.0);
    let lw = fonts.regular.width(&label, size);
    text(
        &mut g,
        F_REGULAR,
        size,
        slug + (w - lw) / 2.0,
        slug + (o.margin - size) / 2.0,
        &fonts.regular.encode(&label),
    );
    if o.marks {
        crop_marks(&mut g, plan, slug);
    }
    g.finish().into_vec()
}

/// Cut marks for every piece of an n-up sheet: a cut the safety margin
/// off each edge of each column and row of pieces (one cut where two
/// pieces' fall together), marked in the slug outside the bleed on both
/// sides.
fn piece_marks(g: &mut Content, plan: &Plan, slug: f32) {
    let o = &plan.options;
    let ((w, h), (fw, fh)) = (o.paper, face_size(plan));
    let (off, len) = (o.bleed + 3.0, 9.0);
    let places = places(plan, slug);
    let s = super::cut_offset(o);
    let mut xs: Vec<f32> = places
        .iter()
        .flat_map(|&(x, _)| [x - s, x + fw + s])
        .collect();
    let mut ys: Vec<f32> = places
        .iter()
        .flat_map(|&(_, y)| [y - s, y + fh + s])
        .collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f32::total_cmp);
        v.dedup_by(|a, b| (*a - *b).abs() < 0.01);
    }
    for x in xs {
        g.move_to(x, slug - off).line_to(x, slug - off - len);
        g.move_to(x, slug + h + off)
            .line_to(x, slug + h + off + len);
    }
    for y in ys {
        g.move_to(slug - off, y).line_to(slug - off - len, y);
        g.move_to(slug + w + off, y)
            .line_to(slug + w + off + len, y);
    }
    g.stroke();
}

/// Where each slot's face sits on a sheet (its bottom-left corner): the
/// grid centred inside the margins, a last row the count does not fill
/// centred under the others.
fn places(plan: &Plan, slug: f32) -> Vec<(f32, f32)> {
    let o = &plan.options;
    let ((w, h), (fw, fh), grid) = (o.paper, face_size(plan), plan.grid);
    let used_w = grid.cols as f32 * fw + (grid.cols as f32 - 1.0) * o.gap;
    let used_h = grid.rows as f32 * fh + (grid.rows as f32 - 1.0) * o.gap;
    let x0 = slug + (w - used_w) / 2.0;
    let y_top = slug + h - (h - used_h) / 2.0;
    let in_last = plan.per_page - (grid.rows - 1) * grid.cols;
    (0..plan.per_page)
        .map(|slot| {
            let (col, row) = (slot % grid.cols, slot / grid.cols);
            let short = if row + 1 == grid.rows {
                grid.cols - in_last
            } else {
                0
            };
            let x = x0 + (col as f32 + short as f32 / 2.0) * (fw + o.gap);
            (x, y_top - row as f32 * (fh + o.gap) - fh)
        })
        .collect()
}

/// Crop marks at the trim corners, outside the bleed.
fn crop_marks(g: &mut Content, plan: &Plan, slug: f32) {
    let o = &plan.options;
    let (w, h) = o.paper;
    g.set_stroke_gray(0.0);
    g.set_line_width(0.3);
    let off = o.bleed + 3.0;
    let len = 12.0;
    for (x, y, sx, sy) in [
        (slug, slug, -1.0, -1.0),
        (slug + w, slug, 1.0, -1.0),
        (slug, slug + h, -1.0, 1.0),
        (slug + w, slug + h, 1.0, 1.0),
    ] {
        g.move_to(x + sx * off, y).line_to(x + sx * (off + len), y);
        g.move_to(x, y + sy * off).line_to(x, y + sy * (off + len));
    }
    g.stroke();
    if plan.per_page > 1 {
        piece_marks(g, plan, slug);
    }
}

/// A sheet's own label: its stack (with `--stack`), its book (unless the
/// sheet is cut into pieces of books: each piece carries its own), its
/// number, its ink by name (black, the default, goes unsaid), the series
/// and the file's id.
fn label(plan: &Plan, sheet: u64) -> String {
    let o = &plan.options;
    let stack = match o.stack.filter(|_| plan.stacks() > 1) {
        Some(_) => {
            let (k, first, _) = plan.stack_of(sheet);
            format!(
                "Stack {} of {} (sheet {} in it) · ",
                k + 1,
                plan.stacks(),
                sheet - first + 1
            )
        }
        None => String::new(),
    };
    let book = match plan.book_of(sheet, 0).filter(|_| !plan.cut_into_books()) {
        Some((b, k)) => format!("{stack}Book {b} page {k} of {} · ", o.books.len()),
        None => stack,
    };
    // The sheet's ink by name, so a stack can be checked by eye (black,
    // the default, goes unsaid).
    let named = (o.ink_names.get(plan.ink_index(sheet)))
        .filter(|_| !o.books.is_empty() || o.ink != Ink::Gray)
        .map_or(String::new(), |n| format!(" · {n}"));
    if plan.series == plan.id {
        format!(
            "{book}Sheet {} of {}{named} · {}",
            plan.sheet_number(sheet),
            plan.sheet_number(plan.sheets.saturating_sub(1)),
            plan.id
        )
    } else {
        format!(
            "{book}Sheet {} of {}{named} · {} · {}",
            plan.sheet_number(sheet),
            plan.sheet_number(plan.sheets.saturating_sub(1)),
            plan.series,
            plan.id
        )
    }
}
