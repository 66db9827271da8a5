//! One record on paper, for any game, from its [`Paper`] facts: the form
//! every record repeats (grids, the band of column letters, FREE cells) and
//! what each record adds (numbers, star, identity text, QR code), in cells
//! of the plan's size. Nothing here names a game.

use super::labels::{self, text};
use super::paper::Shape;
use super::{Fonts, Ink, Item, Plan, F_BOLD, F_REGULAR};
use crate::game::{Face, LabelAt, Paper, Spec};
use pdf_writer::{Content, Name, Str};

/// Numbers are this many cells tall.
pub(super) const NUMBER: f32 = 0.5;

/// A record's measures on paper, in cells: the game's [`Paper`] with the
/// QR code asked for or not.
#[derive(Clone, Copy, Debug)]
pub(super) struct Measures {
    paper: Paper,
    rows: f32,
    cols: f32,
    faces: usize,
    /// The band of column letters over each face (0 without letters).
    band: f32,
    /// The title's band over that (0 without a title).
    title: f32,
    /// The identity's height.
    label: f32,
}

impl Measures {
    pub(super) fn new(spec: Spec, qr: bool, title: bool) -> Measures {
        let facts = spec.facts();
        let paper = facts.paper;
        Measures {
            paper,
            rows: facts.rows as f32,
            cols: facts.cols as f32,
            faces: facts.faces,
            band: if facts.letters.is_empty() { 0.0 } else { BAND },
            title: if title { TITLE } else { 0.0 },
            label: if qr { paper.label.1 } else { paper.label.0 },
        }
    }

    /// The whole record's shape: its faces stacked, gaps between them.
    pub(super) fn shape(&self) -> Shape {
        let face = self.heading() + self.rows + self.label;
        let n = self.faces as f32;
        Shape {
            width: self.cols,
            height: n * face + (n - 1.0) * self.paper.gap,
        }
    }

    /// How far down each face starts from the one before.
    fn stride(&self) -> f32 {
        self.label + self.heading() + self.rows + self.paper.gap
    }

    /// The bands over a face's grid: its title and its column letters.
    fn heading(&self) -> f32 {
        self.title + self.band
    }
}

/// The height, in cells, of the band of column letters over a face.
const BAND: f32 = 0.9;
/// The height, in cells, of the title over a face.
const TITLE: f32 = 0.7;

/// A record's size in points (a card, or a strip of six tickets).
pub(super) fn face_size(plan: &Plan) -> (f32, f32) {
    let s = plan.measures.shape();
    (s.width * plan.cell, s.height * plan.cell)
}

/// Where face `t` of a record sits, in points from the record's bottom
/// left: the top of its grid, and its identity's box (x, y, w, h).
fn face_place(plan: &Plan, t: usize) -> (f32, (f32, f32, f32, f32)) {
    let m = &plan.measures;
    let c = plan.cell;
    let (_, fh) = face_size(plan);
    let top = fh - t as f32 * m.stride() * c;
    match m.paper.label_at {
        LabelAt::Above => (
            top - m.label * c - m.heading() * c,
            (0.0, top - m.label * c, m.cols * c, m.label * c),
        ),
        LabelAt::Below => {
            let grid_top = top - m.heading() * c;
            let bottom = top - (m.heading() + m.rows) * c;
            let face_bottom = top - (m.heading() + m.rows + m.label) * c;
            let face_bottom = if m.faces == 1 { 0.0 } else { face_bottom };
            (
                grid_top,
                (0.0, face_bottom, m.cols * c, bottom - face_bottom),
            )
        }
    }
}

