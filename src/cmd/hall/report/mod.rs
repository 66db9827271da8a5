//! `bingomint hall report`: the night's record from its log, verified
//! first; its winner slips; a regulator's form; or a period's sessions
//! summed.

mod args;
mod period;
mod stock;

use super::open_cards;
use crate::cmd::{outln, Outcome};
use anyhow::{bail, Context, Result};
pub use args::{Args, Form};
use bingomint::hall::judge::Cards;
use bingomint::hall::report::{csv, html, period as span, slips, w2g, wa_daily, Record};
use std::path::{Path, PathBuf};

/// `hall report LOG… --cards FILE… --out FILE`.
pub fn run(a: &Args) -> Result<Outcome> {
    let out = a.out.as_path();
    let kind = kind_of(a)?;
    let default = match a.form {
        Some(Form::W2g) => "1200.00",
        _ => "200.00",
    };
    let threshold = bingomint::hall::money::parse_amount(a.threshold.as_deref().unwrap_or(default))
        .map_err(|e| anyhow::anyhow!("--threshold: {e}"))?;
    if a.logs.len() > 1 && a.period.is_none() {
        bail!("LOG: {} logs given; one night's record is of one log (give --period FROM..TO to sum several sessions)", a.logs.len());
    }
    let span = (a.period.as_deref())
        .map(|p| span::parse(p).map_err(|e| anyhow::anyhow!("--period: {e}")))
        .transpose()?;
    match (a.form, &span) {
        (Some(Form::UkDuty), None) => {
            bail!("--form uk-duty: a duty return is of an accounting period: give --period FROM..TO and its sessions' logs")
        }
        (Some(Form::WaDaily | Form::W2g), Some(_)) => {
            bail!("--form: wa-daily and w2g are of one night; --period sums sessions (its form is uk-duty)")
        }
        _ => {}
    }
    let inputs: Vec<&Path> = (a.logs.iter().chain(&a.stock))
        .map(PathBuf::as_path)
        .collect();
    crate::cmd::output::not_an_input(out, "--out", &inputs)?;
    if out != Path::new("-") {
        bingomint::cardfile::writer::refuse_existing(out, a.force).map_err(|e| {
            anyhow::anyhow!("--out {e}: choose another file or add --force to replace it")
        })?;
    }
    if let Some(book) = &a.stock {
        return stock::stock(book, kind, a);
    }
    let (files, _) = open_cards(&a.cards)?;
    let mut cards = Cards::new(files, None);
    let zone = a.zone()?;
    let Some(mut records) = period::nights(&a.logs, &mut cards, threshold, zone.as_ref())? else {
        return Ok(Outcome::Negative);
    };
    let (body, summary) = if let Some(span) = span {
        period::summed(
            &span,
            &records,
            threshold,
            (kind, a.form == Some(Form::UkDuty)),
        )?
    } else {
        let (log, record) = &mut records[0];
        if let Some(control) = &a.control {
            let text = std::fs::read_to_string(&*log)?;
            let (lines, _) = bingomint::hall::log::read(&text)?;
            match super::verify::report_records(&lines, &a.link_logs, control)? {
                Ok(linked) => record.linked = linked,
                Err(why) => {
                    outln!("FAILED: {why}");
                    return Ok(Outcome::Negative);
                }
            }
        }
        match one(a, (kind, threshold), log, record, &cards)? {
            Some(made) => made,
            None => return Ok(Outcome::Negative),
        }
    };
    let target = (out != Path::new("-")).then_some(out);
    crate::cmd::write_bytes(target, a.force, body.as_bytes())?;
    if target.is_some() && !a.quiet {
        outln!("{summary} -> {}", out.display());
    }
    Ok(Outcome::Success)
}

/// What the report is written as, from `--out`'s extension: html, csv or
/// json; slips and forms are pages to print.
fn kind_of(a: &Args) -> Result<&'static str> {
    let out = a.out.as_path();
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
    if (a.slips || a.form.is_some()) && kind != "html" {
        let what = if a.slips {
            "--slips: the slips are"
        } else {
            "--form: the form is"
        };
        bail!(
            "{what} a page to print: name --out .html (or - for standard output), not '{}'",
            out.display()
        );
    }
    Ok(kind)
}

/// One night's record, slips or form, and what to say of it; None (said)
/// when there is nothing to write.
fn one(
    a: &Args,
    (kind, threshold): (&str, u64),
    log: &str,
    record: &Record,
    cards: &Cards,
) -> Result<Option<(String, String)>> {
    if a.slips {
        let made = slip_page(record, cards);
        if made.is_none() {
            outln!("no prize was paid (or every payout was voided): no winner slips written");
        }
        return Ok(made);
    }
    if let Some(Form::W2g) = a.form {
        let Some(page) = w2g(record, threshold, log) else {
            outln!(
                "{log}: no winner's share reached {}: no W-2G list to fill",
                bingomint::hall::money::show(threshold, &record.currency)
            );
            return Ok(None);
        };
        return Ok(Some((page, "the prizes for Form W-2G".to_string())));
    }
    if let Some(Form::WaDaily) = a.form {
        let text = std::fs::read_to_string(log)?;
        let (lines, _) = bingomint::hall::log::read(&text)?;
        let Some(page) = wa_daily(&lines, record, log) else {
            outln!("{log}: the night sold nothing by serial range ([[product]] and POST /api/sales): no daily record of its receipts to fill");
            return Ok(None);
        };
        let m = record.money.as_ref().expect("a form is of a night's money");
        return Ok(Some((
            page,
            format!(
                "the daily record of {}: receipts {}, prizes {}",
                m.date,
                m.show(m.net),
                m.show(m.paid)
            ),
        )));
    }
    let body = match kind {
        "csv" => csv(record).context("cannot make the CSV")?,
        "json" => serde_json::to_string_pretty(record)? + "\n",
        _ => html(record, log),
    };
    let games = bingomint::text::count_of(record.games.len() as u64, "game");
    let mut summary = format!("the night's record: {games}, paid {}", record.paid_text);
    if let Some(m) = &record.money {
        summary += &format!(", receipts {}", m.show(m.net));
    }
    Ok(Some((body, summary)))
}

/// The winner slips of `record` and what to say of them; None when the
/// night paid nothing.
fn slip_page(record: &Record, cards: &Cards) -> Option<(String, String)> {
    let page = slips(record, cards)?;
    // The slips' own count: a consolation nobody took has no slip.
    let paid = (record.games.iter())
        .flat_map(|g| &g.payouts)
        .filter(|p| p.voided.is_none() && !p.winners.is_empty())
        .count();
    let prizes = if paid == 1 { "prize" } else { "prizes" };
    Some((page, format!("winner slips: {paid} {prizes} paid")))
}
