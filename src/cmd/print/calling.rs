//! `print --calling-cards`: an items game's every item once, on cards to
//! cut out, as one PDF.

use super::summary::plan_error;
use super::Args;
use crate::cmd::{outln, Outcome};
use anyhow::{bail, Result};
use bingomint::cardfile::writer::refuse_existing;
use bingomint::cardfile::CardFile;
use bingomint::print::{calling, paper};

/// Writes the calling cards of `file`'s list to `--out`.
pub fn run(args: &Args, file: &CardFile) -> Result<Outcome> {
    let Some(deck) = file.header().spec.items() else {
        bail!(
            "--calling-cards is for items games; '{}' holds {} cards, whose calls are numbers",
            file.path(),
            file.header().spec.short_name()
        );
    };
    let sheet = paper::paper(&args.paper).map_err(crate::cmd::flag("--paper"))?;
    let margin = paper::length(&args.margin).map_err(crate::cmd::flag("--margin"))?;
    let title = args.items.title.as_deref();
    if title.is_some_and(|t| !bingomint::print::series_ok(t)) {
        bail!(
            "--title: give 1 to {} printable characters (no invisible character, no doubled or outer space)",
            bingomint::print::MAX_SERIES
        );
    }
    let name = title.unwrap_or(&deck.list.name);
    let pdf = calling::calling_cards(deck, name, sheet, margin).map_err(plan_error)?;
    crate::cmd::not_an_input(&args.out, "--out", &[&args.file])?;
    refuse_existing(&args.out, args.force)?;
    crate::cmd::write_bytes(Some(&args.out), args.force, &pdf)?;
    if !args.quiet {
        let n = deck.list.items.len();
        outln!(
            "{} calling cards of '{}' on {} {} pages -> {}",
            n,
            name,
            n.div_ceil(18),
            args.paper,
            args.out.display()
        );
    }
    Ok(Outcome::Success)
}