/// What every face repeats, drawn once as a form: each face's grid, with
/// its band of column letters (B I N G O) when the game has letters, and
/// FREE in its free cells.
pub(super) fn repeated(plan: &Plan, fonts: &Fonts, ink: Ink) -> Vec<u8> {
    let c = plan.cell;
    let facts = plan.spec.facts();
    let m = &plan.measures;
    let mut g = Content::new();
    ink.stroke(&mut g);
    g.set_line_width(0.75);
    for t in 0..facts.faces {
        let (grid_top, _) = face_place(plan, t);
        if let Some(title) = &plan.title {
            ink.fill(&mut g);
            let (w, h) = (m.cols * c, m.title * c);
            let laid = labels::fit(&fonts.bold, title, 0.96 * w, 0.9 * h, 0.5 * c);
            let top = grid_top + (m.band + m.title) * c;
            labels::draw(&mut g, &fonts.bold, F_BOLD, &laid, (0.0, top, w, h));
        }
        if !facts.letters.is_empty() {
            // The band, in the ink, with the letters knocked out.
            ink.fill(&mut g);
            g.rect(0.0, grid_top, m.cols * c, m.band * c).fill_nonzero();
            g.set_fill_gray(1.0);
            let size = 0.62 * c;
            for (i, letter) in facts.letters.iter().enumerate() {
                let cell = (i as f32 * c, grid_top + m.band * c, c, m.band * c);
                let laid = labels::fit(&fonts.bold, letter, 0.9 * c, 0.85 * m.band * c, size);
                labels::draw(&mut g, &fonts.bold, F_BOLD, &laid, cell);
            }
        }
        grid_lines(&mut g, 0.0, grid_top, facts.rows, facts.cols, c);
        if facts.free != 0 {
            ink.fill(&mut g);
            let free = plan
                .spec
                .items()
                .and_then(|d| d.free.as_deref())
                .unwrap_or("FREE");
            // On items cards no larger than any card's labels, and in the
            // middle of its cell; on numbers cards above the group face's
            // place.
            let (max, below) = match &fonts.labels {
                Some(l) => (l.smallest().min(0.28 * c), 0.25),
                None => (0.28 * c, 0.15),
            };
            let laid = labels::fit(&fonts.bold, free, 0.9 * c, 0.5 * c, max);
            for cell in (0..facts.rows * facts.cols).filter(|i| facts.free & 1 << i != 0) {
                let (r, col) = (cell / facts.cols, cell % facts.cols);
                let top = grid_top - r as f32 * c - below * c;
                labels::draw(
                    &mut g,
                    &fonts.bold,
                    F_BOLD,
                    &laid,
                    (col as f32 * c, top, c, 0.5 * c),
                );
            }
        }
    }
    g.finish().into_vec()
}

/// The lines of a `rows` × `cols` grid of cells `c` whose top-left corner
/// is (x, top).
fn grid_lines(g: &mut Content, x: f32, top: f32, rows: usize, cols: usize, c: f32) {
    for r in 0..=rows {
        let y = top - r as f32 * c;
        g.move_to(x, y).line_to(x + cols as f32 * c, y);
    }
    for k in 0..=cols {
        let xx = x + k as f32 * c;
        g.move_to(xx, top).line_to(xx, top - rows as f32 * c);
    }
    g.stroke();
}

/// A record's faces: each one's numbers, star and identity (the form drew
/// the rest).
pub(super) fn record(
    g: &mut Content,
    plan: &Plan,
    item: &Item<'_>,
    fonts: &Fonts,
    (ink, colour): (Ink, u8),
    book: Option<(u64, u64)>,
) {
    let c = plan.cell;
    let spec = plan.spec;
    let noun = capitalized(spec.face_noun());
    ink.fill(g);
    for (t, face) in item.faces.iter().enumerate() {
        let (grid_top, label) = face_place(plan, t);
        let number = plan.header.face_number(item.record, t);
        let serial = plan.header.serial(number);
        let name = if spec.faces() == 1 {
            format!("{noun} {serial}")
        } else {
            let record = capitalized(spec.noun());
            format!(
                "{noun} {serial} · {record} {}",
                plan.record_number(item.record)
            )
        };
        let reference = format!("bingomint:{}:{}:{number}", plan.id, spec.face_noun());
        // An items card's labels all at one size: its longest label's.
        let size = (fonts.labels.as_ref()).map(|l| l.size_of(face.numbers().iter().copied()));
        let under = size.zip(fonts.labels.as_ref()).map(|(k, l)| l.points(k));
        // A piece cut into a book of its own says which book and page.
        let id = Identity {
            name: &name,
            series_no: plan.series_of(number),
            reference: &reference,
            under,
            book: (book.filter(|_| plan.cut_into_books()))
                .map(|(b, k)| format!("Book {b} page {k} of {}", plan.options.books.len())),
        };
        let identify = |g: &mut Content| identity(g, plan, fonts, &id, label);
        if spec.facts().paper.label_at == LabelAt::Above {
            identify(g);
        }
        match (&fonts.labels, size) {
            (Some(laid), Some(k)) => item_labels(g, plan, fonts, (laid, k), face, grid_top),
            _ => numbers(g, fonts, face, grid_top, c),
        }
        if plan.options.group_face {
            let group = crate::play::reference::group_face(colour, number, plan.last_face);
            group_face(g, plan, fonts, &group, grid_top);
        }
        if let Some((r, col)) = face.star_at() {
            let s = 0.3 * c;
            let x = col as f32 * c + 0.06 * c;
            let y = grid_top - r as f32 * c - 0.06 * c - 0.75 * s;
            text(g, F_REGULAR, s, x, y, &fonts.regular.encode("★"));
        }
        if spec.facts().paper.label_at == LabelAt::Below {
            identify(g);
        }
    }
}

