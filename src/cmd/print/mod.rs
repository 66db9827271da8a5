//! `bingomint print`: a press-ready PDF of a card file.
//!
//! Flags → `print::Plan` (layout checked for readability) → the faces →
//! `print::document` per output file (pages in parallel) → each file
//! written whole or not at all, then the manifest.

mod args;
mod calling;
mod items;
mod large;
mod options;
mod order;
mod press;
mod summary;
mod trail;

use super::{clear_stale, require_sound, with_threads, Bar, Outcome};
use anyhow::{Context, Result};
pub use args::Args;
use bingomint::cardfile::writer::{refuse_existing, write_text};
use bingomint::cardfile::CardFile;
use bingomint::print::job::{self, ManifestRow, Part};
use bingomint::print::{self as pr, DocumentError, Plan};
use std::path::PathBuf;
use summary::{plan_error, short_book, summary};

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
    large::large_enough(&args, &plan)?;
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
    trail::write(&args, &plan, &parts)?;
    if !args.quiet {
        let sizes = plan.label_sizes(&file)?;
        summary(&plan, &parts, started.elapsed().as_secs_f64(), sizes)?;
    }
    Ok(Outcome::Success)
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
    trail::check(args, &parts, manifest.as_deref())?;
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
