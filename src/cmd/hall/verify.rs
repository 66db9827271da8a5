//! `bingomint hall verify`: nights' logs checked against their card files,
//! and, with `--jackpots`, against the ledger that carried their
//! progressive jackpots.

use super::open_cards;
use crate::cmd::{outln, Outcome};
use anyhow::{Context, Result};
use bingomint::hall::judge::Cards;
use bingomint::hall::sales::ledger::{check, NightSeen};
use bingomint::hall::verify::{pinned, verify, Pinned, Summary};
use bingomint::text::count_of;
use std::path::{Path, PathBuf};

mod linked;
mod stock;
pub use linked::{report_records, Linked};

/// `hall verify`.
pub fn run(
    logs: &[PathBuf],
    cards: &[PathBuf],
    (jackpots, stock): (Option<&Path>, Option<&Path>),
    link: &Linked,
) -> Result<Outcome> {
    let key = link.key()?;
    let (files, _) = open_cards(cards)?;
    let balls = files[0].header().spec.balls();
    let mut cards = Cards::new(files, None);
    let mut found = Vec::new();
    for log in logs {
        let text = std::fs::read_to_string(log)
            .with_context(|| format!("cannot read '{}'", log.display()))?;
        cards.sold = None;
        match verify(&text, &mut cards) {
            Ok(s) => {
                let (lines, _) = bingomint::hall::log::read(&text)?;
                let pinned = pinned(&lines);
                if let Pinned::Differs { line, why } = &pinned {
                    outln!("FAILED: {} line {line}: {why}", log.display());
                    return Ok(Outcome::Negative);
                }
                said(log, &s)?;
                prices(&pinned)?;
                found.push((log.display().to_string(), s));
            }
            Err(f) => {
                outln!("FAILED: {} line {}: {}", log.display(), f.line, f.what);
                return Ok(Outcome::Negative);
            }
        }
    }
    if let Some((a, b, id)) = same_night(&found) {
        outln!("FAILED: {b} is the night {a} is (id {id}): a night's log is given once, and a copy of it is no other night");
        return Ok(Outcome::Negative);
    }
    if let Some(key) = key {
        if let Outcome::Negative = linked::check_all(logs, link, key)? {
            return Ok(Outcome::Negative);
        }
    }
    let played = found.iter().any(|(_, s)| !s.outcomes.is_empty());
    match jackpots {
        Some(ledger) => {
            if let Outcome::Negative = against_ledger(ledger, balls, &found)? {
                return Ok(Outcome::Negative);
            }
        }
        None if played => {
            outln!("note: the nights played progressive jackpots; give --jackpots FILE to check their pots against the ledger");
        }
        None => {}
    }
    match stock {
        Some(book) => stock::against_stock(book, &cards, &found),
        None => Ok(Outcome::Success),
    }
}

/// The nights `found` (each log's name and summary) checked against the
/// ledger that carried their progressive jackpots.
fn against_ledger(ledger: &Path, balls: u8, found: &[(String, Summary)]) -> Result<Outcome> {
    let text = std::fs::read_to_string(ledger)
        .with_context(|| format!("--jackpots: cannot read '{}'", ledger.display()))?;
    let nights: Vec<NightSeen> = (found.iter())
        .map(|(log, s)| NightSeen {
            log: log.clone(),
            id: s.night.as_deref(),
            opened: &s.opened_pots,
            outcomes: &s.outcomes,
        })
        .collect();
    match check(&text, balls, &nights) {
        Ok(c) => {
            outln!(
                "OK: {}: {} chained, {} of progressive jackpots found in {} as logged",
                ledger.display(),
                count_of(c.lines, "line"),
                count_of(c.matched, "night"),
                if found.len() == 1 {
                    "its log"
                } else {
                    "their logs"
                }
            );
            for p in &c.pots {
                outln!(
                    "  {:?}: {} within {} calls",
                    p.rules.name,
                    bingomint::hall::money::show(p.pot, ""),
                    p.within
                );
            }
            if !c.unmatched.is_empty() {
                outln!(
                    "note: {} of the ledger's are of logs not given, so not checked against them",
                    count_of(c.unmatched.len() as u64, "night")
                );
            }
            Ok(Outcome::Success)
        }
        Err((line, why)) => {
            outln!("FAILED: {} line {line}: {why}", ledger.display());
            Ok(Outcome::Negative)
        }
    }
}

/// What the night file the log opened with says of its prices.
fn prices(pinned: &Pinned) -> Result<()> {
    match pinned {
        Pinned::Same { path } => {
            outln!("  the products' prices are those of the night file '{path}' the session opened with (its SHA-256 as logged)");
        }
        Pinned::Unavailable { path, why } => {
            outln!("note: the night file '{path}' {why}: the products' prices are checked against the log alone");
        }
        Pinned::Nothing | Pinned::Differs { .. } => {}
    }
    Ok(())
}

/// Two logs of one night (its id), if any: the first, the second, the id.
pub fn same_night(found: &[(String, Summary)]) -> Option<(&str, &str, &str)> {
    let mut seen = std::collections::BTreeMap::new();
    for (log, s) in found {
        let Some(id) = s.night.as_deref() else {
            continue;
        };
        if let Some(first) = seen.insert(id, log.as_str()) {
            return Some((first, log.as_str(), id));
        }
    }
    None
}

/// What one sound log held.
fn said(log: &Path, s: &Summary) -> Result<()> {
    let seeded = s.calls - s.blower_calls;
    let (calls, claims) = (count_of(seeded, "call"), count_of(s.claims, "claim"));
    let payouts = count_of(s.payouts, "payout");
    outln!(
        "OK: {}: {} chained, {} ended, {calls} {} their revealed seeds, {claims} judged the same again, {payouts} found again",
        log.display(),
        count_of(s.lines, "line"),
        count_of(s.games, "game"),
        if seeded == 1 { "matches" } else { "match" }
    );
    if !s.sales.list.is_empty() {
        let shown = s.sales.shown();
        let list = &s.sales.list;
        let returns = list.iter().map(|x| x.returned.len() as u64).sum();
        let voids = list.iter().filter(|x| x.void.is_some()).count() as u64;
        outln!(
            "  {}, {} and {} checked against the products' prices and the faces issued: net receipts {} ({} faces sold)",
            count_of(list.len() as u64, "sale"),
            count_of(returns, "return"),
            count_of(voids, "void"),
            bingomint::hall::money::show(shown.net, ""),
            shown.faces
        );
    }
    if s.reversed > 0 {
        outln!(
            "note: {} taken back after {} game ended (out of the night's sum, as logged with the reason)",
            count_of(s.reversed, "payout"),
            if s.reversed == 1 { "its" } else { "their" }
        );
    }
    if s.blower > 0 {
        outln!(
            "note: {} of balls from a blower ({}): no seed to check their calls against (each ball is a number of the game, none called twice)",
            count_of(s.blower, "game"),
            count_of(s.blower_calls, "call")
        );
    }
    for g in &s.voided {
        outln!("note: game {g} ended unrevealed (its seed was lost): its calls cannot be checked");
    }
    if let Some(g) = s.open {
        outln!("note: game {g} is still open; its calls can be checked once it ends and its seed is out");
    }
    Ok(())
}