/// The group face under FREE in each free cell.
fn group_face(g: &mut Content, plan: &Plan, fonts: &Fonts, group: &str, grid_top: f32) {
    let c = plan.cell;
    let facts = plan.spec.facts();
    let size = 0.17 * c;
    let encoded = fonts.regular.encode(group);
    for cell in (0..facts.rows * facts.cols).filter(|i| facts.free & 1 << i != 0) {
        let (r, col) = (cell / facts.cols, cell % facts.cols);
        let x = col as f32 * c + (c - fonts.regular.width(group, size)) / 2.0;
        let y = grid_top - (r as f32 + 1.0) * c + 0.12 * c;
        text(g, F_REGULAR, size, x, y, &encoded);
    }
}

/// `card` → `Card`.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A face's numbers, large and centred in their cells, in one text object.
/// Each number is placed with a relative move (`Td`) from the one before.
fn numbers(g: &mut Content, fonts: &Fonts, face: &Face, grid_top: f32, c: f32) {
    let size = NUMBER * c;
    g.begin_text();
    g.set_font(F_BOLD, size);
    let (mut px, mut py) = (0.0, 0.0);
    for r in 0..usize::from(face.rows) {
        for col in 0..usize::from(face.cols) {
            let n = face.at(r, col);
            if n == 0 {
                continue;
            }
            let (cids, width) = &fonts.numbers[usize::from(n)];
            let x = round(col as f32 * c + (c - width * size) / 2.0);
            let y = round(grid_top - (r as f32 + 1.0) * c + (c - 0.73 * size) / 2.0);
            g.next_line(round(x - px), round(y - py));
            (px, py) = (x, y);
            g.show(Str(cids));
        }
    }
    g.end_text();
}

/// The name a page's resources give the picture of ball `n`.
pub(super) fn image_name(n: u8) -> String {
    format!("Im{n}")
}

/// An items card's labels, each laid out once for the document, centred
/// in their cells; an item's picture, when it has one, scaled into the
/// cell's upper part with its label under it.
fn item_labels(
    g: &mut Content,
    plan: &Plan,
    fonts: &Fonts,
    (laid, k): (&labels::CardLabels, usize),
    face: &Face,
    grid_top: f32,
) {
    let c = plan.cell;
    for r in 0..usize::from(face.rows) {
        for col in 0..usize::from(face.cols) {
            let n = face.at(r, col);
            if n == 0 {
                continue;
            }
            let (x, top) = (col as f32 * c, grid_top - r as f32 * c);
            let picture = plan
                .pictures
                .get(usize::from(n) - 1)
                .and_then(Option::as_ref);
            let Some(p) = picture else {
                labels::draw(g, &fonts.bold, F_BOLD, laid.laid(n, k), (x, top, c, c));
                continue;
            };
            // The picture in a box of the cell's width and labels::PICTURE of its
            // height, keeping its shape, centred.
            let (bw, bh) = (0.9 * c, labels::PICTURE * c - 0.08 * c);
            let scale = (bw / p.width as f32).min(bh / p.height as f32);
            let (w, h) = (p.width as f32 * scale, p.height as f32 * scale);
            let (px, py) = (x + (c - w) / 2.0, top - 0.06 * c - bh + (bh - h) / 2.0);
            g.save_state();
            g.transform([w, 0.0, 0.0, h, px, py]);
            g.x_object(Name(image_name(n).as_bytes()));
            g.restore_state();
            let below = (x, top - labels::PICTURE * c, c, (1.0 - labels::PICTURE) * c);
            labels::draw(g, &fonts.bold, F_BOLD, laid.laid(n, k), below);
        }
    }
}

