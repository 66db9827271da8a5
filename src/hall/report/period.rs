//! `hall report --period FROM..TO LOG…`: sessions summed over a period, a
//! row per session and the period's totals, as a quarterly return asks
//! (occasions, attendance, receipts paper and electronic, prizes over and
//! under a threshold). Each log is verified and reported as for one night;
//! logs whose session falls outside the period are named and left out.

use super::html::{esc, head, tr, STYLE};
use super::money::Tally;
use super::Record;
use crate::hall::money::show;
use serde::Serialize;

/// One session of the period.
#[derive(Debug, Default, Serialize)]
pub struct SessionRow {
    pub log: String,
    pub date: String,
    pub title: String,
    pub games: u64,
    pub attendance: Option<u64>,
    pub paper: u64,
    pub electronic: u64,
    pub receipts: u64,
    pub over: Tally,
    pub under: Tally,
    pub paid: u64,
}

/// A progressive jackpot's pot carried out of the period: its name, the
/// pot, and the session that carried it.
#[derive(Debug, Serialize)]
pub struct Liability {
    pub name: String,
    pub pot: u64,
    pub date: String,
    pub log: String,
}

/// The period's sessions and totals.
#[derive(Debug, Serialize)]
pub struct Period {
    pub from: String,
    pub to: String,
    pub currency: String,
    pub threshold: u64,
    pub sessions: Vec<SessionRow>,
    /// Logs outside the period: (log, its date).
    pub outside: Vec<(String, String)>,
    pub total: SessionRow,
    /// Each progressive jackpot's pot at the period's end, as the last
    /// session that played it carried it out: what the hall owes its
    /// players in jackpots not yet won.
    pub liability: Vec<Liability>,
    /// The zones its sessions' dates are local to (none: UTC, as logged).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<String>,
}

/// `FROM..TO` as two dates, `YYYY-MM-DD`, in order.
pub fn parse(text: &str) -> Result<(String, String), String> {
    let (a, b) = text.split_once("..").ok_or_else(|| {
        format!("{text:?}: give the period as FROM..TO, such as 2026-10-01..2026-12-31")
    })?;
    let (a, b) = (a.trim(), b.trim());
    for d in [a, b] {
        if !crate::hall::sales::parse::is_date(d) {
            return Err(format!("{d:?} is not a date: write YYYY-MM-DD"));
        }
    }
    if a > b {
        return Err(format!("{a}..{b} ends before it starts"));
    }
    Ok((a.to_string(), b.to_string()))
}

/// Why `records` cannot be summed as one period: a night given twice (the
/// same log, or a copy of it under another name: the same night id), or
/// nights kept in different currencies.
pub fn refused(records: &[(String, Record)]) -> Option<String> {
    let mut ids: Vec<(&str, &str)> = Vec::new();
    let mut kept: Option<(&str, &str)> = None;
    for (log, r) in records {
        if let Some(id) = r.night.as_deref() {
            if let Some((first, _)) = ids.iter().find(|(_, i)| *i == id) {
                return Some(format!(
                    "'{log}' is the night '{first}' is (id {id}): give each night's log once; a copy of a night is no other night"
                ));
            }
            ids.push((log, id));
        }
        let currency = currency_of(r);
        match kept {
            Some((first, c)) if !currency.is_empty() && c != currency => {
                return Some(format!(
                    "'{first}' is kept in {c:?} and '{log}' in {currency:?}: a period sums one currency; report each currency's nights apart"
                ))
            }
            None if !currency.is_empty() => kept = Some((log, currency)),
            _ => {}
        }
    }
    None
}

/// The currency a night's amounts are in: its night file's, else its
/// first game's or payout's.
fn currency_of(r: &Record) -> &str {
    let money = r.money.as_ref().map_or("", |m| m.currency.as_str());
    let paid = (r.games.iter().flat_map(|g| &g.payouts))
        .map(|p| p.currency.as_str())
        .find(|c| !c.is_empty());
    [money, r.currency.as_str(), paid.unwrap_or("")]
        .into_iter()
        .find(|c| !c.is_empty())
        .unwrap_or("")
}

