//! `bingomint print`: a press-ready PDF of a card file.
//!
//! Flags → `print::Plan` (layout checked for readability) → the faces →
//! `print::document` per output file (pages in parallel) → each file
//! written whole or not at all, then the manifest.

use super::{clear_stale, flag, require_sound, with_threads, Bar, Outcome};
use anyhow::{anyhow, bail, Context, Result};
use bingomint::cardfile::writer::{refuse_existing, write_text};
use bingomint::cardfile::CardFile;
use bingomint::export::parse_range;
use bingomint::print::job::{self, ManifestRow};
use bingomint::print::paper::{self, Layout};
use bingomint::print::{self as pr, Ink, Options, Order, Plan, PrintError, MIN_NUMBER_PT};
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// Print a card file as a press-ready PDF: n-up faces, each with its face
/// number, series and the file's id, sheet numbers, crop marks.
///
/// 75-ball: 6 cards a page on Letter by default; 90-ball: 2 strips a page,
/// the six tickets of a strip kept together. Text is vector, in an embedded
/// subset of DejaVu Sans; the PDF follows PDF/X-1a:2001 (PDF 1.3, gray or
/// one CMYK ink, no transparency, TrimBox and BleedBox on every page). The
/// same file and flags give the same bytes.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bingomint print cards.bmc --out cards.pdf
  bingomint print cards.bmc --layout 9 --paper a4 --bleed 3mm --series 'Autumn 24-B' --range 1..9000 --out s24b.pdf
  bingomint print cards.bmc --layout 3x2 --qr --colour cmyk:0,100,100,0 --out red.pdf
  bingomint print strips.bmc --paper legal --out strips.pdf
  bingomint print cards.bmc --pages-per-file 500 --out run/cards.pdf   # run/cards-0001.pdf … and run/manifest.csv
  bingomint print cards.bmc --order cut-stack --out stack.pdf
  bingomint print cards.bmc --book-pages 3 --colours cmyk:0,100,100,0 cmyk:100,0,0,0 gray --out books.pdf
  bingomint print cards.bmc --bleed 3mm --background 15 --colour cmyk:100,0,0,0 --out tinted.pdf")]
pub struct Args {
    /// The card file (native or v3).
    file: PathBuf,

    /// The PDF to write.
    #[arg(short, long, value_name = "FILE.pdf")]
    out: PathBuf,

    /// Faces a page: 75-ball 1, 2, 3, 4, 6, 8, 9, 12 or 18 cards (the grid
    /// that fits best), 90-ball 1-3 strips; or columns x rows, e.g. 3x2
    /// [default: 6 cards, 2 strips].
    #[arg(long, value_name = "N|CxR")]
    layout: Option<String>,

    /// Paper (the trim size): letter, legal, tabloid, a4, a3, sra3, or
    /// WxH with a unit (210x297mm, 8.5x11in).
    #[arg(long, default_value = "letter")]
    paper: String,

    /// Space between the paper's edge and the faces.
    #[arg(long, default_value = "0.375in", value_name = "LENGTH")]
    margin: String,

    /// Space between faces.
    #[arg(long, default_value = "0.25in", value_name = "LENGTH")]
    gap: String,

    /// Bleed beyond the trim (BleedBox; crop marks sit outside it).
    #[arg(long, default_value = "0mm", value_name = "LENGTH")]
    bleed: String,

    /// Leave out the crop marks.
    #[arg(long)]
    no_marks: bool,

    /// The series printed on every face [default: the file's id].
    #[arg(long)]
    series: Option<String>,

    /// A QR code on each face holding bingomint:ID:card:N (or
    /// …:ticket:N), which `check --card` accepts.
    #[arg(long)]
    qr: bool,

    /// The ink: gray, or cmyk:C,M,Y,K in percent.
    #[arg(long, alias = "color", default_value = "gray", value_name = "INK")]
    colour: String,

    /// Books of K sheets: page k of each book printed in the k-th of
    /// --colours, each sheet labelled with its book and page.
    #[arg(long, value_name = "K", requires = "colours")]
    book_pages: Option<usize>,

    /// The inks of a book's pages, one for each of --book-pages: gray or
    /// cmyk:C,M,Y,K, separated by spaces.
    #[arg(long, value_name = "INK", num_args = 1.., requires = "book_pages")]
    colours: Vec<String>,

    /// A tint of the ink behind each sheet, in percent, reaching into the
    /// bleed (the faces stay white).
    #[arg(long, value_name = "PERCENT", default_value_t = 0.0)]
    background: f32,

    /// sequential: sheet 1 holds faces 1…n; cut-stack: after cutting the
    /// stack, each pile holds consecutive faces.
    #[arg(long, default_value = "sequential", value_parser = ["sequential", "cut-stack"])]
    order: String,

    /// Cards (or strips) to print, `A..B` [default: all].
    #[arg(long, value_name = "A..B")]
    range: Option<String>,

    /// Split into files of at most N pages (FILE-0001.pdf …) and write a
    /// manifest.csv beside them (file, pages, first and last face, SHA-256).
    #[arg(long, value_name = "N")]
    pages_per_file: Option<u64>,

    /// Replace existing output files.
    #[arg(long)]
    force: bool,

    /// Worker threads [default: every core].
    #[arg(short = 'j', long)]
    threads: Option<usize>,

    /// No progress bar or summary.
    #[arg(short, long)]
    quiet: bool,
}

