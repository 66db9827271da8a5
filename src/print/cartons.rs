//! Carton labels (`print --carton-labels FILE.pdf`): one for each carton of
//! the packing list, two a page on A4 or Letter, one a page on label stock
//! (100×150 mm, 4×6 in), to stick on the carton. As bingo paper's cartons
//! are labelled: carton k of n, the maker, customer and job, the series,
//! the serials it holds and its top sheet's, the inks in page order, the
//! cut (faces a sheet), packets (books) a carton and pages a packet, where
//! its books lie in the stacks; and the carton's id as a Code 128 barcode
//! a warehouse scans, printed beneath it too.

use super::font::Font;
use super::labels;
use super::packing::PackRow;
use super::plain::{self, F_BOLD, F_REGULAR};
use super::{Plan, PrintError};
use pdf_writer::Content;

/// What the labels say beyond the packing list's rows.
pub struct Carton<'a> {
    /// The maker (`--maker`), if named.
    pub maker: Option<&'a str>,
    /// The customer (`--customer`), if named.
    pub customer: Option<&'a str>,
    /// The job number (`--job`), if given: it begins each carton's id.
    pub job: Option<&'a str>,
}

impl Carton<'_> {
    /// Carton `n`'s id, as its barcode holds it: `JOB-C00012`, or the
    /// file's id for the job.
    pub fn id(&self, plan: &Plan, n: u64) -> String {
        format!("{}-C{n:05}", self.job.unwrap_or(&plan.id))
    }
}

/// Whether `job` can be a carton id's start: 1 to 24 of A–Z, a–z, 0–9,
/// `-`, `_`, `.` and `/` (what every scanner reads back as typed).
pub fn job_ok(job: &str) -> bool {
    (1..=24).contains(&job.len())
        && (job.bytes()).all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b))
}

/// The lines of carton `row`'s label: (bold, text).
fn lines(plan: &Plan, carton: &Carton, row: &PackRow) -> Vec<(bool, String)> {
    let serial = |n: u64| plan.header.serial(n);
    let noun = plan.spec.face_noun();
    let mut out = vec![(true, format!("CARTON {} OF {}", row.number, row.of))];
    if let Some(maker) = carton.maker {
        out.push((false, format!("Maker: {maker}")));
    }
    match (carton.customer, carton.job) {
        (Some(c), Some(j)) => out.push((false, format!("Customer: {c} · Job {j}"))),
        (Some(c), None) => out.push((false, format!("Customer: {c}"))),
        (None, Some(j)) => out.push((false, format!("Job {j}"))),
        (None, None) => {}
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
    if plan.stacks() > 1 {
        out.push((false, format!("Stack {} · piles {}", row.stack, row.pile)));
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

/// The sheet the labels go on: A4 or Letter, two labels a page inside a
/// half-inch margin; label stock (any other size: 100×150 mm, 4×6 in),
/// one label a page inside an eighth of an inch.
pub struct LabelStock {
    pub paper: (f32, f32),
    pub per_page: usize,
    pub margin: f32,
}

impl LabelStock {
    /// The stock of `paper` (points), named `name` as given.
    pub fn new(name: &str, paper: (f32, f32)) -> LabelStock {
        let sheet = ["a4", "letter"].contains(&name.trim().to_ascii_lowercase().as_str());
        LabelStock {
            paper,
            per_page: if sheet { 2 } else { 1 },
            margin: if sheet { 36.0 } else { 9.0 },
        }
    }
}

/// The carton labels of `rows` (the packing list; its carton rows are
/// labelled), on `stock`, as PDF bytes.
pub fn carton_labels(
    plan: &Plan,
    carton: &Carton,
    rows: &[PackRow],
    stock: &LabelStock,
) -> Result<Vec<u8>, PrintError> {
    let cartons: Vec<&PackRow> = rows.iter().filter(|r| r.kind == "carton").collect();
    let labels: Vec<(Vec<(bool, String)>, String)> = (cartons.iter())
        .map(|r| (lines(plan, carton, r), carton.id(plan, r.number)))
        .collect();
    let mut chars: String = (labels.iter())
        .flat_map(|(l, id)| l.iter().map(|(_, t)| t.as_str()).chain([id.as_str()]))
        .collect();
    chars.push_str("0123456789");
    let bold = Font::bold(&chars).map_err(PrintError::MissingGlyph)?;
    let regular = Font::regular(&chars).map_err(PrintError::MissingGlyph)?;
    let per = stock.per_page;
    let pages = labels.len().div_ceil(per).max(1);
    let title = format!("Carton labels of {} ({} cartons)", plan.id, labels.len());
    Ok(plain::document(
        &title,
        stock.paper,
        (&regular, &bold),
        pages,
        |p, g| {
            let ((w, h), margin) = (stock.paper, stock.margin);
            let lh = (h - 2.0 * margin) / per as f32;
            let gap = if per > 1 { 12.0 } else { 0.0 };
            for (slot, (label, id)) in labels.iter().skip(p * per).take(per).enumerate() {
                let top = h - margin - slot as f32 * lh;
                let fonts = (&regular, &bold);
                let size = (w - 2.0 * margin, lh - gap);
                draw(g, fonts, (label, id), (margin, top), size);
            }
        },
    ))
}

/// The share of a label's height its barcode and id take.
const CODE_SHARE: f32 = 0.3;

/// Carton id `id` as a Code 128 barcode in the box `(x, y, w, h)`
/// (bottom left, points), its quiet zones inside the box.
fn barcode(g: &mut Content, id: &str, (x, y, w, h): (f32, f32, f32, f32)) {
    let code = code128::Code128::encode(id.as_bytes());
    // No wider than 1 mm a module: wider reads no better.
    let module = (w / code.len() as f32).min(72.0 / 25.4);
    let left = x + (w - module * code.len() as f32) / 2.0;
    for bar in code.bar_coordinates() {
        let bx = left + bar.x as f32 * module;
        g.rect(bx, y, f32::from(bar.width) * module, h);
    }
    g.fill_nonzero();
}

/// One label at `(x, top)`, `w` × `h` points: a border, its lines, each as
/// large as fits the width (bold lines larger), then the carton's id as a
/// barcode with the id beneath it.
fn draw(
    g: &mut Content,
    (regular, bold): (&Font, &Font),
    (label, id): (&[(bool, String)], &str),
    (x, top): (f32, f32),
    (w, h): (f32, f32),
) {
    g.set_line_width(1.5);
    g.set_stroke_gray(0.0);
    g.rect(x, top - h, w, h).stroke();
    g.set_fill_gray(0.0);
    let code_h = CODE_SHARE * h;
    let id_size = (0.18 * code_h).min((w - 36.0) / regular.width(id, 1.0).max(1.0));
    barcode(
        g,
        id,
        (
            x + 9.0,
            top - h + 9.0 + 1.4 * id_size,
            w - 18.0,
            code_h - 18.0 - 1.4 * id_size,
        ),
    );
    let iw = regular.width(id, id_size);
    labels::text(
        g,
        F_REGULAR,
        id_size,
        x + (w - iw) / 2.0,
        top - h + 6.0,
        &regular.encode(id),
    );
    let h = h - code_h;
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