/// The period `from..=to` of `records` (each with its log's name), prizes
/// of `threshold` or more counted apart ([`refused`] first).
pub fn period(from: &str, to: &str, records: &[(String, Record)], threshold: u64) -> Period {
    let mut p = Period {
        from: from.into(),
        to: to.into(),
        currency: String::new(),
        threshold,
        sessions: Vec::new(),
        outside: Vec::new(),
        total: SessionRow {
            log: "total".into(),
            attendance: Some(0),
            ..SessionRow::default()
        },
        zones: Vec::new(),
        liability: Vec::new(),
    };
    for (log, r) in records {
        let date = r.first.get(..10).unwrap_or("").to_string();
        if date.as_str() < from || date.as_str() > to {
            p.outside.push((log.clone(), date));
            continue;
        }
        if p.currency.is_empty() {
            p.currency = currency_of(r).to_string();
        }
        if let Some(z) = r.zone.as_ref().filter(|z| !p.zones.contains(z)) {
            p.zones.push(z.clone());
        }
        for j in r.money.iter().flat_map(|m| &m.jackpots) {
            let carried = Liability {
                name: j.name.clone(),
                pot: j.pot_out,
                date: date.clone(),
                log: log.clone(),
            };
            match p.liability.iter_mut().find(|l| l.name == j.name) {
                Some(l) if l.date <= date => *l = carried,
                Some(_) => {}
                None => p.liability.push(carried),
            }
        }
        let row = SessionRow::of(log, date, r, threshold);
        p.total.add(&row);
        p.sessions.push(row);
    }
    p.sessions.sort_by(|a, b| a.date.cmp(&b.date));
    if p.sessions.iter().any(|s| s.attendance.is_none()) {
        p.total.attendance = None;
    }
    p
}

impl SessionRow {
    /// A session's row: its record `r`, read from `log`, played on
    /// `date`, prizes of `threshold` or more counted apart.
    fn of(log: &str, date: String, r: &Record, threshold: u64) -> SessionRow {
        let mut row = SessionRow {
            log: log.to_string(),
            date,
            title: r.title.clone().unwrap_or_default(),
            games: r.games.len() as u64,
            ..SessionRow::default()
        };
        let paid = (r.games.iter())
            .flat_map(|g| &g.payouts)
            .filter(|x| x.voided.is_none() && !x.winners.is_empty());
        for pay in paid {
            let t = if pay.minor >= threshold {
                &mut row.over
            } else {
                &mut row.under
            };
            t.prizes += 1;
            t.amount += pay.minor;
            row.paid += pay.minor;
        }
        if let Some(m) = &r.money {
            (row.attendance, row.paper, row.electronic, row.receipts) =
                (m.attendance, m.paper, m.electronic, m.net);
        }
        row
    }

    /// `row` added to this total.
    fn add(&mut self, row: &SessionRow) {
        self.games += row.games;
        self.attendance = self.attendance.zip(row.attendance).map(|(a, b)| a + b);
        self.paper += row.paper;
        self.electronic += row.electronic;
        self.receipts += row.receipts;
        self.over.prizes += row.over.prizes;
        self.over.amount += row.over.amount;
        self.under.prizes += row.under.prizes;
        self.under.amount += row.under.amount;
        self.paid += row.paid;
    }
}

const HEAD: [&str; 12] = [
    "Date",
    "Session",
    "Log",
    "Games",
    "Attendance",
    "Paper",
    "Electronic",
    "Receipts",
    "Prizes at or over",
    "Amount",
    "Prizes under",
    "Amount",
];

impl Period {
    fn cells(&self, s: &SessionRow) -> [String; 12] {
        let m = |a| show(a, &self.currency);
        [
            s.date.clone(),
            s.title.clone(),
            s.log.clone(),
            s.games.to_string(),
            s.attendance.map_or(String::new(), |a| a.to_string()),
            m(s.paper),
            m(s.electronic),
            m(s.receipts),
            s.over.prizes.to_string(),
            m(s.over.amount),
            s.under.prizes.to_string(),
            m(s.under.amount),
        ]
    }

