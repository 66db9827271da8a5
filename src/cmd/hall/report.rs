//! `bingomint hall report`: the night's record from its log, verified
//! first; its winner slips; a regulator's form; or a period's sessions
//! summed.

use super::open_cards;
use super::sub::Form;
use crate::cmd::{outln, Outcome};
use anyhow::{bail, Context, Result};
use bingomint::hall::judge::Cards;
use bingomint::hall::report::{csv, html, money::money, period, record, slips, wa_daily, Record};
use bingomint::hall::verify::verify;
use std::path::{Path, PathBuf};

/// `hall report`'s flags.
#[derive(clap::Args)]
pub struct Args {
    /// The log (several, with --period).
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// The card files the night played.
    #[arg(long = "cards", value_name = "FILE", required = true)]
    pub cards: Vec<PathBuf>,
    /// The report: .html (a page to print), .csv (a row per event) or
    /// .json, by its extension; - writes HTML to standard output.
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
    /// Winner slips instead of the record: a page per prize paid (not
    /// voided), each winner's face with the numbers called by then
    /// marked and the last ball ringed, the share, and lines to sign;
    /// HTML. A night that paid nothing has none (exit 1).
    #[arg(long)]
    pub slips: bool,
    /// A regulator's form instead of the record: wa-daily, Washington's
    /// bingo daily record (WAC 230-10-335) with its per-set records;
    /// HTML, for a night that sold by serial range.
    #[arg(long, value_enum, value_name = "FORM", conflicts_with = "slips")]
    pub form: Option<Form>,
    /// Sum the sessions of LOG… whose date is within FROM..TO
    /// (2026-10-01..2026-12-31): a row per session and the totals.
    #[arg(long, value_name = "FROM..TO", conflicts_with_all = ["slips", "form"])]
    pub period: Option<String>,
    /// Prizes of this amount or more are counted apart (and, in
    /// wa-daily, prizes over it list their calls and cards).
    #[arg(long, value_name = "AMOUNT", default_value = "200.00")]
    pub threshold: String,
    /// Replace an existing report.
    #[arg(long)]
    pub force: bool,
    /// No summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `hall report LOG… --cards FILE… --out FILE`.
pub fn run(a: &Args) -> Result<Outcome> {
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
    let threshold = bingomint::hall::money::parse_amount(&a.threshold)
        .map_err(|e| anyhow::anyhow!("--threshold: {e}"))?;
    if a.logs.len() > 1 && a.period.is_none() {
        bail!("LOG: {} logs given; one night's record is of one log (give --period FROM..TO to sum several sessions)", a.logs.len());
    }
    let span = (a.period.as_deref())
        .map(|p| period::parse(p).map_err(|e| anyhow::anyhow!("--period: {e}")))
        .transpose()?;
    crate::cmd::output::not_an_input(
        out,
        "--out",
        &a.logs.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
    )?;
    if out != Path::new("-") {
        bingomint::cardfile::writer::refuse_existing(out, a.force).map_err(|e| {
            anyhow::anyhow!("--out {e}: choose another file or add --force to replace it")
        })?;
    }
    let (files, _) = open_cards(&a.cards)?;
    let mut cards = Cards::new(files, None);
    let mut records = Vec::new();
    for log in &a.logs {
        match night(log, &mut cards, threshold)? {
            Some(r) => records.push((log.display().to_string(), r)),
            None => return Ok(Outcome::Negative),
        }
    }
    let (body, summary) = if let Some((from, to)) = span {
        let p = period::period(&from, &to, &records, threshold);
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
        (
            body,
            format!(
                "{from} to {to}: {sessions}{left}, receipts {}, prizes {}",
                show(p.total.receipts, &p.currency),
                show(p.total.paid, &p.currency)
            ),
        )
    } else {
        let (log, record) = &records[0];
        match one(a, kind, log, record, &cards)? {
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

fn show(minor: u64, currency: &str) -> String {
    bingomint::hall::money::show(minor, currency)
}

/// The verified record of the night at `log`, with its money; None (said)
/// when the log does not verify.
fn night(log: &Path, cards: &mut Cards, threshold: u64) -> Result<Option<Record>> {
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
    let (lines, _) = bingomint::hall::log::read(&text)?;
    let mut record = record(&lines);
    record.money = money(&lines, &record, &summary, threshold);
    Ok(Some(record))
}

/// One night's record, slips or form, and what to say of it; None (said)
/// when there is nothing to write.
fn one(
    a: &Args,
    kind: &str,
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
    let paid = (record.games.iter())
        .flat_map(|g| &g.payouts)
        .filter(|p| p.voided.is_none())
        .count();
    let prizes = if paid == 1 { "prize" } else { "prizes" };
    Some((page, format!("winner slips: {paid} {prizes} paid")))
}
