//! `hall report`'s nights read and verified, and `--period`: their
//! sessions summed.

use crate::cmd::outln;
use anyhow::{Context, Result};
use bingomint::hall::judge::Cards;
use bingomint::hall::report::{money::money, period, record, Record};
use bingomint::hall::verify::verify;
use bingomint::hall::zone::Zone;
use std::path::{Path, PathBuf};

/// The verified records of `logs`, each with its money; None (said) at
/// the first that does not verify.
pub(super) fn nights(
    logs: &[PathBuf],
    cards: &mut Cards,
    threshold: u64,
    zone: Option<&Zone>,
) -> Result<Option<Vec<(String, Record)>>> {
    let mut records = Vec::new();
    for log in logs {
        match night(log, cards, threshold, zone)? {
            Some(r) => records.push((log.display().to_string(), r)),
            None => return Ok(None),
        }
    }
    Ok(Some(records))
}

/// The sessions of `records` within `span`, as `kind`, and what to say.
pub(super) fn summed(
    (from, to): &(String, String),
    records: &[(String, Record)],
    threshold: u64,
    (kind, duty): (&str, bool),
) -> Result<(String, String)> {
    if let Some(why) = period::refused(records) {
        anyhow::bail!("--period: {why}");
    }
    let p = period::period(from, to, records, threshold);
    if duty {
        let (_, _, _, due) = p.duty();
        let summary = format!(
            "bingo duty {from} to {to}: {}, duty {}",
            bingomint::text::count_of(p.sessions.len() as u64, "session"),
            show(due, &p.currency)
        );
        return Ok((p.duty_html(), summary));
    }
    let body = match kind {
        "csv" => p.csv().context("cannot make the CSV")?,
        "json" => serde_json::to_string_pretty(&p)? + "\n",
        _ => p.html(),
    };
    let sessions = bingomint::text::count_of(p.sessions.len() as u64, "session");
    let left = if p.outside.is_empty() {
        String::new()
    } else {
        format!(" ({} outside the period left out)", p.outside.len())
    };
    let summary = format!(
        "{from} to {to}: {sessions}{left}, receipts {}, prizes {}",
        show(p.total.receipts, &p.currency),
        show(p.total.paid, &p.currency)
    );
    Ok((body, summary))
}

fn show(minor: u64, currency: &str) -> String {
    bingomint::hall::money::show(minor, currency)
}

/// The verified record of the night at `log`, with its money, its times in
/// `zone` (else the zone its night file states; else UTC as logged); None
/// (said) when the log does not verify.
fn night(
    log: &Path,
    cards: &mut Cards,
    threshold: u64,
    zone: Option<&Zone>,
) -> Result<Option<Record>> {
    let shown = log.display();
    let text = std::fs::read_to_string(log).with_context(|| format!("cannot read '{shown}'"))?;
    cards.sold = None;
    let summary = match verify(&text, cards) {
        Ok(s) => s,
        Err(f) => {
            outln!(
                "FAILED: {shown} line {}: {} (no report written)",
                f.line,
                f.what
            );
            return Ok(None);
        }
    };
    let (mut lines, _) = bingomint::hall::log::read(&text)?;
    let logged = lines.iter().find_map(|l| match &l.event {
        bingomint::hall::Event::Session(s) => s.zone.clone(),
        _ => None,
    });
    let zone =
        match (zone, logged) {
            (Some(z), _) => Some(z.clone()),
            (None, Some(name)) => Some(Zone::parse(&name).map_err(|why| {
                anyhow::anyhow!("{shown}: the night's zone {why}; give --zone ZONE")
            })?),
            (None, None) => None,
        };
    if let Some(z) = &zone {
        for l in &mut lines {
            l.time = z.local(&l.time);
        }
    }
    let mut record = record(&lines);
    record.zone = zone.map(|z| z.name().to_string());
    record.money = money(&lines, &record, &summary, threshold);
    Ok(Some(record))
}
