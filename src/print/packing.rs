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
    /// The series its serials fall in (`3`, `3-4`; `--series-size`), or
    /// empty.
    pub series: String,
    /// Where it lies after cutting: its stack (`--stack`; `1-2` for a
    /// carton), its pile in the stack (a cut stack's slot; `1-3`), and
    /// its place in the pile from the first sheet (empty for a carton).
    pub stack: String,
    pub pile: String,
    pub position: String,
    /// The numbers its first and last sheets carry.
    pub first_sheet: u64,
    pub last_sheet: u64,
}

/// `a`, or `a-b`: the run from the least to the most of `values`.
fn span(values: impl Iterator<Item = u64>) -> String {
    let (lo, hi) = values.fold((u64::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    match (lo, hi) {
        (u64::MAX, _) => String::new(),
        (a, b) if a == b => a.to_string(),
        (a, b) => format!("{a}-{b}"),
    }
}

/// The series of serials `first` to `last`: `3`, `3-4`, or empty.
fn series(plan: &Plan, first: u64, last: u64) -> String {
    match (plan.series_of(first), plan.series_of(last)) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => String::new(),
    }
}

/// The serials (the numbers printed) of the faces of the record printed
/// `index`-th.
fn serials(plan: &Plan, index: u64) -> impl Iterator<Item = u64> + '_ {
    let record = plan.record_at(index);
    (0..plan.spec.faces()).map(move |t| plan.header.face_number(record, t))
}

/// A book as the sheets and slots fill it.
struct Book {
    first: u64,
    last: u64,
    top: (u64, u64),
    /// (page, sheet) of each of its pages.
    pages: Vec<(u64, u64)>,
    /// Its stack, pile and place in the pile ([`Plan::pile_of`]) at its
    /// first page.
    pile: (u64, u64, u64),
}

/// The file holding sheet `sheet`, and its page number there (from 1).
fn place(parts: &[Part], sheet: u64) -> (String, u64) {
    let part = (parts.iter())
        .find(|p| p.sheets.contains(&sheet))
        .unwrap_or(&parts[0]);
    let name = (part.path.file_name()).map_or(String::new(), |n| n.to_string_lossy().into_owned());
    (name, sheet - part.sheets.start + 1)
}

/// Each piece printed, gathered into its book (a sheet is a book of one
/// page without --book-pages): its serials, its pages.
fn gather(plan: &Plan) -> std::collections::BTreeMap<u64, Book> {
    let mut books: std::collections::BTreeMap<u64, Book> = Default::default();
    let k = plan.options.books.len().max(1) as u64;
    for sheet in 0..plan.sheets {
        for slot in 0..plan.per_page {
            let Some(index) = plan.item(sheet, slot) else {
                continue;
            };
            let (b, page) = (plan.book_of(sheet, slot)).unwrap_or((plan.sheet_number(sheet), 1));
            let (stack, pile, place) = plan.pile_of(sheet, slot);
            for serial in serials(plan, index) {
                let book = books.entry(b).or_insert(Book {
                    first: serial,
                    last: serial,
                    top: (page, serial),
                    pages: Vec::new(),
                    // A book's place in its pile, counted in books.
                    pile: (stack, pile, (place - 1) / k + 1),
                });
                book.first = book.first.min(serial);
                book.last = book.last.max(serial);
                book.top = book.top.min((page, serial));
                if !book.pages.contains(&(page, sheet)) {
                    book.pages.push((page, sheet));
                }
            }
        }
    }
    books
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
    let books = gather(plan);
    let count = books.len() as u64;
    // Numbered on from a continued series' books: "of" is the last.
    let last_book = books.keys().next_back().copied().unwrap_or(0);
    let mut rows: Vec<PackRow> = (books.into_iter())
        .map(|(number, mut book)| {
            book.pages.sort_unstable();
            let sheets: Vec<u64> = book.pages.iter().map(|&(_, s)| s).collect();
            let first_sheet = *sheets.iter().min().unwrap_or(&0);
            let last_sheet = *sheets.iter().max().unwrap_or(&0);
            let (first_file, first_page) = place(parts, first_sheet);
            let (last_file, last_page) = place(parts, last_sheet);
            let inks: Vec<&str> = (book.pages.iter())
                .map(|&(page, _)| colours.get(page as usize - 1).map_or("", String::as_str))
                .collect();
            PackRow {
                kind: "book",
                number,
                of: last_book.max(count),
                books: number.to_string(),
                pages: book.pages.len() as u64,
                up: plan.per_page,
                first_serial: book.first,
                last_serial: book.last,
                top_serial: book.top.1,
                colours: inks.join(" "),
                first_file,
                first_page,
                last_file,
                last_page,
                series: series(plan, book.first, book.last),
                stack: book.pile.0.to_string(),
                pile: book.pile.1.to_string(),
                position: book.pile.2.to_string(),
                first_sheet: plan.sheet_number(first_sheet),
                last_sheet: plan.sheet_number(last_sheet),
            }
        })
        .collect();
    if let Some(per) = per_carton.filter(|&n| n > 0) {
        let packed = cartons(plan, &rows, per);
        rows.extend(packed);
    }
    rows
}