/// Positions to a hundredth of a point: enough for print, shorter streams.
fn round(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

/// What a face's identity says: its name, its QR code's reference, the
/// size its labels print at (an items card's), its book and page (a
/// piece of an n-up sheet of books).
struct Identity<'a> {
    name: &'a str,
    /// The face's series number (`--series-size`).
    series_no: Option<u64>,
    reference: &'a str,
    under: Option<f32>,
    book: Option<String>,
}

/// A face's identity in the box (x, y, w, h): its number in bold, the
/// series and file id under it, and the QR code at the right when asked;
/// on an items card, smaller than its labels (`under` points).
fn identity(
    g: &mut Content,
    plan: &Plan,
    fonts: &Fonts,
    id: &Identity,
    (x, y, w, h): (f32, f32, f32, f32),
) {
    let Identity {
        name,
        series_no,
        reference,
        under,
        book,
    } = id;
    let c = plan.cell;
    // On an items card, smaller than its labels: the words are the card.
    let cap = under.unwrap_or(f32::MAX);
    let reference: &str = reference;
    let big = (0.32 * c).min(0.8 * cap).max(6.0);
    let small = (0.24 * c).min(0.6 * cap).max(5.0);
    let lines_h = big + small + 0.1 * c;
    let top = y + h - (h.min(1.0 * c) - lines_h) / 2.0;
    text(
        g,
        F_BOLD,
        big,
        x + 0.05 * c,
        top - big,
        &fonts.bold.encode(name),
    );
    let mut second = if plan.series == plan.id {
        plan.id.clone()
    } else {
        format!("{} · {}", plan.series, plan.id)
    };
    if let Some(k) = series_no {
        second = format!("Series {k} · {second}");
    }
    if let Some(book) = book {
        second = format!("{book} · {second}");
    }
    text(
        g,
        F_REGULAR,
        small,
        x + 0.05 * c,
        top - big - 0.1 * c - small * 0.9,
        &fonts.regular.encode(&second),
    );
    if plan.options.qr {
        let side = h - 0.1 * c;
        qr(g, reference, x + w - side, y + 0.05 * c, side);
    }
}

/// A QR code of `text` in a square of `side` points at (x, y), its quiet
/// zone (four modules) inside the square.
fn qr(g: &mut Content, text: &str, x: f32, y: f32, side: f32) {
    // Upper case fits the compact alphanumeric mode; one fixed mask (the
    // standard allows any) spares evaluating all eight for every face.
    let upper = text.to_ascii_uppercase();
    let code = qrcodegen::QrCode::encode_segments_advanced(
        &qrcodegen::QrSegment::make_segments(&upper),
        qrcodegen::QrCodeEcc::Medium,
        qrcodegen::Version::MIN,
        qrcodegen::Version::MAX,
        Some(qrcodegen::Mask::new(2)),
        false,
    )
    .expect("a short reference fits a QR code");
    draw_qr(g, &code, x, y, side);
}

/// `code` in a square of `side` points at (x, y), its quiet zone (four
/// modules) inside the square.
pub(super) fn draw_qr(g: &mut Content, code: &qrcodegen::QrCode, x: f32, y: f32, side: f32) {
    let n = code.size();
    let module = side / (n + 8) as f32;
    // Dark modules are always black, whatever the ink: scanners need
    // contrast. Drawn in module units (whole numbers: short to write), rows
    // of dark modules as one rectangle each.
    g.set_fill_gray(0.0);
    g.save_state();
    g.transform([module, 0.0, 0.0, module, x, y]);
    let side = (n + 8) as f32;
    for row in 0..n {
        let mut col = 0;
        while col < n {
            if code.get_module(col, row) {
                let start = col;
                while col < n && code.get_module(col, row) {
                    col += 1;
                }
                g.rect(
                    (start + 4) as f32,
                    side - (row + 5) as f32,
                    (col - start) as f32,
                    1.0,
                );
            } else {
                col += 1;
            }
        }
    }
    g.fill_nonzero();
    g.restore_state();
}
