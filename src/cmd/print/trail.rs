//! The press's paper trail beside the PDF: the packing list
//! (`--packing`) and the carton labels (`--carton-labels`), each checked
//! before the run (no existing file replaced without --force, none named
//! as one of the run's own files) and written after it.

use super::Args;
use anyhow::{bail, Context, Result};
use bingomint::cardfile::writer::{refuse_existing, write_text};
use bingomint::print::job::Part;
use bingomint::print::{self as pr, Plan};
use std::path::Path;

/// The trail's files, each with its flag and the ending it must have.
fn files(args: &Args) -> Vec<(&Path, &'static str, &'static str)> {
    let t = &args.trail;
    let packing = t.packing.as_deref().map(|p| (p, "--packing", "csv"));
    let labels = t
        .carton_labels
        .as_deref()
        .map(|p| (p, "--carton-labels", "pdf"));
    packing.into_iter().chain(labels).collect()
}

/// Refuses, before anything is written, a trail file of the wrong kind,
/// one that is the input or one of the run's own files, or one that
/// exists (without --force); and labels' words no label can carry.
pub(super) fn check(args: &Args, parts: &[Part], manifest: Option<&Path>) -> Result<()> {
    let t = &args.trail;
    if let Some(job) = t.job.as_deref().filter(|j| !pr::cartons::job_ok(j)) {
        bail!("--job {job:?}: give 1 to 24 letters, digits, '-', '_', '.' or '/' (a scanner reads them back as typed)");
    }
    for (flag, text) in [("--customer", &t.customer), ("--maker", &t.maker)] {
        if text.as_deref().is_some_and(|c| !pr::series_ok(c)) {
            bail!("{flag}: give 1 to {} printable characters (no invisible character, no doubled or outer space)", pr::MAX_SERIES);
        }
    }
    pr::paper::paper(&t.label_size).map_err(crate::cmd::flag("--label-size"))?;
    let files = files(args);
    for (i, &(path, flag, ending)) in files.iter().enumerate() {
        if path.extension().and_then(|e| e.to_str()) != Some(ending) {
            bail!(
                "{flag} '{}': give a file name ending in .{ending}",
                path.display()
            );
        }
        crate::cmd::not_an_input(path, flag, &[&args.file])?;
        let own = parts.iter().any(|p| p.path == path)
            || manifest == Some(path)
            || files[..i].iter().any(|&(p, _, _)| p == path);
        if own {
            bail!(
                "{flag} '{}' is one of the run's own files: give another name",
                path.display()
            );
        }
        refuse_existing(path, args.force).map_err(|e| {
            anyhow::anyhow!("{flag} {e}: give another file, or add --force to replace it")
        })?;
    }
    Ok(())
}

/// Writes the packing list and the carton labels of `plan`'s run, printed
/// into `parts`.
pub(super) fn write(args: &Args, plan: &Plan, parts: &[Part]) -> Result<()> {
    let t = &args.trail;
    if t.packing.is_none() {
        return Ok(());
    }
    let rows = pr::packing::packing(plan, parts, &plan.options.ink_names, t.books_per_carton);
    if let Some(path) = &t.packing {
        write_text(Some(path), args.force, |out| {
            pr::packing::write(&rows, &plan.header, out)
                .with_context(|| format!("cannot write '{}'", path.display()))
        })?;
    }
    // The labels are of the packing list's cartons (--books-per-carton).
    if let (Some(path), Some(_)) = (&t.carton_labels, t.books_per_carton) {
        let carton = pr::cartons::Carton {
            maker: t.maker.as_deref(),
            customer: t.customer.as_deref(),
            job: t.job.as_deref(),
        };
        let paper = pr::paper::paper(&t.label_size).map_err(crate::cmd::flag("--label-size"))?;
        let stock = pr::cartons::LabelStock::new(&t.label_size, paper);
        let pdf = pr::cartons::carton_labels(plan, &carton, &rows, &stock)
            .with_context(|| format!("--carton-labels '{}'", path.display()))?;
        crate::cmd::write_bytes(Some(path), args.force, &pdf)?;
    }
    Ok(())
}