/// What an earlier order's packing list says it used last: its last
/// book, carton and sheet, and its last serial (None for a list this
/// build did not write, or not a packing list).
pub fn read_after(text: &str) -> Option<(super::After, u64)> {
    let mut csv = csv::Reader::from_reader(text.as_bytes());
    let head = csv.headers().ok()?.clone();
    let at = |name: &str| head.iter().position(|h| h == name);
    let (kind, number, last_serial) = (at("kind")?, at("number")?, at("last_serial")?);
    let last_sheet = at("last_sheet");
    let (mut after, mut serial) = (super::After::default(), 0);
    for row in csv.records() {
        let row = row.ok()?;
        let num = |i: usize| row.get(i)?.parse::<u64>().ok();
        match row.get(kind)? {
            "book" => after.book = after.book.max(num(number)?),
            "carton" => after.carton = after.carton.max(num(number)?),
            _ => return None,
        }
        // An import's serials print as written (`CH-04512`): none to compare.
        serial = serial.max(num(last_serial).unwrap_or(0));
        if let Some(i) = last_sheet {
            after.sheet = after.sheet.max(num(i)?);
        }
    }
    Some((after, serial))
}

/// The books `rows` packed `per` to a carton: a row a carton.
fn cartons(plan: &Plan, rows: &[PackRow], per: u64) -> Vec<PackRow> {
    let books = rows.len() as u64;
    let cartons = books.div_ceil(per);
    // Numbered on from a continued series' cartons.
    let before = plan.cartons_before(per);
    (0..cartons)
        .map(|c| {
            let held = &rows[(c * per) as usize..((c + 1) * per).min(books) as usize];
            let (top, bottom) = (&held[0], &held[held.len() - 1]);
            let first = held.iter().map(|b| b.first_serial).min().unwrap_or(0);
            let last = held.iter().map(|b| b.last_serial).max().unwrap_or(0);
            PackRow {
                kind: "carton",
                number: before + c + 1,
                of: before + cartons,
                books: format!("{}-{}", top.number, bottom.number),
                pages: held.iter().map(|b| b.pages).sum(),
                up: plan.per_page,
                first_serial: first,
                last_serial: last,
                top_serial: top.top_serial,
                colours: top.colours.clone(),
                first_file: top.first_file.clone(),
                first_page: top.first_page,
                last_file: bottom.last_file.clone(),
                last_page: bottom.last_page,
                series: series(plan, first, last),
                stack: span(held.iter().filter_map(|b| b.stack.parse().ok())),
                pile: span(held.iter().filter_map(|b| b.pile.parse().ok())),
                position: String::new(),
                first_sheet: held.iter().map(|b| b.first_sheet).min().unwrap_or(0),
                last_sheet: held.iter().map(|b| b.last_sheet).max().unwrap_or(0),
            }
        })
        .collect()
}

/// The packing list's columns, in order.
const COLUMNS: [&str; 20] = [
    "kind",
    "number",
    "of",
    "books",
    "pages",
    "up",
    "first_serial",
    "last_serial",
    "top_serial",
    "colours",
    "first_file",
    "first_page",
    "last_file",
    "last_page",
    "series",
    "stack",
    "pile",
    "position",
    "first_sheet",
    "last_sheet",
];

/// Writes the packing list: a header, then a row a book, then a row a
/// carton; each serial as the faces print it (`CH-04512`).
pub fn write(
    rows: &[PackRow],
    header: &crate::cardfile::Header,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(COLUMNS)?;
    for r in rows {
        let serial = |n: u64| crate::text::spreadsheet_safe(&header.serial(n)).into_owned();
        csv.write_record([
            r.kind.to_string(),
            r.number.to_string(),
            r.of.to_string(),
            r.books.clone(),
            r.pages.to_string(),
            r.up.to_string(),
            serial(r.first_serial),
            serial(r.last_serial),
            serial(r.top_serial),
            r.colours.clone(),
            r.first_file.clone(),
            r.first_page.to_string(),
            r.last_file.clone(),
            r.last_page.to_string(),
            r.series.clone(),
            r.stack.clone(),
            r.pile.clone(),
            r.position.clone(),
            r.first_sheet.to_string(),
            r.last_sheet.to_string(),
        ])?;
    }
    csv.flush()
}
