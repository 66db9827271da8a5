//! `print`'s words after the flags are read: the library's refusals in the
//! flags' words, a short last book refused, and the run's summary line with
//! its notes (labels under the readers' size, a page left half empty).

use super::args::Args;
use anyhow::{anyhow, Result};
use bingomint::print::job::Part;
use bingomint::print::{LabelSizes, Plan, PrintError, MIN_LABEL_PT, MIN_NUMBER_PT};
use bingomint::text::count_of;

/// Refuses books of `--book-pages K` whose last has fewer than K pages,
/// unless `--allow-short-book`: the count and the fix named.
pub(super) fn short_book(args: &Args, plan: &Plan) -> Result<()> {
    let Some(k) = args.book_pages.map(|k| k as u64) else {
        return Ok(());
    };
    let left = plan.sheets % k;
    if left == 0 || args.trail.allow_short_book {
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

/// The run's line on stdout: records, pages and files, the speed, where.
pub(super) fn summary(
    plan: &Plan,
    parts: &[Part],
    secs: f64,
    labels: Option<LabelSizes>,
) -> Result<()> {
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
    crate::cmd::outln!(
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
        crate::cmd::rate(faces as f64 / secs),
        spec.face_noun(),
        out
    );
    let plates = plan.spot_plates();
    if !plates.is_empty() {
        crate::cmd::outln!(
            "  spot plates: {} (each a /Separation of that name, its process CMYK the alternate)",
            plates.join(", ")
        );
    }
    super::order::said(plan)?;
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

/// Why the document cannot be made, in the flags' words.
pub(super) fn plan_error(e: PrintError) -> anyhow::Error {
    match &e {
        PrintError::NoRoom => anyhow!("--margin leaves less than 1in of paper to print on"),
        PrintError::TooSmall {
            per_page,
            paper_name,
            points,
            largest,
            paper,
        } => {
            let mut hint: Vec<String> = (largest.iter())
                .map(|n| format!("--layout {n} (the most that fits this paper)"))
                .chain(paper.iter().map(|name| format!("--paper {name}")))
                .collect();
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
        PrintError::Label { .. } | PrintError::Picture { .. } => anyhow!("cannot print {e}"),
        PrintError::NoRoomBetweenGaps { .. } => {
            anyhow!("--gap: {e}; use a smaller --gap or --layout")
        }
        PrintError::NoSafety { .. } | PrintError::MarginInsideSafety { .. } => {
            anyhow!("--safety: {e}")
        }
    }
}
