//! Carton labels (`print --carton-labels FILE.pdf`): one for each carton of
//! the packing list, two a page, to cut apart and stick on the carton. As
//! bingo paper's cartons are labelled: carton k of n, the maker, the series,
//! the serials it holds and its top sheet's, the inks in page order, the
//! cut (faces a sheet), packets (books) a carton and pages a packet.

use super::font::Font;
use super::labels;
use super::packing::PackRow;
use super::plain::{self, F_BOLD, F_REGULAR};
use super::{Plan, PrintError};
use pdf_writer::Content;

/// Labels a page, one above the other.
const PER_PAGE: usize = 2;

/// What the labels say beyond the packing list's rows.
pub struct Carton<'a> {
    /// The maker (`--maker`), if named.
    pub maker: Option<&'a str>,
}

/// The lines of carton `row`'s label: (bold, text).
fn lines(plan: &Plan, carton: &Carton, row: &PackRow) -> Vec<(bool, String)> {
    let serial = |n: u64| plan.header.serial(n);
    let noun = plan.spec.face_noun();
    let mut out = vec![(true, format!("CARTON {} OF {}", row.number, row.of))];
    if let Some(maker) = carton.maker {
        out.push((false, format!("Maker: {maker}")));
    }
    let numbered = match row.series.as_str() {
        "" => String::new(),
        s => format!(" · series no. {s}"),
    };
    out.push((false, format!("Series: {}{numbered}", plan.series)));
    out.push((
        true,
        format!(
            "Serials {}–{}",
            serial(row.first_serial),
            serial(row.last_serial)
        ),
    ));
    out.push((
        false,
        format!("Top sheet serial: {}", serial(row.top_serial)),
    ));
    let pages = match plan.options.books.len() {
        0 => 1,
        n => n,
    };
    // The packets are the books this carton holds, not the flag's value.
    let (first, last) = match row.books.split_once('-') {
        Some((a, b)) => (a.parse().unwrap_or(0), b.parse().unwrap_or(0)),
        None => (
            row.books.parse().unwrap_or(0),
            row.books.parse().unwrap_or(0),
        ),
    };
    let packets = crate::text::count_of(u64::saturating_sub(last, first) + 1, "packet");
    let books = if first == last {
        format!("Book {first}")
    } else {
        format!("Books {first}-{last}")
    };
    out.push((
        false,
        format!(
            "{books} · {packets} of {pages} pages (this carton: {} pages)",
            row.pages
        ),
    ));
    if !row.colours.is_empty() {
        out.push((false, format!("Colours: {}", row.colours)));
    }
    out.push((
        false,
        format!(
            "Cut: {} up ({} {}s a page) · file {}",
            row.up,
            row.up * plan.spec.faces(),
            noun,
            plan.id
        ),
    ));
    out
}

/// The carton labels of `rows` (the packing list; its carton rows are
/// labelled), on pages of `paper` (points), as PDF bytes.
pub fn carton_labels(
    plan: &Plan,
    carton: &Carton,
    rows: &[PackRow],
    paper: (f32, f32),
) -> Result<Vec<u8>, PrintError> {
    let cartons: Vec<&PackRow> = rows.iter().filter(|r| r.kind == "carton").collect();
    let labels: Vec<Vec<(bool, String)>> = cartons.iter().map(|r| lines(plan, carton, r)).collect();
    let mut chars: String = labels.iter().flatten().map(|(_, t)| t.as_str()).collect();
    chars.push_str("0123456789");
    let bold = Font::bold(&chars).map_err(PrintError::MissingGlyph)?;
    let regular = Font::regular(&chars).map_err(PrintError::MissingGlyph)?;
    let pages = labels.len().div_ceil(PER_PAGE).max(1);
    let title = format!("Carton labels of {} ({} cartons)", plan.id, labels.len());
    Ok(plain::document(
        &title,
        paper,
        (&regular, &bold),
        pages,
        |p, g| {
            let (w, h) = paper;
            let margin = 36.0;
            let lh = (h - 2.0 * margin) / PER_PAGE as f32;
            for (slot, label) in labels.iter().skip(p * PER_PAGE).take(PER_PAGE).enumerate() {
                let top = h - margin - slot as f32 * lh;
                let fonts = (&regular, &bold);
                draw(
                    g,
                    fonts,
                    label,
                    (margin, top),
                    (w - 2.0 * margin, lh - 12.0),
                );
            }
        },
    ))
}

/// One label at `(x, top)`, `w` × `h` points: a border, then its lines,
/// each as large as fits the width (bold lines larger).
fn draw(
    g: &mut Content,
    (regular, bold): (&Font, &Font),
    label: &[(bool, String)],
    (x, top): (f32, f32),
    (w, h): (f32, f32),
) {
    g.set_line_width(1.5);
    g.set_stroke_gray(0.0);
    g.rect(x, top - h, w, h).stroke();
    g.set_fill_gray(0.0);
    let step = h / (label.len() as f32 + 1.0);
    // One size for the bold lines, one for the rest: each the largest at
    // which every line of its kind fits the width.
    let size_of = |strong: bool, most: f32| {
        let font = if strong { bold } else { regular };
        (label.iter().filter(|(s, _)| *s == strong))
            .map(|(_, t)| (w - 36.0) / font.width(t, 1.0).max(1.0))
            .fold(most, f32::min)
    };
    let sizes = [size_of(false, 0.42 * step), size_of(true, 0.62 * step)];
    for (i, (strong, text)) in label.iter().enumerate() {
        let (font, name) = match strong {
            true => (bold, F_BOLD),
            false => (regular, F_REGULAR),
        };
        let size = sizes[usize::from(*strong)];
        let y = top - step * (i as f32 + 1.0) - size * 0.3;
        labels::text(g, name, size, x + 18.0, y, &font.encode(text));
    }
}
