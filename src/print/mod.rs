//! Press-ready PDF of a card file: faces n-up on sheets, each with its face
//! number, series and the file's short id outside the play area, the sheet
//! number on every sheet, crop marks outside the bleed, optional QR codes.
//!
//! Stages: [`Plan::new`] (paper, layout, the cell size and whether faces
//! stay readable; sheets and the order of faces on them) → [`faces`] (the
//! faces of the range, read in parallel from the mapped file) →
//! [`document`] (pages built and compressed in parallel, then assembled in
//! order with the fonts, one form for what every face repeats, and the
//! PDF/X-1a boxes, info and output intent).
//!
//! Here: the plan and the faces read. Beside it: `sheet.rs` (one sheet's
//! content, its label and marks),
//! `paper.rs` (lengths, paper sizes, layouts, the best grid), `face.rs` (one
//! record of any game drawn from its `Paper` facts), `document.rs` (the
//! PDF's objects and the pages in parallel), `job.rs` (files, manifest,
//! date), `ink.rs` (the inks), `font.rs` (the embedded fonts).
//!
//! Deterministic: the same file and options give the same bytes for any
//! thread count; dates come from the card file (or `SOURCE_DATE_EPOCH`).

pub mod calling;
pub mod cartons;
mod document;
mod face;
pub mod font;
mod ink;
pub mod job;
mod labels;
mod order;
pub use labels::MIN_LABEL_PT;
pub use order::{cut_offset, stack_sheets, After, EDGE_INK};
pub mod packing;
pub mod paper;
pub mod pictures;
mod plain;
mod sheet;
mod stream;
pub mod tables;

use crate::cardfile::CardFile;
use crate::game::{Face, Spec};
pub use document::document;
use face::{Measures, NUMBER};
use font::Font;
pub use ink::{ink_name, Ink, InkError, NAMED};
use paper::{best_grid, cell_size, Grid, Layout};
use pdf_writer::Name;
use std::ops::RangeInclusive;

/// How faces go onto sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Sheet 1 holds faces 1…n, sheet 2 the next n.
    Sequential,
    /// Cut the stack of sheets: each pile holds consecutive faces.
    CutStack,
}

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// Paper width and height, points (the trim size).
    pub paper: (f32, f32),
    /// Its name as given, for messages.
    pub paper_name: String,
    pub layout: Option<Layout>,
    pub margin: f32,
    pub gap: f32,
    pub bleed: f32,
    pub marks: bool,
    pub series: Option<String>,
    pub qr: bool,
    /// The group face (colour digit, face number) in each free cell.
    pub group_face: bool,
    pub ink: Ink,
    /// Books (`--book-pages K --colours …`): page k of every book in ink
    /// k; empty for none.
    pub books: Vec<Ink>,
    /// The inks' names as given (one a book page, else the one ink), each
    /// printed on its sheets' label; empty: none said.
    pub ink_names: Vec<String>,
    /// A tint of the ink (0–1) behind each sheet, reaching into the bleed.
    pub background: f32,
    pub order: Order,
    /// Records (cards or strips) to print: runs, in order.
    pub range: Vec<RangeInclusive<u64>>,
    /// The date the document carries: (year, month, day, hour, minute, second).
    pub date: (u16, u8, u8, u8, u8, u8),
    /// A title over every face's grid (an items card's default: its list's
    /// name).
    pub title: Option<String>,
    /// Where an items list's pictures are [default: the card file's folder].
    pub pictures: Option<std::path::PathBuf>,
    /// Faces a series (`--series-size`): each face names its series.
    pub series_size: Option<u64>,
    /// Sheets a stack (`--stack`, cut-stack only): the sheets are cut in
    /// stacks a guillotine lifts, each stack's piles runs of whole books;
    /// None: the whole run is one stack.
    pub stack: Option<u64>,
    /// The order this run continues (`--after` its packing list): the
    /// last book, carton and sheet numbers it used, to number on from.
    pub after: Option<After>,
    /// The safety margin (points) between a cut and the piece it frees:
    /// the cut marks of an n-up sheet stand this far off every piece.
    pub safety: f32,
}

/// The longest series a face carries, in characters.
pub const MAX_SERIES: usize = 40;

/// Whether `series` can be printed on every face: 1 to [`MAX_SERIES`]
/// characters, as a person sees them ([`crate::shown`]: no invisible or
/// look-alike character, no doubled space). `print` and `export --layout`
/// both ask, so ids exported for a data merge are ids print makes.
pub fn series_ok(series: &str) -> bool {
    crate::shown::shown(series, MAX_SERIES).is_ok_and(|s| !s.is_empty() && s == series)
}

