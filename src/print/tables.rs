//! Table cards for a hall: how phones find it, to stand on the tables.
//! Each card shows the night's title, its table's number, the players'
//! address as a QR code and as text to type, and what to do; two to a
//! page, cut apart along the dashed lines.

use super::face::draw_qr;
use super::font::Font;
use super::labels;
use super::plain::{self, F_BOLD, F_REGULAR};
use super::PrintError;
use pdf_writer::{Content, Name};
/// Cards a page, one above the other.
const PER_PAGE: usize = 2;

/// What the table cards say.
pub struct Tables<'a> {
    /// The night's title.
    pub title: &'a str,
    /// The players' page, as phones open it.
    pub url: &'a str,
    /// The venue's Wi-Fi network, when the cards should name it.
    pub wifi: Option<&'a str>,
    /// How many cards (tables 1 to `count`).
    pub count: usize,
}

impl Tables<'_> {
    /// The steps printed under the code.
    fn steps(&self) -> [String; 3] {
        [
            match self.wifi {
                Some(net) => format!("1. Join the Wi-Fi: {net}"),
                None => "1. Join the hall's Wi-Fi".to_string(),
            },
            "2. Scan the code with your camera, or type the address".to_string(),
            "3. Add your card by the number printed on it".to_string(),
        ]
    }
}

/// The table cards, on pages of `paper` (points) inside `margin`, as PDF
/// bytes; the number of pages with them.
pub fn table_cards(
    t: &Tables,
    paper: (f32, f32),
    margin: f32,
) -> Result<(Vec<u8>, usize), PrintError> {
    let (w, h) = paper;
    let (cw, ch) = (w - 2.0 * margin, (h - 2.0 * margin) / PER_PAGE as f32);
    if cw < 216.0 || ch < 216.0 {
        return Err(PrintError::NoRoom);
    }
    let code =
        qrcodegen::QrCode::encode_text(t.url, qrcodegen::QrCodeEcc::Medium).map_err(|_| {
            PrintError::Label {
                label: t.url.to_string(),
                why: "too long for a QR code".to_string(),
            }
        })?;
    let mut chars = format!(
        "{}{}Table 0123456789Play along on your phone",
        t.title, t.url
    );
    t.steps().iter().for_each(|s| chars.push_str(s));
    let bold = Font::bold(&chars).map_err(PrintError::MissingGlyph)?;
    let regular = Font::regular(&chars).map_err(PrintError::MissingGlyph)?;
    let pages = t.count.div_ceil(PER_PAGE);
    let title = format!("Table cards of '{}': {}", t.title, t.url);
    let fonts = (&regular, &bold);
    let pdf = plain::document(&title, paper, fonts, pages, |p, g| {
        for slot in 0..PER_PAGE.min(t.count - p * PER_PAGE) {
            let top = h - margin - slot as f32 * ch;
            let table = p * PER_PAGE + slot + 1;
            card(g, t, fonts, &code, table, (margin, top), (cw, ch));
        }
    });
    Ok((pdf, pages))
}

/// `text` centred on `x + w / 2` at baseline `y`, at most `size` points and
/// no wider than `w`.
fn centred(
    g: &mut Content,
    font: (&Font, Name),
    text: &str,
    size: f32,
    (x, y, w): (f32, f32, f32),
) {
    let size = size.min(w / font.0.width(text, 1.0).max(0.01));
    let tw = font.0.width(text, size);
    labels::text(g, font.1, size, x + (w - tw) / 2.0, y, &font.0.encode(text));
}

/// One table card at `(x, top)`, `cw` × `ch` points: its cut line, the
/// title, the table's number, the code, the address and the steps.
fn card(
    g: &mut Content,
    t: &Tables,
    (regular, bold): (&Font, &Font),
    code: &qrcodegen::QrCode,
    table: usize,
    (x, top): (f32, f32),
    (cw, ch): (f32, f32),
) {
    g.set_line_width(0.5);
    g.set_dash_pattern([4.0, 3.0], 0.0);
    g.set_stroke_gray(0.55);
    g.rect(x, top - ch, cw, ch).stroke();
    g.set_dash_pattern([], 0.0);
    g.set_fill_gray(0.0);
    let inner = (x + 18.0, cw - 36.0);
    let label = format!("Table {table}");
    labels::text(g, F_BOLD, 12.0, x + 12.0, top - 22.0, &bold.encode(&label));
    let title_size = (0.09 * ch).min(30.0);
    centred(
        g,
        (bold, F_BOLD),
        t.title,
        title_size,
        (inner.0, top - 30.0 - title_size, inner.1),
    );
    let sub = top - 40.0 - title_size - 16.0;
    centred(
        g,
        (regular, F_REGULAR),
        "Play along on your phone",
        16.0,
        (inner.0, sub, inner.1),
    );
    // The code as large as leaves room for the address and three steps.
    let below = 18.0 + 3.0 * 15.0 + 16.0;
    let side = (sub - 12.0 - (top - ch + below)).min(0.7 * cw);
    let code_top = sub - 8.0;
    draw_qr(g, code, x + (cw - side) / 2.0, code_top - side, side);
    let url_y = code_top - side - 18.0;
    centred(g, (bold, F_BOLD), t.url, 16.0, (inner.0, url_y, inner.1));
    for (i, step) in t.steps().iter().enumerate() {
        let y = url_y - 22.0 - i as f32 * 15.0;
        centred(g, (regular, F_REGULAR), step, 11.0, (inner.0, y, inner.1));
    }
}
