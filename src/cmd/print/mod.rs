//! `bingomint print`: a press-ready PDF of a card file.
//!
//! Flags → `print::Plan` (layout checked for readability) → the faces →
//! `print::document` per output file (pages in parallel) → each file
//! written whole or not at all, then the manifest.

mod args;
mod calling;
mod items;
mod options;

use super::{clear_stale, require_sound, with_threads, Bar, Outcome};
use anyhow::{Context, Result};
pub use args::Args;
use bingomint::cardfile::writer::{refuse_existing, write_text};
use bingomint::cardfile::CardFile;
use bingomint::print::job::{self, ManifestRow, Part};
use bingomint::print::{self as pr, DocumentError, LabelSizes, Plan, MIN_LABEL_PT};
use bingomint::text::count_of;
use options::plan_error;
use std::path::PathBuf;

/// Runs `print`.
pub fn run(args: Args) -> Result<Outcome> {
    args.validate()?;
    let file = CardFile::open_intact(&args.file)?;
    if args.items.calling_cards {
        return calling::run(&args, &file);
    }
    let range = args.range(&file)?;
    let options = args.options(&file, range.clone())?;
    let plan = Plan::new(&file, options).map_err(plan_error)?;
    short_book(&args, &plan)?;
    let (parts, manifest) = outputs(&args, &plan)?;
    let started = std::time::Instant::now();
    let rows = with_threads(args.threads, || -> Result<Vec<ManifestRow>> {
        for run in range {
            require_sound(&file, run, None)?;
        }
        let bar = Bar::new(plan.sheets, "page", args.quiet);
        let mut rows = Vec::new();
        for part in &parts {
            let path = &part.path;
            // Pages go to the file as they are made; the file is published
            // whole or not at all.
            let sha256 = write_text(Some(path), args.force, |out| -> Result<String> {
                let mut hashed = job::Hashed::new(out);
                pr::document(&plan, &file, part.sheets.clone(), &bar, &mut hashed).map_err(
                    |e| match e {
                        DocumentError::Print(e) => plan_error(e),
                        DocumentError::Io(e) => anyhow::Error::new(e)
                            .context(format!("cannot write '{}'", path.display())),
                        e => e.into(),
                    },
                )?;
                Ok(hashed.sha256())
            })?;
            rows.push(ManifestRow::new(&plan, part, sha256));
        }
        bar.finish();
        Ok(rows)
    })??;
    if let Some(m) = &manifest {
        // The parts of the run this one replaces that it did not make again.
        let stale: Vec<PathBuf> = job::listed_parts(m)
            .into_iter()
            .filter(|old| !parts.iter().any(|p| &p.path == old) && old.is_file())
            .collect();
        write_text(Some(m), args.force, |out| {
            job::write_manifest(&rows, out)
                .with_context(|| format!("cannot write '{}'", m.display()))
        })?;
        for old in &stale {
            std::fs::remove_file(old)
                .with_context(|| format!("cannot remove '{}'", old.display()))?;
        }
        if !stale.is_empty() && !args.quiet {
            eprintln!(
                "bingomint: removed {} of the replaced run that this run does not make",
                bingomint::text::count_of(stale.len() as u64, "file")
            );
        }
    }
    if let Some(path) = &args.packing {
        let colours = match args.book_pages {
            Some(_) => args.colours.clone(),
            None => vec![args.colour.clone()],
        };
        let rows = pr::packing::packing(&plan, &parts, &colours, args.books_per_carton);
        write_text(Some(path), args.force, |out| {
            pr::packing::write(&rows, out)
                .with_context(|| format!("cannot write '{}'", path.display()))
        })?;
    }
    if !args.quiet {
        let sizes = plan.label_sizes(&file)?;
        summary(&plan, &parts, started.elapsed().as_secs_f64(), sizes)?;
    }
    Ok(Outcome::Success)
}

/// Refuses books of `--book-pages K` whose last has fewer than K pages,
/// unless `--allow-short-book`: the count and the fix named.
fn short_book(args: &Args, plan: &Plan) -> Result<()> {
    let Some(k) = args.book_pages.map(|k| k as u64) else {
        return Ok(());
    };
    let left = plan.sheets % k;
    if left == 0 || args.allow_short_book {
        return Ok(());
    }
    let whole = plan.sheets - left;
    let fits = (whole * plan.per_page as u64).min(plan.items);
    let range = match &plan.options.range[..] {
        [one] if fits > 0 => format!(" (--range {}..{})", one.start(), one.start() + fits - 1),
        _ => String::new(),
    };
    let short = match plan.cut_into_books() {
        false => format!("book {}", whole / k + 1),
        true => format!(
            "the last book of each of the {} piles cut from the sheets",
            plan.per_page
        ),
    };
    anyhow::bail!(
        "--book-pages {k}: {} make {} pages, so {short} would have {left} of its {k} pages; print {}{range} for whole books, or give --allow-short-book",
        count_of(plan.items, plan.spec.noun()),
        plan.sheets,
        count_of(fits, plan.spec.noun()),
    )
}