/// Why a document cannot be laid out or drawn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PrintError {
    /// The margins leave less than an inch of paper either way.
    #[error("the margins leave less than 1in of paper to print on")]
    NoRoom,
    /// The layout makes numbers too small to read; `largest` is the most
    /// records a page that fit this paper, `paper` a named paper that fits
    /// this layout.
    #[error(
        "{per_page} a page on {paper_name} paper makes numbers {points:.1} pt, \
         too small to read (at least {MIN_NUMBER_PT} pt)"
    )]
    TooSmall {
        per_page: usize,
        paper_name: String,
        points: f32,
        largest: Option<usize>,
        paper: Option<&'static str>,
    },
    /// The gaps between faces leave them no room (`per_page` a page).
    #[error("the gaps between {per_page} faces a page leave no room for them")]
    NoRoomBetweenGaps { per_page: usize },
    /// The gaps between pieces leave no room for a cut that stands the
    /// safety margin off both pieces beside it.
    #[error(
        "a cut between pieces {safety_mm:.1} mm off each needs gaps of at least {need_mm:.1} mm \
         (--gap is {gap_mm:.1} mm): give --gap {need_mm:.1}mm or more, or a smaller --safety"
    )]
    NoSafety {
        gap_mm: f32,
        safety_mm: f32,
        need_mm: f32,
    },
    /// The margins leave no room for the cut outside the outer pieces.
    #[error(
        "the outer pieces' cuts stand {safety_mm:.1} mm off them, past the {margin_mm:.1} mm \
         --margin: give --margin {safety_mm:.1}mm or more, or a smaller --safety"
    )]
    MarginInsideSafety { margin_mm: f32, safety_mm: f32 },
    /// The font has no glyph for a character of the series.
    #[error("the font has no glyph for {0:?}")]
    MissingGlyph(char),
    /// An item's label (or the title) cannot be printed, and why.
    #[error("{label:?}: {why}")]
    Label { label: String, why: String },
    /// An item's picture cannot be printed, and why.
    #[error("item {label:?}: {why}")]
    Picture { label: String, why: String },
}

/// The room outside the bleed that crop marks take, points.
pub const MARKS_AREA: f32 = 18.0;

/// Numbers smaller than this are refused as too small to read.
pub const MIN_NUMBER_PT: f32 = 9.0;

/// A layout worked out: where faces go and how big.
#[derive(Clone, Debug)]
pub struct Plan {
    pub spec: Spec,
    pub grid: Grid,
    /// Records a sheet: the grid's slots, or fewer when a count does not
    /// fill a grid (3 a page in a 2×2 grid, its last row centred).
    pub per_page: usize,
    /// The side of one grid cell, points.
    pub cell: f32,
    /// Records printed.
    pub items: u64,
    /// Sheets (= pages).
    pub sheets: u64,
    pub options: Options,
    /// The file's short id.
    pub id: String,
    /// The series printed on every face.
    pub series: String,
    /// The file's header: how its faces are numbered (from 1, a series
    /// continued, or an import's serials as printed).
    pub header: crate::cardfile::Header,
    /// The number of its last face (group faces are padded to its digits).
    pub last_face: u64,
    /// A record's measures in cells, from the game's paper facts.
    measures: Measures,
    /// The title over each face's grid, if any.
    pub title: Option<String>,
    /// An items game's pictures (ball n at n − 1; none for numbers).
    pub pictures: Vec<Option<pictures::Picture>>,
    /// Records of the series before the file's first (a series continued
    /// by `generate --continue` or `--first-serial`): its strips, books,
    /// sheets and cartons are numbered on from the series' before them.
    pub before: u64,
}

/// The title over each face (`--title`, or an items list's name), its
/// words checked against the fonts, and an items list's pictures.
#[allow(clippy::type_complexity)]
fn title_and_pictures(
    file: &CardFile,
    options: &Options,
) -> Result<(Option<String>, Vec<Option<pictures::Picture>>), PrintError> {
    let spec = file.header().spec;
    let title = (options.title.clone()).or_else(|| spec.items().map(|d| d.list.name.clone()));
    labels::check(spec.items(), title.as_deref())?;
    let pictures = match spec.items() {
        Some(deck) => {
            let here = std::path::Path::new(file.path())
                .parent()
                .map(|p| p.to_path_buf());
            let dir = options.pictures.clone().or(here).unwrap_or_default();
            pictures::load(deck, &dir)?
        }
        None => Vec::new(),
    };
    Ok((title, pictures))
}

