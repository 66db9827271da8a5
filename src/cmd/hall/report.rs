//! `bingomint hall report`: the night's record from its log, verified first.

use super::open_cards;
use crate::cmd::{outln, Outcome};
use anyhow::{bail, Context, Result};
use bingomint::hall::judge::Cards;
use bingomint::hall::report::{csv, html, record, slips};
use bingomint::hall::verify::verify;
use std::path::{Path, PathBuf};

/// `hall report LOG --cards FILE… [--slips] --out FILE`.
pub fn run(
    log: &Path,
    cards: &[PathBuf],
    out: &Path,
    (slipped, force, quiet): (bool, bool, bool),
) -> Result<Outcome> {
    let shown = log.display();
    let kind = match out.extension().and_then(|e| e.to_str()) {
        _ if out == Path::new("-") => "html",
        Some("html" | "htm") => "html",
        Some("csv") => "csv",
        Some("json") => "json",
        _ => bail!(
            "--out '{}': name the report .html, .csv or .json (or - for HTML on standard output)",
            out.display()
        ),
    };
    if slipped && kind != "html" {
        bail!(
            "--slips: the slips are a page to print: name --out .html (or - for standard output), not '{}'",
            out.display()
        );
    }
    crate::cmd::output::not_an_input(out, "--out", &[log])?;
    if out != Path::new("-") {
        bingomint::cardfile::writer::refuse_existing(out, force).map_err(|e| {
            anyhow::anyhow!("--out {e}: choose another file or add --force to replace it")
        })?;
    }
    let text = std::fs::read_to_string(log).with_context(|| format!("cannot read '{shown}'"))?;
    let (files, _) = open_cards(cards)?;
    let mut cards = Cards::new(files, None);
    if let Err(f) = verify(&text, &mut cards) {
        outln!(
            "FAILED: {shown} line {}: {} (no report written)",
            f.line,
            f.what
        );
        return Ok(Outcome::Negative);
    }
    let (lines, _) = bingomint::hall::log::read(&text)?;
    let record = record(&lines);
    let (body, summary) = if slipped {
        let Some(slipped) = slip_page(&record, &cards) else {
            outln!("no prize was paid (or every payout was voided): no winner slips written");
            return Ok(Outcome::Negative);
        };
        slipped
    } else {
        let body = match kind {
            "csv" => csv(&record).context("cannot make the CSV")?,
            "json" => serde_json::to_string_pretty(&record)? + "\n",
            _ => html(&record, &shown.to_string()),
        };
        let games = bingomint::text::count_of(record.games.len() as u64, "game");
        let summary = format!("the night's record: {games}, paid {}", record.paid_text);
        (body, summary)
    };
    let target = (out != Path::new("-")).then_some(out);
    crate::cmd::write_bytes(target, force, body.as_bytes())?;
    if target.is_some() && !quiet {
        outln!("{summary} -> {}", out.display());
    }
    Ok(Outcome::Success)
}

/// The winner slips of `record` and what to say of them; None when the
/// night paid nothing.
fn slip_page(record: &bingomint::hall::report::Record, cards: &Cards) -> Option<(String, String)> {
    let page = slips(record, cards)?;
    let paid = (record.games.iter())
        .flat_map(|g| &g.payouts)
        .filter(|p| p.voided.is_none())
        .count();
    let prizes = if paid == 1 { "prize" } else { "prizes" };
    Some((page, format!("winner slips: {paid} {prizes} paid")))
}
