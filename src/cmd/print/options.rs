//! What `print`'s flags mean to the library: `print::Options`, checked,
//! and the library's refusals in the flags' words.

use super::args::Args;
use crate::cmd::flag;
use anyhow::{bail, Result};
use bingomint::cardfile::CardFile;
use bingomint::play::reference::locate_ranges;
use bingomint::print::job;
use bingomint::print::paper::{self, Layout};
use bingomint::print::{self as pr, Ink, Options, Order};
/// A run of records.
type Run = std::ops::RangeInclusive<u64>;

impl Args {
    /// The checks that need no file: the output's name, the split.
    pub(super) fn validate(&self) -> Result<()> {
        let out = self.out.display();
        if self.out.extension().and_then(|e| e.to_str()) != Some("pdf") {
            bail!("--out '{out}': give a file name ending in .pdf");
        }
        if self.pages_per_file == Some(0) {
            bail!("--pages-per-file must be at least 1");
        }
        Ok(())
    }

    /// An ink as named, a spot colour with `--spot`.
    fn ink(&self, text: &str) -> Result<Ink, pr::InkError> {
        if self.trail.spot {
            Ink::parse_spot(text)
        } else {
            Ink::parse(text)
        }
    }

    /// The records `--range` names (every one when not given).
    pub(super) fn range(&self, file: &CardFile) -> Result<Vec<Run>> {
        let (spec, count) = (file.header().spec, file.header().count);
        match &self.range {
            Some(text) => Ok(locate_ranges(file, text).map_err(flag("--range"))?),
            None if count == 0 => bail!("'{}' holds no {}s to print", file.path(), spec.noun()),
            None => Ok(vec![1..=count]),
        }
    }

    /// What the flags ask of the PDF, checked; the error names the flag.
    pub(super) fn options(&self, file: &CardFile, range: Vec<Run>) -> Result<Options> {
        let spec = file.header().spec;
        let counts = pr::layout_counts(spec);
        let asked = self.layout.as_deref().or(self.large_print.then_some("1"));
        let layout = (asked.map(|t| Layout::parse(t, counts)))
            .transpose()
            .map_err(flag("--layout"))?;
        let bleed = paper::length(&self.bleed).map_err(flag("--bleed"))?;
        // The print house's page when asked or implied by a bleed.
        let press = self.press || bleed > 0.0;
        let options = Options {
            paper: paper::paper(&self.paper).map_err(flag("--paper"))?,
            paper_name: self.paper.clone(),
            layout,
            margin: paper::length(&self.margin).map_err(flag("--margin"))?,
            gap: paper::length(&self.gap).map_err(flag("--gap"))?,
            bleed,
            marks: press && !self.no_marks,
            series: self.series.clone(),
            qr: self.qr,
            group_face: self.group_face,
            ink: self.ink(&self.colour).map_err(flag("--colour"))?,
            books: books(self)?,
            // A spot ink named as its maker names it is called by that
            // name (PANTONE 116 C), not by its alternate.
            ink_names: match self.book_pages {
                Some(_) => self.colours.iter().map(|c| pr::ink_name(c)).collect(),
                None => vec![pr::ink_name(&self.colour)],
            },
            background: {
                if !(0.0..=50.0).contains(&self.trail.background) {
                    bail!(
                        "--background {}: give a tint from 0 to 50 percent",
                        self.trail.background
                    );
                }
                self.trail.background / 100.0
            },
            order: if self.order == "cut-stack" {
                Order::CutStack
            } else {
                Order::Sequential
            },
            range,
            date: job::date(file.header().created)?,
            title: self.items.title.clone(),
            pictures: self.items.pictures.clone(),
            stack: self.stack()?,
            after: self.after(file)?,
            safety: paper::length(&self.trail.safety).map_err(flag("--safety"))?,
            series_size: match (self.trail.series_size, spec) {
                (Some(0), _) => None,
                (Some(n), _) => Some(n),
                (None, bingomint::game::Spec::Us75 { .. }) => Some(9000),
                (None, _) => None,
            },
        };
        // Numbers in a light ink on the white faces are hard to read.
        let named = std::iter::once(&self.colour).chain(&self.colours);
        let inks = std::iter::once(options.ink).chain(options.books.iter().copied());
        for (name, _) in named.zip(inks).filter(|(_, ink)| ink.light()) {
            eprintln!("bingomint: note: {name} is a light ink: its numbers are hard to read on the white faces; a darker ink (orange, or cmyk:0,30,100,20 for a dark yellow) prints the sheet's colour legibly, and --background tints the sheet around the faces");
        }
        if self.group_face && spec.facts().free == 0 {
            bail!("--group-face is printed in the free centre: 75-ball cards only");
        }
        if self.group_face && options.books.len() > 9 {
            bail!("--group-face takes one colour digit a sheet: at most 9 --colours");
        }
        for (flag, text) in [("--title", &self.items.title), ("--series", &self.series)] {
            if text.as_deref().is_some_and(|t| !pr::series_ok(t)) {
                bail!("{flag}: give 1 to {} printable characters (no invisible character, no doubled or outer space)", pr::MAX_SERIES);
            }
        }
        Ok(options)
    }
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
        .map(|c| args.ink(c).map_err(flag("--colours")))
        .collect()
}