/// The layout a sheet gets when none is asked for: the game's default,
/// or on a sheet half as large again as Letter or more (tabloid, A3,
/// SRA3) the most records a sheet whose
/// numbers are at least 80 % of the default's on Letter, as a press fills
/// its sheet (SRA3 holds 6 strips, 3×2, at 12.7 pt, where Letter holds 2 at
/// 15 pt). `cell(n, area)` is the cell of `n` a sheet in that printable
/// area.
fn filling(
    spec: Spec,
    counts: &[usize],
    cell: impl Fn(usize, (f32, f32)) -> f32,
    options: &Options,
) -> usize {
    let base = spec.facts().paper.default_layout;
    let m = 2.0 * options.margin;
    let (w, h) = options.paper;
    // Letter, A4 and Legal keep the default.
    if w * h < 1.5 * 612.0 * 792.0 {
        return base;
    }
    let want = cell(base, (612.0 - m, 792.0 - m));
    (counts.iter().copied())
        .filter(|&n| n > base && cell(n, (w - m, h - m)) >= want * 0.8)
        .max()
        .unwrap_or(base)
}

/// The counts `--layout N` takes: records a sheet.
pub fn layout_counts(spec: Spec) -> &'static [usize] {
    spec.facts().paper.layouts
}

impl Plan {
    /// Works out the layout for `file`; when numbers would be too small,
    /// the error says what would fit.
    pub fn new(file: &CardFile, options: Options) -> Result<Plan, PrintError> {
        let spec = file.header().spec;
        let (w, h) = options.paper;
        let area = (w - 2.0 * options.margin, h - 2.0 * options.margin);
        if area.0 < 72.0 || area.1 < 72.0 {
            return Err(PrintError::NoRoom);
        }
        let (title, pictures) = title_and_pictures(file, &options)?;
        let measures = Measures::new(spec, options.qr, title.is_some());
        let shape = measures.shape();
        let counts = layout_counts(spec);
        let fit = |n: usize, area: (f32, f32)| best_grid(n, area.0, area.1, options.gap, shape);
        // Items cards are read, not checked: as many a page as keep every
        // label readable.
        let default = match spec.items() {
            Some(deck) if options.layout.is_none() => {
                let pictured =
                    |n: u8| (pictures.get(usize::from(n) - 1)).is_some_and(Option::is_some);
                labels::readable_count(deck, pictured, counts, |n| fit(n, area).1)?
            }
            _ => filling(spec, counts, |n, paper| fit(n, paper).1, &options),
        };
        let (grid, cell, per_page) = match options.layout.unwrap_or(Layout::Count(default)) {
            Layout::Count(n) => {
                let (grid, cell) = fit(n, area);
                (grid, cell, n)
            }
            Layout::Grid(grid) => {
                let cell = cell_size(grid, area.0, area.1, options.gap, shape);
                (grid, cell, grid.per_page())
            }
        };
        if cell <= 0.0 {
            return Err(PrintError::NoRoomBetweenGaps { per_page });
        }
        order::safe_cuts(&options, per_page)?;
        if cell * NUMBER < MIN_NUMBER_PT {
            let largest = counts
                .iter()
                .rev()
                .find(|&&n| fit(n, area).1 * NUMBER >= MIN_NUMBER_PT);
            let paper = paper::PAPERS.iter().find(|(_, pw, ph)| {
                let a = (pw - 2.0 * options.margin, ph - 2.0 * options.margin);
                let c = match options.layout {
                    Some(Layout::Grid(g)) => cell_size(g, a.0, a.1, options.gap, shape),
                    _ => fit(per_page, a).1,
                };
                c * NUMBER >= MIN_NUMBER_PT
            });
            return Err(PrintError::TooSmall {
                per_page,
                paper_name: options.paper_name,
                points: cell * NUMBER,
                largest: largest.copied(),
                paper: paper.map(|p| p.0),
            });
        }
        let items = crate::play::reference::records_in(&options.range);
        let sheets = items.div_ceil(per_page as u64);
        let id = file.short_id();
        let series = options.series.clone().unwrap_or_else(|| id.clone());
        let before = order::records_before(file.header());
        Ok(Plan {
            spec,
            grid,
            per_page,
            cell,
            items,
            sheets,
            options,
            id,
            series,
            header: file.header().clone(),
            last_face: *file.header().face_range().end(),
            measures,
            title,
            pictures,
            before,
        })
    }

