//! `hall report --stock`: the paper stock book listed.

use super::Args;
use crate::cmd::{outln, Outcome};
use anyhow::{Context, Result};
use bingomint::hall::zone::Zone;
use std::path::Path;

/// `hall report --stock BOOK --out FILE`: the stock book listed, its
/// chain verified first (a broken book exits 1 and writes nothing).
pub(super) fn stock(book: &Path, kind: &str, a: &Args) -> Result<Outcome> {
    use bingomint::hall::report::{stock_csv, stock_html, stock_json};
    let text = std::fs::read_to_string(book)
        .with_context(|| format!("--stock: cannot read '{}'", book.display()))?;
    let zone = a.zone()?;
    let mut standing = match bingomint::hall::stock::check(&text, &[]) {
        Ok(s) => s,
        Err((line, why)) => {
            outln!("FAILED: '{}' line {line}: {why}", book.display());
            return Ok(Outcome::Negative);
        }
    };
    if let Some(z) = &zone {
        standing.localise(|t| z.local(t));
    }
    let shown = book.display().to_string();
    let body = match kind {
        "csv" => stock_csv(&standing).context("cannot make the CSV")?,
        "json" => serde_json::to_string_pretty(&stock_json(&standing))? + "\n",
        _ => stock_html(&standing, &shown, zone.as_ref().map(Zone::name)),
    };
    let out = a.out.as_path();
    let target = (out != Path::new("-")).then_some(out);
    crate::cmd::write_bytes(target, a.force, body.as_bytes())?;
    if target.is_some() && !a.quiet {
        let on_hand: u64 = standing.papers.iter().map(|p| p.on_hand().count()).sum();
        let sessions: usize = standing.papers.iter().map(|p| p.sessions.len()).sum();
        outln!(
            "the paper stock: {}, {}, {} on hand -> {}",
            bingomint::text::count_of(standing.papers.len() as u64, "card file"),
            bingomint::text::count_of(sessions as u64, "session"),
            bingomint::text::count_of(on_hand, "face"),
            out.display()
        );
    }
    Ok(Outcome::Success)
}
