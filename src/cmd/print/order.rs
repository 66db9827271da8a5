//! A print run's place in its order: `--stack` (lifts of whole books, files
//! split at them) and `--after` (the earlier order's packing list, whose
//! last book, carton and sheet this run numbers on from), checked in the
//! flags' words; and the summary's lines saying where the run begins.

use super::args::Args;
use anyhow::{bail, Result};
use bingomint::cardfile::CardFile;
use bingomint::print::{self as pr, Plan};

impl Args {
    /// `--stack N`: a cut stack's lifts, whole books each, files split at
    /// stacks.
    pub(super) fn stack(&self) -> Result<Option<u64>> {
        let Some(n) = self.trail.stack else {
            return Ok(None);
        };
        if self.order != "cut-stack" {
            bail!("--stack {n}: stacks are lifts of a cut stack; add --order cut-stack");
        }
        // A stack is whole books: 500 sheets in books of 6 lift as 498.
        let k = self.book_pages.unwrap_or(1) as u64;
        if n < k {
            bail!("--stack {n}: a stack holds whole books of --book-pages {k}: give --stack {k} or more");
        }
        let size = pr::stack_sheets(n, k);
        if let Some(per) = self.pages_per_file.filter(|per| per % size != 0) {
            let up = (per / size).max(1) * size;
            bail!("--pages-per-file {per}: files split at stacks of {size} sheets (--stack {n}): give --pages-per-file {up} or {}", up + size);
        }
        Ok(Some(n))
    }

    /// `--after PREV.csv`: the earlier order's last numbers, its serials
    /// checked against this file's.
    pub(super) fn after(&self, file: &CardFile) -> Result<Option<pr::After>> {
        let Some(path) = &self.trail.after else {
            return Ok(None);
        };
        let shown = path.display();
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("--after '{shown}': cannot read it: {e}"))?;
        let read = String::from_utf8(bytes).ok();
        let Some((after, last)) = read.as_deref().and_then(pr::packing::read_after) else {
            bail!("--after '{shown}': not a packing list print wrote (give the earlier order's --packing file)");
        };
        let header = file.header();
        let first = *header.face_range().start();
        if header.serials().is_none() && first <= last {
            bail!(
                "--after '{shown}': that order printed serials up to {last}, and '{}' starts at {first}: mint this order with --continue (its serials from {})",
                file.path(),
                last + 1
            );
        }
        Ok(Some(after))
    }
}

/// The summary's lines on the order: where a continued series begins, and
/// the stacks the sheets are cut in.
pub(super) fn said(plan: &Plan) -> Result<()> {
    if plan.before > 0 {
        // A series continued: nothing printed repeats a number of the
        // order before it.
        let book = match plan.options.books.is_empty() {
            true => String::new(),
            false => format!(", book {}", plan.books_before() + 1),
        };
        let record = match plan.spec.faces() {
            1 => String::new(),
            _ => format!("{} {}, ", plan.spec.noun(), plan.before + 1),
        };
        crate::cmd::outln!(
            "  the series continues: {record}sheet {}{book} come first",
            plan.sheet_number(0)
        );
    }
    if plan.options.stack.is_some() && plan.stacks() > 1 {
        crate::cmd::outln!(
            "  stacks: {} of {} sheets (the last {}), each cut into {} piles",
            plan.stacks(),
            plan.stack_size(),
            plan.stack_of(plan.sheets - 1).2,
            plan.per_page
        );
    }
    Ok(())
}