    /// The series (from 1) of the face numbered `n`, when faces are
    /// counted in series (`--series-size`).
    pub fn series_of(&self, n: u64) -> Option<u64> {
        let size = self.options.series_size.filter(|&s| s > 0)?;
        Some((n.max(1) - 1) / size + 1)
    }

    /// The record printed `index`-th (from 0) of the runs.
    pub fn record_at(&self, index: u64) -> u64 {
        let mut left = index;
        for run in &self.options.range {
            let n = run.end() + 1 - run.start();
            if left < n {
                return run.start() + left;
            }
            left -= n;
        }
        unreachable!("an index within the records printed")
    }

    /// Which of [`Plan::inks`] sheet `sheet` (0-based) is printed in.
    fn ink_index(&self, sheet: u64) -> usize {
        (sheet % self.options.books.len().max(1) as u64) as usize
    }

    /// The ink of sheet `sheet` (0-based).
    fn ink(&self, sheet: u64) -> Ink {
        if self.options.books.is_empty() {
            self.options.ink
        } else {
            self.options.books[self.ink_index(sheet)]
        }
    }

    /// The inks the document uses, each with its form.
    /// The spot plates the document holds, by name, each once in page
    /// order (none when every ink is process or black).
    pub fn spot_plates(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for name in self.inks().into_iter().filter_map(Ink::spot_name) {
            if !out.contains(&name) {
                out.push(name);
            }
        }
        out
    }

    fn inks(&self) -> Vec<Ink> {
        if self.options.books.is_empty() {
            vec![self.options.ink]
        } else {
            self.options.books.clone()
        }
    }

    /// What lies outside the paper, in words: `nothing outside the sheet`,
    /// or `press: 3.0 mm bleed and crop marks outside the trim, page
    /// 665×845 pt`.
    pub fn page_words(&self) -> String {
        let o = &self.options;
        let (w, h) = o.paper;
        if o.bleed == 0.0 && !o.marks {
            return "nothing outside the sheet".into();
        }
        let slug = o.bleed + if o.marks { MARKS_AREA } else { 0.0 };
        let mm = o.bleed / 72.0 * 25.4;
        let outside = match (o.bleed > 0.0, o.marks) {
            (true, true) => format!("{mm:.1} mm bleed and crop marks"),
            (true, false) => format!("{mm:.1} mm bleed"),
            _ => "crop marks".into(),
        };
        format!(
            "press: {outside} outside the trim, page {:.0}×{:.0} pt",
            w + 2.0 * slug,
            h + 2.0 * slug
        )
    }

    /// Every character the document draws, for the font subsets.
    /// The share of each page the faces cover, and the smallest page
    /// (width, height in millimetres, whole) that holds the same layout
    /// within the same margins and gaps.
    pub fn filled(&self) -> (f32, (u32, u32)) {
        let (fw, fh) = face::face_size(self);
        let (pw, ph) = self.options.paper;
        let share = self.per_page as f32 * fw * fh / (pw * ph);
        let o = &self.options;
        let (cols, rows) = (self.grid.cols as f32, self.grid.rows as f32);
        let w = cols * fw + (cols - 1.0) * o.gap + 2.0 * o.margin;
        let h = rows * fh + (rows - 1.0) * o.gap + 2.0 * o.margin;
        let mm = |pt: f32| (pt * 25.4 / 72.0).ceil().max(51.0) as u32;
        (share, (mm(w), mm(h)))
    }

    /// The size an items card's labels print at on the cards printed:
    /// the smallest and the largest, and the label that holds the size
    /// down most (None: cards of numbers).
    pub fn label_sizes(&self, file: &CardFile) -> Result<Option<LabelSizes>, DocumentError> {
        let Some(deck) = self.spec.items() else {
            return Ok(None);
        };
        let font = font::Font::bold(&self.chars()).map_err(PrintError::MissingGlyph)?;
        let pictured = |n: u8| (self.pictures.get(usize::from(n) - 1)).is_some_and(Option::is_some);
        let laid = labels::CardLabels::new(&font, deck, self.cell, pictured);
        let mut sizes: Option<(usize, usize)> = None;
        for run in &self.options.range {
            let each = crate::play::scan_faces(file, run.clone(), |_, face| {
                Some(laid.size_of(face.numbers().iter().copied()))
            })?;
            for k in each {
                sizes = Some(sizes.map_or((k, k), |(a, b)| (a.min(k), b.max(k))));
            }
        }
        Ok(sizes.map(|(a, b)| LabelSizes {
            smallest: laid.points(a),
            largest: laid.points(b),
            longest: laid.tightest().map(|n| deck.label(n).to_string()),
        }))
    }