    /// The period as a page to print (A4 or letter, within 1,000 px): a
    /// row per session and the total, with the net (receipts less prizes),
    /// then the jackpots' liability.
    pub fn html(&self) -> String {
        let mut h = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sessions {f} to {t}</title>\n<style>{STYLE}table.period{{width:100%;max-width:60em;font-size:10pt}}table.period td:first-child,table.period td:nth-child(n+3){{white-space:nowrap}}table.period td:nth-child(n+3){{text-align:right}}table.period small{{color:#555;word-break:break-all}}</style></head><body>\n<h1>Sessions {f} to {t}</h1>\n<p>Each log verified; prizes of {th} or more counted apart.{z}</p>\n",
            f = esc(&self.from),
            t = esc(&self.to),
            th = esc(&show(self.threshold, &self.currency)),
            z = self.zone_words()
        );
        let over = format!(
            "Prizes of {} or more",
            esc(&show(self.threshold, &self.currency))
        );
        h += &head(&[
            "Date",
            "Session",
            "Games",
            "Attendance",
            "Receipts",
            "Prizes paid",
            "Net",
            &over,
        ])
        .replacen("<table>", "<table class=\"period\">", 1);
        let m = |a| esc(&show(a, &self.currency));
        for s in self.sessions.iter().chain([&self.total]) {
            let net = i128::from(s.receipts) - i128::from(s.paid);
            let net = match u64::try_from(net) {
                Ok(n) => m(n),
                Err(_) => format!("−{}", m(u64::try_from(-net).unwrap_or(0))),
            };
            let session = if s.title.is_empty() && s.log == "total" {
                "<b>total</b>".to_string()
            } else {
                format!("{}<br><small>{}</small>", esc(&s.title), esc(&s.log))
            };
            h += &format!(
                "<tr><td>{}</td><td>{session}</td><td>{}</td><td>{}</td><td>{}<br><small>paper {} · electronic {}</small></td><td>{}</td><td>{net}</td><td>{} · {}</td></tr>\n",
                esc(&s.date),
                s.games,
                s.attendance.map_or(String::new(), |a| a.to_string()),
                m(s.receipts),
                m(s.paper),
                m(s.electronic),
                m(s.paid),
                s.over.prizes,
                m(s.over.amount),
            );
        }
        h += "</table>\n";
        h += &self.liability_html();
        h + &self.left_out() + "</body></html>\n"
    }

    /// The progressive jackpots' pots at the period's end, and their sum.
    fn liability_html(&self) -> String {
        if self.liability.is_empty() {
            return "<p>No progressive jackpot was played: no jackpot liability.</p>\n".into();
        }
        let m = |a| show(a, &self.currency);
        let mut h = "<h2>Jackpot liability at the period's end</h2>\n".to_string();
        h += &head(&["Jackpot", "Pot carried out", "By the session of"]);
        for l in &self.liability {
            h += &tr(&[&l.name, &m(l.pot), &format!("{} ({})", l.date, l.log)]);
        }
        let sum = self.liability.iter().map(|l| l.pot).sum();
        h += &tr(&["total", &m(sum), ""]);
        h + "</table>\n"
    }

    /// What the page says of its dates' zones: nothing for UTC as logged.
    pub(super) fn zone_words(&self) -> String {
        if self.zones.is_empty() {
            return String::new();
        }
        format!(
            " Dates are each session's local date ({}).",
            esc(&self.zones.join(", "))
        )
    }

    /// The logs left out, outside the period, a line each.
    pub(super) fn left_out(&self) -> String {
        (self.outside.iter())
            .map(|(log, date)| {
                format!(
                    "<p>Left out: <code>{}</code> ({}), outside the period.</p>\n",
                    esc(log),
                    esc(date)
                )
            })
            .collect()
    }

    /// The period as CSV: a row per session, then the total.
    pub fn csv(&self) -> Result<String, ::csv::Error> {
        let mut w = ::csv::Writer::from_writer(Vec::new());
        w.write_record(HEAD)?;
        for s in self.sessions.iter().chain([&self.total]) {
            w.write_record(
                self.cells(s)
                    .map(|c| crate::text::spreadsheet_safe(&c).into_owned()),
            )?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8(bytes).expect("CSV of text is text"))
    }
}
