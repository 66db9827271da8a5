//! The packing list a print run ships with (`print --packing FILE.csv`):
//! a row a book (its pages, the first and last serial printed in it, the
//! serial on its top sheet, its inks in page order, where its pages are
//! in the PDF files), then, with `--books-per-carton K`, a row a carton
//! (carton k of n, its books and serials, its top sheet's serial). Without
//! `--book-pages` each sheet is a book of one page.

use super::job::Part;
use super::Plan;
use serde::Serialize;

/// One row of the packing list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PackRow {
    /// `book` or `carton`.
    pub kind: &'static str,
    pub number: u64,
    /// Of how many books (or cartons).
    pub of: u64,
    /// The books a carton holds (`1-10`); a book's own number.
    pub books: String,
    pub pages: u64,
    /// Faces (or strips) a page: how the sheet is cut.
    pub up: usize,
    pub first_serial: u64,
    pub last_serial: u64,
    /// The serial on the top sheet: the first face of the first page.
    pub top_serial: u64,
    /// The inks, in page order.
    pub colours: String,
    pub first_file: String,
    pub first_page: u64,
    pub last_file: String,
    pub last_page: u64,
}

/// The faces' serials (the numbers printed) on sheet `sheet` (from 0), in
/// slot order.
fn serials(plan: &Plan, sheet: u64) -> Vec<u64> {
    let faces = plan.spec.faces();
    (0..plan.per_page)
        .filter_map(|slot| plan.item(sheet, slot))
        .flat_map(|i| {
            let record = plan.record_at(i);
            (0..faces).map(move |t| plan.spec.face_number(record, t) + plan.first_face - 1)
        })
        .collect()
}

/// The file holding sheet `sheet`, and its page number there (from 1).
fn place(parts: &[Part], sheet: u64) -> (String, u64) {
    let part = (parts.iter())
        .find(|p| p.sheets.contains(&sheet))
        .unwrap_or(&parts[0]);
    let name = (part.path.file_name()).map_or(String::new(), |n| n.to_string_lossy().into_owned());
    (name, sheet - part.sheets.start + 1)
}

/// The packing list of `plan`'s run, written to `parts`, its pages in
/// the inks named `colours` (one for each page of a book), books packed
/// `per_carton` to a carton.
pub fn packing(
    plan: &Plan,
    parts: &[Part],
    colours: &[String],
    per_carton: Option<u64>,
) -> Vec<PackRow> {
    let k = colours.len().max(1) as u64;
    let books = plan.sheets.div_ceil(k);
    let mut rows: Vec<PackRow> = (0..books)
        .map(|b| {
            let sheets = b * k..((b + 1) * k).min(plan.sheets);
            let all: Vec<u64> = sheets.clone().flat_map(|s| serials(plan, s)).collect();
            let (first_file, first_page) = place(parts, sheets.start);
            let (last_file, last_page) = place(parts, sheets.end - 1);
            PackRow {
                kind: "book",
                number: b + 1,
                of: books,
                books: (b + 1).to_string(),
                pages: sheets.end - sheets.start,
                up: plan.per_page,
                first_serial: all.iter().copied().min().unwrap_or(0),
                last_serial: all.iter().copied().max().unwrap_or(0),
                top_serial: all.first().copied().unwrap_or(0),
                colours: colours[..(sheets.end - sheets.start) as usize].join(" "),
                first_file,
                first_page,
                last_file,
                last_page,
            }
        })
        .collect();
    if let Some(per) = per_carton.filter(|&n| n > 0) {
        let cartons = books.div_ceil(per);
        let packed: Vec<PackRow> = (0..cartons)
            .map(|c| {
                let held = &rows[(c * per) as usize..((c + 1) * per).min(books) as usize];
                let (top, bottom) = (&held[0], &held[held.len() - 1]);
                PackRow {
                    kind: "carton",
                    number: c + 1,
                    of: cartons,
                    books: format!("{}-{}", top.number, bottom.number),
                    pages: held.iter().map(|b| b.pages).sum(),
                    up: plan.per_page,
                    first_serial: held.iter().map(|b| b.first_serial).min().unwrap_or(0),
                    last_serial: held.iter().map(|b| b.last_serial).max().unwrap_or(0),
                    top_serial: top.top_serial,
                    colours: top.colours.clone(),
                    first_file: top.first_file.clone(),
                    first_page: top.first_page,
                    last_file: bottom.last_file.clone(),
                    last_page: bottom.last_page,
                }
            })
            .collect();
        rows.extend(packed);
    }
    rows
}

/// Writes the packing list: a header, then a row a book, then a row a
/// carton.
pub fn write(rows: &[PackRow], out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    for row in rows {
        csv.serialize(row)?;
    }
    csv.flush()
}