    fn chars(&self) -> String {
        let mut chars = format!(
            "0123456789BINGOFREECardTicketStripSheetBookpageof·★-:/() {}{}{}{}",
            self.series,
            self.id,
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
            self.title.as_deref().unwrap_or("")
        );
        self.options
            .ink_names
            .iter()
            .for_each(|n| chars.push_str(n));
        // An import's serials print as written: `Série/0077`, `Nº 0077`.
        if let Some(s) = self.header.serials() {
            chars.push_str(&s.prefix);
        }
        if let Some(deck) = self.spec.items() {
            deck.list.labels().for_each(|l| chars.push_str(l));
            chars.push_str(deck.free.as_deref().unwrap_or(""));
            deck.facts().letters.iter().for_each(|l| chars.push_str(l));
        }
        chars
    }
}

/// The faces of the records a batch of sheets prints, read in parallel
/// from the mapped file (every record checked against its game's rules):
/// runs of consecutive records (one for sequential order, one a slot for a
/// cut stack).
pub struct Items {
    per: usize,
    /// (index of the run's first record, that record, its faces).
    runs: Vec<(u64, u64, Vec<Face>)>,
}

/// One record's faces as printed.
pub(super) struct Item<'a> {
    pub(super) record: u64,
    pub(super) faces: &'a [Face],
}

impl Items {
    /// The faces of the records sheets `sheets` print.
    fn for_sheets(
        file: &CardFile,
        plan: &Plan,
        sheets: std::ops::Range<u64>,
    ) -> Result<Items, crate::play::InvalidRecord> {
        let slots = plan.per_page;
        let mut wanted: Vec<u64> = sheets
            .flat_map(|s| (0..slots).filter_map(move |k| plan.item(s, k)))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut runs = Vec::new();
        let mut i = 0;
        while i < wanted.len() {
            let mut j = i + 1;
            // A run of consecutive records (a list's runs break it).
            let at = |k: usize| plan.record_at(wanted[k]);
            while j < wanted.len() && wanted[j] == wanted[j - 1] + 1 && at(j) == at(j - 1) + 1 {
                j += 1;
            }
            let records = at(i)..=at(j - 1);
            let faces = crate::play::scan_faces(file, records, |_, face| Some(*face))?;
            runs.push((wanted[i], at(i), faces));
            i = j;
        }
        file.release_pages();
        Ok(Items {
            per: plan.spec.faces(),
            runs,
        })
    }

    fn get(&self, index: u64) -> Item<'_> {
        let at = self.runs.partition_point(|(start, ..)| *start <= index) - 1;
        let (start, record, faces) = &self.runs[at];
        let i = (index - start) as usize;
        Item {
            record: record + i as u64,
            faces: &faces[i * self.per..(i + 1) * self.per],
        }
    }
}

/// The sizes an items card's labels printed at: one a card, set by its
/// longest label.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelSizes {
    pub smallest: f32,
    pub largest: f32,
    /// The label that holds the size down most (None: the cells' size
    /// does).
    pub longest: Option<String>,
}

/// Why a document could not be made: the layout, a record, or writing.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error(transparent)]
    Print(#[from] PrintError),
    #[error(transparent)]
    Record(#[from] crate::play::InvalidRecord),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Fonts and the names content streams use for them and for the form.
pub(super) struct Fonts {
    pub(super) regular: Font,
    pub(super) bold: Font,
    /// Every number of the game in the bold face: its CIDs and its width at
    /// 1 pt.
    pub(super) numbers: Vec<(Vec<u8>, f32)>,
    /// An items game's labels, laid out in a cell of the plan at each size
    /// a card may take; None for numbers.
    pub(super) labels: Option<labels::CardLabels>,
}

pub(super) const F_REGULAR: Name = Name(b"F1");
pub(super) const F_BOLD: Name = Name(b"F2");
/// The form of ink `k` of [`Plan::inks`].
pub(super) fn form_name(k: usize) -> String {
    format!("Fm{}", k + 1)
}
