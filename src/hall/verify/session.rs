//! A session's line checked (its card files given, its sold faces), and a
//! progressive jackpot's must-go date against the day its game started.

use super::{finding, parse_sold, Finding};
use crate::hall::event as ev;
use crate::hall::judge::Cards;
use crate::hall::Event;

/// A session's line: its files and sold faces; on a night that sells by
/// serial range, each game's faces come from its start (a resume in the
/// middle of a game keeps them).
pub(super) fn session(s: &ev::Session, cards: &mut Cards, at: u64) -> Result<(), Finding> {
    let ev::Session {
        files,
        sold,
        products,
        ..
    } = s;
    let before = cards.sold.take();
    self::files(files, sold.as_deref(), cards, at)?;
    if !products.is_empty() {
        cards.sold = Some(before.unwrap_or_default());
    }
    Ok(())
}

/// A progressive jackpot's must-go date judged on the day its game
/// started, as the line's time gives it.
pub(super) fn must_go(
    line: &crate::hall::log::Line<crate::hall::Event>,
    books: &crate::hall::books::Books,
) -> Result<(), Finding> {
    let Event::GameStart(ev::GameStart { rules, .. }) = &line.event else {
        return Ok(());
    };
    let Some(p) = &rules.progressive else {
        return Ok(());
    };
    // The hall's local day, within a day of the line's UTC date (no zone
    // is further); an older line's, the UTC date.
    let utc = line.time.get(..10).unwrap_or("");
    let day = if p.day.is_empty() {
        utc
    } else {
        p.day.as_str()
    };
    if !crate::hall::sales::parse::is_date(day) || !within_a_day(day, utc) {
        return Err(finding(
            line.seq,
            format!("the progressive jackpot {:?} was judged on {day:?}, not the hall's day of a line at {}", p.name, line.time),
        ));
    }
    match books.pots().iter().find(|q| q.rules.name == p.name) {
        Some(pot) if pot.rules.must_go_on(day) != p.must_go => Err(finding(
            line.seq,
            format!(
                "the progressive jackpot {:?} {} on {day}, but its must-go date is {}",
                p.name,
                if p.must_go {
                    "had to go"
                } else {
                    "did not have to go"
                },
                pot.rules.must_go.as_deref().unwrap_or("none")
            ),
        )),
        _ => Ok(()),
    }
}

/// A session's files must be among `--cards`; its sold faces hold for
/// the claims after it.
fn files(
    files: &[crate::hall::FileEntry],
    sold: Option<&str>,
    cards: &mut Cards,
    at: u64,
) -> Result<(), Finding> {
    for f in files {
        if !cards.files.iter().any(|c| c.short_id() == f.id) {
            return Err(finding(
                at,
                format!(
                    "the session used the card file {} (id {}), which was not given",
                    f.path, f.id
                ),
            ));
        }
    }
    let first = cards.files[0].header();
    cards.sold = sold
        .map(|text| parse_sold(text, first))
        .transpose()
        .map_err(|e| finding(at, format!("its sold faces: {e}")))?;
    Ok(())
}

/// Whether the dates `a` and `b` (`YYYY-MM-DD`) are at most a day apart.
fn within_a_day(a: &str, b: &str) -> bool {
    let days = |d: &str| -> Option<i64> {
        let (y, m, dd) = (
            d.get(..4)?.parse().ok()?,
            d.get(5..7)?.parse().ok()?,
            d.get(8..10)?.parse().ok()?,
        );
        Some(crate::cardfile::date::days_from_civil(y, m, dd))
    };
    matches!((days(a), days(b)), (Some(x), Some(y)) if (x - y).abs() <= 1)
}

/// What the night file a log's first session names says of its prices.
#[derive(Debug, PartialEq, Eq)]
pub enum Pinned {
    /// The log names no night file, or one that sells nothing.
    Nothing,
    /// The file is as the session opened it, and its products are the
    /// session line's: the prices the sales were checked against.
    Same { path: String },
    /// The file is as the session opened it, but its products are not
    /// those the session line states (a price edited in the log).
    Differs { line: u64, why: String },
    /// The file cannot be had as the session opened it.
    Unavailable { path: String, why: String },
}

/// The products of `lines`' first session checked against the night file
/// it names, when that file is still as it was (its SHA-256): a log whose
/// prices were edited, every hash chained again, is named here.
pub fn pinned(lines: &[crate::hall::log::Line<crate::hall::Event>]) -> Pinned {
    let first = lines.iter().find_map(|l| match &l.event {
        Event::Session(ev::Session {
            night: Some(entry),
            products,
            ..
        }) => Some((l.seq, entry, products)),
        _ => None,
    });
    let Some((line, entry, products)) = first else {
        return Pinned::Nothing;
    };
    let path = entry.path.clone();
    let unavailable = |why: String| Pinned::Unavailable {
        path: path.clone(),
        why,
    };
    let bytes = match std::fs::read(&entry.path) {
        Ok(b) => b,
        Err(e) => return unavailable(format!("cannot be read ({e})")),
    };
    if crate::text::sha256_hex(&bytes) != entry.sha256 {
        return unavailable("was changed since the session opened it".into());
    }
    let night = std::str::from_utf8(&bytes)
        .map_err(|e| e.to_string())
        .and_then(|t| crate::hall::night::Night::parse(t).map_err(|e| e.to_string()));
    match night {
        Err(why) => unavailable(format!("cannot be read as a night file ({why})")),
        Ok(n) if n.products.is_empty() && products.is_empty() => Pinned::Nothing,
        Ok(n) if n.products != *products => {
            let named = |ps: &[crate::hall::sales::Product]| {
                (ps.iter())
                    .map(|p| {
                        format!(
                            "{:?} {}",
                            p.name,
                            crate::hall::money::show(p.price, &n.currency)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            Pinned::Differs {
                line,
                why: format!(
                    "the session's products ({}) are not those of the night file '{}' it opened with ({})",
                    named(products),
                    entry.path,
                    named(&n.products)
                ),
            }
        }
        Ok(_) => Pinned::Same { path },
    }
}