/// The PDF files of the run and the manifest (with `--pages-per-file`),
/// none of them in place of an existing file without `--force`; the
/// folder made when the run is split.
fn outputs(args: &Args, plan: &Plan) -> Result<(Vec<Part>, Option<PathBuf>)> {
    let parts = job::parts(&args.out, plan.sheets, args.pages_per_file);
    for part in &parts {
        super::not_an_input(&part.path, "--out", &[&args.file])?;
        refuse_existing(&part.path, args.force)?;
        clear_stale(Some(&part.path), args.force)?;
    }
    let manifest = args
        .pages_per_file
        .map(|_| args.out.with_file_name("manifest.csv"));
    if let Some(packing) = &args.packing {
        if packing.extension().and_then(|e| e.to_str()) != Some("csv") {
            anyhow::bail!(
                "--packing '{}': give a file name ending in .csv",
                packing.display()
            );
        }
        let pdfs: Vec<&std::path::Path> = parts.iter().map(|p| p.path.as_path()).collect();
        super::not_an_input(packing, "--packing", &[&args.file])?;
        if pdfs.contains(&packing.as_path()) || manifest.as_deref() == Some(packing.as_path()) {
            anyhow::bail!(
                "--packing '{}' is one of the run's own files: give another name",
                packing.display()
            );
        }
        refuse_existing(packing, args.force)?;
    }
    if let Some(m) = &manifest {
        refuse_existing(m, args.force)?;
    }
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if args.pages_per_file.is_some() && !dir.exists() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the folder '{}'", dir.display()))?;
        }
    }
    Ok((parts, manifest))
}

/// The run's line on stdout: records, pages and files, the speed, where.
fn summary(plan: &Plan, parts: &[Part], secs: f64, labels: Option<LabelSizes>) -> Result<()> {
    let files = parts.len();
    let out = match parts {
        [one] => one.path.display().to_string(),
        [first, .., last] => format!("{} … {}", first.path.display(), last.path.display()),
        [] => String::new(),
    };
    let spec = plan.spec;
    let secs = secs.max(1e-6);
    let faces = plan.items * spec.faces() as u64;
    // What a reader reads: the numbers' size, or an items card's labels'
    // (one size a card, set by its longest label).
    let size = match &labels {
        Some(l) if l.largest - l.smallest < 0.05 => format!("labels {:.1} pt", l.smallest),
        Some(l) => format!("labels {:.1}–{:.1} pt", l.smallest, l.largest),
        None => format!("{:.1} pt numbers", plan.cell * 0.5),
    };
    super::outln!(
        "{} on {} {} ({} a page, {size}, {}) in {}, {secs:.2} s, {} {}s/s -> {}",
        count_of(plan.items, spec.noun()),
        plan.sheets,
        if plan.sheets == 1 {
            format!("{} page", plan.options.paper_name)
        } else {
            format!("{} pages", plan.options.paper_name)
        },
        plan.per_page,
        plan.page_words(),
        count_of(files as u64, "file"),
        super::rate(faces as f64 / secs),
        spec.face_noun(),
        out
    );
    // (Items cards a page as print chose them are few on purpose: their
    // labels must be read.)
    let (share, (w, h)) = plan.filled();
    let chosen_for_labels = labels.is_some() && plan.options.layout.is_none();
    if share < 0.5 && !chosen_for_labels {
        eprintln!(
            "bingomint: note: the faces cover {:.0}% of each {} page; a page of {w}x{h}mm holds the same layout (--paper {w}x{h}mm), or --layout puts more on this one",
            share * 100.0,
            plan.options.paper_name
        );
    }
    if let Some(l) = labels.filter(|l| l.smallest < MIN_LABEL_PT) {
        let how = match (plan.options.layout.is_some(), &l.longest) {
            (true, _) => "fewer cards a page (print chooses for the labels without --layout) or a larger --paper make them larger".to_string(),
            (false, Some(longest)) => format!(
                "even one card a page; the longest label ({longest:?}) sets the size: a shorter one or a larger --paper makes them larger"
            ),
            (false, None) => "even one card a page: a larger --paper makes them larger".to_string(),
        };
        eprintln!(
            "bingomint: note: some labels print at {:.1} pt, under the {MIN_LABEL_PT} pt readers read easily: {how}",
            l.smallest
        );
    }
    Ok(())
}