impl Args {
    /// What the flags ask of the PDF, checked; the error names the flag.
    fn options(&self, file: &CardFile, range: RangeInclusive<u64>) -> Result<Options> {
        let spec = file.header().spec;
        let layout = self
            .layout
            .as_deref()
            .map(|t| Layout::parse(t, pr::layout_counts(spec)))
            .transpose()
            .map_err(flag("--layout"))?;
        let options = Options {
            paper: paper::paper(&self.paper).map_err(flag("--paper"))?,
            paper_name: self.paper.clone(),
            layout,
            margin: paper::length(&self.margin).map_err(flag("--margin"))?,
            gap: paper::length(&self.gap).map_err(flag("--gap"))?,
            bleed: paper::length(&self.bleed).map_err(flag("--bleed"))?,
            marks: !self.no_marks,
            series: self.series.clone(),
            qr: self.qr,
            ink: Ink::parse(&self.colour).map_err(flag("--colour"))?,
            books: books(self)?,
            background: {
                if !(0.0..=50.0).contains(&self.background) {
                    bail!(
                        "--background {}: give a tint from 0 to 50 percent",
                        self.background
                    );
                }
                self.background / 100.0
            },
            order: if self.order == "cut-stack" {
                Order::CutStack
            } else {
                Order::Sequential
            },
            range,
            date: job::date(file.header().created)?,
        };
        if let Some(series) = &self.series {
            if series.chars().count() > 40 || series.chars().any(char::is_control) {
                bail!("--series: at most 40 printable characters");
            }
        }
        Ok(options)
    }
}

/// Runs `print`.
pub fn run(args: Args) -> Result<Outcome> {
    if args.out.extension().and_then(|e| e.to_str()) != Some("pdf") {
        bail!(
            "--out '{}': give a file name ending in .pdf",
            args.out.display()
        );
    }
    let file = CardFile::open_intact(&args.file)?;
    let spec = file.header().spec;
    let count = file.header().count;
    let range = match &args.range {
        Some(text) => parse_range(text, count, spec.noun()).map_err(super::flag("--range"))?,
        None => {
            if count == 0 {
                bail!("'{}' holds no {}s to print", file.path(), spec.noun());
            }
            1..=count
        }
    };
    let options = args.options(&file, range.clone())?;
    if args.pages_per_file == Some(0) {
        bail!("--pages-per-file must be at least 1");
    }
    let plan = Plan::new(&file, options).map_err(plan_error)?;
    let parts = job::parts(&args.out, plan.sheets, args.pages_per_file);
    for part in &parts {
        refuse_existing(&part.path, args.force)?;
        clear_stale(Some(&part.path), args.force)?;
    }
    let manifest = args
        .pages_per_file
        .map(|_| args.out.with_file_name("manifest.csv"));
    if let Some(m) = &manifest {
        refuse_existing(m, args.force)?;
    }
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if args.pages_per_file.is_some() && !dir.exists() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the folder '{}'", dir.display()))?;
        }
    }
    let started = std::time::Instant::now();
    let plan = &plan;
    let rows = with_threads(args.threads, || -> Result<Vec<ManifestRow>> {
        require_sound(&file, range.clone(), None)?;
        let items = pr::faces(&file, plan)?;
        file.release_pages();
        let bar = Bar::new(plan.sheets, "page", args.quiet);
        let mut rows = Vec::new();
        for part in &parts {
            let bytes =
                pr::document(plan, &items, part.sheets.clone(), &bar).map_err(plan_error)?;
            let path = &part.path;
            write_text(Some(path), args.force, |out| {
                out.write_all(&bytes)
                    .with_context(|| format!("cannot write '{}'", path.display()))
            })?;
            rows.push(ManifestRow::new(plan, part, &bytes));
        }
        bar.finish();
        Ok(rows)
    })??;
    if let Some(m) = &manifest {
        write_text(Some(m), args.force, |out| {
            job::write_manifest(&rows, out)
                .with_context(|| format!("cannot write '{}'", m.display()))
        })?;
    }
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64().max(1e-6);
        let faces = plan.items * spec.faces() as u64;
        eprintln!(
            "{} {}s on {} pages ({} a page, {:.1} pt numbers) in {} file{}, {secs:.2} s, {} {}s/s",
            plan.items,
            spec.noun(),
            plan.sheets,
            plan.grid.per_page(),
            plan.cell * 0.5,
            parts.len(),
            if parts.len() == 1 { "" } else { "s" },
            super::rate(faces as f64 / secs),
            spec.face_noun()
        );
    }
    Ok(Outcome::Success)
}

/// The inks of `--book-pages K --colours …`.
fn books(args: &Args) -> Result<Vec<Ink>> {
    let Some(k) = args.book_pages else {
        return Ok(Vec::new());
    };
    if k == 0 || k > 16 {
        bail!("--book-pages {k}: give 1 to 16 sheets a book");
    }
    if args.colours.len() != k {
        bail!(
            "--colours: give one ink for each of the {k} pages of a book (got {})",
            args.colours.len()
        );
    }
    args.colours
        .iter()
        .map(|c| Ink::parse(c).map_err(flag("--colours")))
        .collect()
}

/// Why the document cannot be made, in the flags' words.
fn plan_error(e: PrintError) -> anyhow::Error {
    match &e {
        PrintError::NoRoom => anyhow!("--margin leaves less than 1in of paper to print on"),
        PrintError::TooSmall {
            per_page,
            paper_name,
            points,
            largest,
            paper,
        } => {
            let mut hint = Vec::new();
            if let Some(n) = largest {
                hint.push(format!("--layout {n} (the most that fits this paper)"));
            }
            if let Some(name) = paper {
                hint.push(format!("--paper {name}"));
            }
            if hint.is_empty() {
                hint.push("a smaller --margin or --gap".into());
            }
            anyhow!(
                "--layout {per_page} on {paper_name} paper makes numbers {points:.1} pt, too small \
                 to read (at least {MIN_NUMBER_PT} pt); use {}",
                hint.join(", or ")
            )
        }
        PrintError::MissingGlyph(_) => anyhow!("--series: {e}"),
    }
}
