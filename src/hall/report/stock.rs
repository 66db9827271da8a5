//! The paper stock book as a report (`hall report --stock`): for each card
//! file, what was received (by range and series), what each session holds
//! sold and what came back from it, what was destroyed, and what is on
//! hand; as a page, CSV rows or JSON. Received is always on hand plus
//! sold plus destroyed: a reader can add it up.

use super::html::{esc, head, tr, STYLE};
use crate::hall::stock::{Faces, Paper, Standing};
use crate::text::count_of;
use serde_json::json;

/// One card file's totals: received, held sold by sessions, destroyed,
/// on hand (faces).
fn totals(p: &Paper) -> [u64; 4] {
    [
        p.all_received().count(),
        p.all_sold().count(),
        p.all_destroyed().count(),
        p.on_hand().count(),
    ]
}

/// The book as a page to print, read from the book at `book`.
pub fn stock_html(s: &Standing, book: &str, zone: Option<&str>) -> String {
    let at = match zone {
        Some(z) => format!("Time ({})", esc(z)),
        None => "Time (UTC)".into(),
    };
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Paper stock</title>\n<style>{STYLE}</style></head><body>\n<h1>Paper stock</h1>\n<p>From the stock book '{}', its chain verified. Faces are counted one by one; received = sold + destroyed + on hand.</p>\n",
        esc(book)
    );
    for p in &s.papers {
        h += &paper_html(p, &at);
    }
    h + "</body></html>\n"
}

/// One card file's paper: its totals, receipts, sessions, losses and
/// what is on hand; `at` the time columns' heading.
fn paper_html(p: &Paper, at: &str) -> String {
    let mut h = String::new();
    let [received, sold, destroyed, on_hand] = totals(p);
    h += &format!(
        "<h2>Card file {} ('{}')</h2>\n",
        esc(&p.cards),
        esc(&p.path)
    );
    h += &head(&[
        "Received",
        "Sold (held by sessions)",
        "Destroyed",
        "On hand",
    ]);
    h += &tr(&[
        &received.to_string(),
        &sold.to_string(),
        &destroyed.to_string(),
        &on_hand.to_string(),
    ]);
    h += "</table>\n<h3>Received</h3>\n";
    h += &head(&[at, "Series", "Faces", "Count", "Note"]);
    for r in &p.received {
        h += &tr(&[
            &r.time,
            r.series.as_deref().unwrap_or(""),
            &r.faces.words(),
            &r.faces.count().to_string(),
            r.note.as_deref().unwrap_or(""),
        ]);
    }
    h += "</table>\n<h3>Issued to sessions</h3>\n";
    if p.sessions.is_empty() {
        h += "<p>No session has sold this paper.</p>\n";
    } else {
        h += &head(&[
            &at.replace("Time", "First sale"),
            "Session",
            "Log",
            "Issued",
            "Came back",
            "Sold",
            "Faces sold",
        ]);
        for x in &p.sessions {
            h += &tr(&[
                &x.first,
                &format!("{} (night {})", x.title, x.night),
                &x.log,
                &x.issued.to_string(),
                &x.back.to_string(),
                &x.holds.count().to_string(),
                &x.holds.words(),
            ]);
        }
        h += "</table>\n";
    }
    if !p.destroyed.is_empty() {
        h += "<h3>Destroyed</h3>\n";
        h += &head(&[at, "Faces", "Count", "Why"]);
        for d in &p.destroyed {
            h += &tr(&[
                &d.time,
                &d.faces.words(),
                &d.faces.count().to_string(),
                &d.why,
            ]);
        }
        h += "</table>\n";
    }
    h += &format!(
        "<h3>On hand</h3>\n<p>{}: {}</p>\n",
        esc(&count_of(on_hand, "face")),
        esc(&p.on_hand().words())
    );
    h
}

/// The book as CSV: a row per receipt, session and loss, and a row of each
/// card file's faces on hand.
pub fn stock_csv(s: &Standing) -> Result<String, ::csv::Error> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record([
        "cards", "row", "time", "series", "session", "log", "issued", "back", "faces", "count",
        "detail",
    ])?;
    for p in &s.papers {
        let row = |what: &str,
                   time: &str,
                   faces: &Faces,
                   [series, session, log, issued, back, detail]: [&str; 6]| {
            [
                p.cards.clone(),
                what.to_string(),
                time.to_string(),
                series.to_string(),
                session.to_string(),
                log.to_string(),
                issued.to_string(),
                back.to_string(),
                faces.words(),
                faces.count().to_string(),
                detail.to_string(),
            ]
        };
        for r in &p.received {
            let series = r.series.as_deref().unwrap_or("");
            let note = r.note.as_deref().unwrap_or("");
            w.write_record(row(
                "received",
                &r.time,
                &r.faces,
                [series, "", "", "", "", note],
            ))?;
        }
        for x in &p.sessions {
            let (issued, back) = (x.issued.to_string(), x.back.to_string());
            let session = format!("{} (night {})", x.title, x.night);
            w.write_record(row(
                "session",
                &x.first,
                &x.holds,
                ["", &session, &x.log, &issued, &back, ""],
            ))?;
        }
        for d in &p.destroyed {
            w.write_record(row(
                "destroyed",
                &d.time,
                &d.faces,
                ["", "", "", "", "", &d.why],
            ))?;
        }
        w.write_record(row("on hand", "", &p.on_hand(), [""; 6]))?;
    }
    String::from_utf8(w.into_inner().map_err(|e| e.into_error())?)
        .map_err(|e| ::csv::Error::from(std::io::Error::other(e)))
}

/// The book as JSON.
pub fn stock_json(s: &Standing) -> serde_json::Value {
    let ranges = |f: &Faces| f.pairs();
    let papers: Vec<_> = (s.papers.iter())
        .map(|p| {
            let [received, sold, destroyed, on_hand] = totals(p);
            json!({
                "cards": p.cards,
                "path": p.path,
                "totals": {"received": received, "sold": sold, "destroyed": destroyed, "on_hand": on_hand},
                "received": p.received.iter().map(|r| json!({
                    "time": r.time, "series": r.series, "faces": ranges(&r.faces),
                    "count": r.faces.count(), "note": r.note,
                })).collect::<Vec<_>>(),
                "sessions": p.sessions.iter().map(|x| json!({
                    "night": x.night, "title": x.title, "log": x.log, "first": x.first,
                    "issued": x.issued, "back": x.back, "sold": ranges(&x.holds),
                    "count": x.holds.count(),
                })).collect::<Vec<_>>(),
                "destroyed": p.destroyed.iter().map(|d| json!({
                    "time": d.time, "faces": ranges(&d.faces), "count": d.faces.count(), "why": d.why,
                })).collect::<Vec<_>>(),
                "on_hand": ranges(&p.on_hand()),
            })
        })
        .collect();
    json!({ "papers": papers })
}
